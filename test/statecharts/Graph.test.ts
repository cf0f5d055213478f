import { assert, describe, it } from "@effect/vitest"
import { not, stateIn } from "xstate"
import { personaMachine } from "../../machines/persona.js"
import { reflectionMachine } from "../../machines/reflection.js"
import { sessionMachine } from "../../machines/session.js"
import { guardLabel, toGraph, type MachineGraph } from "../../src/statecharts/Graph.js"

const has = (g: MachineGraph, from: string, to: string, event: string, guard?: string) =>
  g.edges.some((e) => e.from === from && e.to === to && e.event === event && (guard === undefined || e.guard === guard))

describe("state-chart graphs", () => {
  it("lists every state node of each machine, with the initial and final ones marked", () => {
    const reflection = toGraph(reflectionMachine)
    assert.deepStrictEqual(
      reflection.states.map((s) => s.id),
      Object.keys(reflectionMachine.root.states)
    )
    assert.deepStrictEqual(
      reflection.states.filter((s) => s.initial).map((s) => s.id),
      ["pending"]
    )
    assert.deepStrictEqual(
      reflection.states.filter((s) => s.final).map((s) => s.id),
      ["archived"]
    )
    assert.deepStrictEqual(
      toGraph(personaMachine).states.map((s) => s.id),
      ["active", "suppressed", "corrected", "archived"]
    )
    assert.deepStrictEqual(
      toGraph(sessionMachine).states.map((s) => s.id),
      ["idle", "settling"]
    )
  })

  it("takes the reflection edges, guards and actions from the machine", () => {
    const g = toGraph(reflectionMachine)
    const edge = g.edges.find((e) => e.from === "pending" && e.to === "confirmed" && e.guard === "scoreConfirms")
    assert.strictEqual(edge?.event, "evidence.evaluated")
    assert.deepStrictEqual(edge?.actions, ["markConfirmed"])
    assert.strictEqual(edge?.global, false)
    assert.isTrue(has(g, "confirmed", "promoted", "promotion.fresh"))
    assert.isTrue(has(g, "confirmed", "merged", "promotion.merged"))
    assert.isTrue(has(g, "confirmed", "promote_blocked", "evidence.evaluated", "promotionBlocked"))
    assert.isTrue(has(g, "denied", "archived", "retention.checked", "retentionOver"))
  })

  it("attributes global transitions to every non-final child they can apply to", () => {
    const g = toGraph(reflectionMachine)
    const subZero = g.edges.filter((e) => e.event === "sub_zero.checked")
    assert.deepStrictEqual(
      subZero.map((e) => e.from),
      ["pending", "confirmed", "promoted", "denied", "merged", "promote_blocked"]
    )
    assert.isTrue(subZero.every((e) => e.global && e.to === "archived" && e.guard === "subZeroLong"))
    const denials = g.edges.filter((e) => e.event === "feedback" && e.to === "denied")
    assert.deepStrictEqual(
      denials.map((e) => e.from),
      ["pending", "confirmed"]
    )
    assert.strictEqual(denials[0]?.guard, "and(or(in(pending), in(confirmed)), denied)")
    const noted = g.edges.filter((e) => e.event === "feedback" && e.internal)
    assert.deepStrictEqual(
      noted.map((e) => e.from),
      ["pending", "confirmed"]
    )
  })

  it("labels parameterised guards and keeps targetless transitions as self-edges", () => {
    const persona = toGraph(personaMachine)
    assert.isTrue(has(persona, "corrected", "active", "correction.resolved", "resolvedAs(action=merge)"))
    assert.isTrue(has(persona, "active", "archived", "archive.requested", "archivable"))
    const session = toGraph(sessionMachine)
    assert.isTrue(has(session, "idle", "settling", "renew"))
    assert.isTrue(has(session, "settling", "idle", "settle.done", "lastSettle"))
    const cache = session.edges.find((e) => e.event === "cache" && e.from === "idle")
    assert.deepStrictEqual(cache && [cache.to, cache.internal, cache.global], ["idle", true, true])
    assert.strictEqual(guardLabel("plain"), "plain")
    assert.strictEqual(guardLabel(not(stateIn("idle"))), "not(in(idle))")
  })
})
