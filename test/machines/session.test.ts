import { assert, describe, it } from "@effect/vitest"
import { initialTransition, transition } from "xstate"
import { sessionMachine, type SessionEvent } from "../../machines/session.js"

const run = (events: ReadonlyArray<SessionEvent>) => {
  let [snapshot] = initialTransition(sessionMachine)
  let actions: Array<string> = []
  for (const e of events) {
    const [next, emitted] = transition(sessionMachine, snapshot, e)
    snapshot = next
    actions = emitted.map((a) => a.type).filter((t) => !t.startsWith("xstate."))
  }
  return { snapshot, actions }
}

describe("session machine", () => {
  it("starts idle", () => {
    const [s] = initialTransition(sessionMachine)
    assert.strictEqual(s.value, "idle")
    assert.deepStrictEqual(s.context, { settlesInFlight: 0, deferredDialogs: 0 })
  })

  it("cache persists turns and never compresses", () => {
    const { snapshot, actions } = run([{ type: "cache", count: 2 }])
    assert.deepStrictEqual(actions, ["persistTurns"])
    assert.strictEqual(snapshot.value, "idle")
  })

  it("cache with no turns does nothing", () => {
    const { actions } = run([{ type: "cache", count: 0 }])
    assert.deepStrictEqual(actions, [])
  })

  it("process persists, compresses (normal) and offers a review without entering settling", () => {
    const [s0] = initialTransition(sessionMachine)
    const [s1, emitted] = transition(sessionMachine, s0, { type: "process", count: 1 })
    assert.deepStrictEqual(
      emitted.map((a) => a.type),
      ["persistTurns", "compress", "offerReview"]
    )
    assert.deepStrictEqual(emitted[1]?.params, { detailed: false })
    assert.strictEqual(s1.value, "idle")
  })

  it("renew and settle start a detailed settle and enter settling", () => {
    for (const type of ["renew", "settle"] as const) {
      const { snapshot, actions } = run([{ type, count: 0 }])
      assert.deepStrictEqual(actions, ["persistTurns", "startSettle"])
      assert.strictEqual(snapshot.value, "settling")
      assert.strictEqual(snapshot.context.settlesInFlight, 1)
    }
  })

  it("new_dialog renders when idle", () => {
    assert.deepStrictEqual(run([{ type: "new_dialog" }]).actions, ["renderDialog"])
  })

  it("new_dialog waits while a settle is in flight and is released when it is done", () => {
    const waiting = run([{ type: "settle", count: 0 }, { type: "new_dialog" }])
    assert.deepStrictEqual(waiting.actions, ["deferDialog"])
    assert.strictEqual(waiting.snapshot.context.deferredDialogs, 1)
    const [done, emitted] = transition(sessionMachine, waiting.snapshot, { type: "settle.done" })
    assert.strictEqual(done.value, "idle")
    assert.deepStrictEqual(
      emitted.map((a) => a.type),
      ["offerReview", "releaseDialogs"]
    )
    assert.deepStrictEqual(emitted[1]?.params, { count: 1 })
    assert.strictEqual(done.context.deferredDialogs, 0)
  })

  it("overlapping settles release dialogs only after the last one", () => {
    const two = run([{ type: "settle", count: 0 }, { type: "renew", count: 2 }, { type: "new_dialog" }])
    assert.strictEqual(two.snapshot.context.settlesInFlight, 2)
    const [one, first] = transition(sessionMachine, two.snapshot, { type: "settle.done" })
    assert.strictEqual(one.value, "settling")
    assert.deepStrictEqual(
      first.map((a) => a.type),
      []
    )
    const [idle, second] = transition(sessionMachine, one, { type: "settle.done" })
    assert.strictEqual(idle.value, "idle")
    assert.include(
      second.map((a) => a.type),
      "releaseDialogs"
    )
  })

  it("cache during a settle still persists and keeps waiting", () => {
    const { snapshot, actions } = run([
      { type: "settle", count: 0 },
      { type: "cache", count: 2 }
    ])
    assert.deepStrictEqual(actions, ["persistTurns"])
    assert.strictEqual(snapshot.value, "settling")
  })

  it("settle.done while idle is ignored", () => {
    const { snapshot, actions } = run([{ type: "settle.done" }])
    assert.strictEqual(snapshot.value, "idle")
    assert.deepStrictEqual(actions, [])
  })

  it("round-trips through a persisted snapshot", () => {
    const { snapshot } = run([{ type: "settle", count: 0 }, { type: "new_dialog" }])
    const restored = sessionMachine.resolveState({ value: snapshot.value, context: snapshot.context })
    const [next] = transition(sessionMachine, restored, { type: "settle.done" })
    assert.strictEqual(next.value, "idle")
  })
})
