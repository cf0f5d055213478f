import { assert, describe, it } from "@effect/vitest"
import { initialTransition, transition } from "xstate"
import { personaMachine, type PersonaEvent } from "../../machines/persona.js"
import {
  decodeReflectionCommand,
  reflectionMachine,
  type ReflectionEvent,
  type ReflectionLimits
} from "../../machines/reflection.js"

const evaluated = (over: Partial<Extract<ReflectionEvent, { type: "evidence.evaluated" }>>): ReflectionEvent => ({
  type: "evidence.evaluated",
  score: 0,
  powerful: true,
  daysSinceCreated: 0,
  daysSinceConfirmed: 0,
  minutesSincePromoteAttempt: null,
  promoteAttempts: 0,
  ...over
})

const runReflection = (events: ReadonlyArray<ReflectionEvent>, limits?: Partial<ReflectionLimits>) => {
  let [s] = initialTransition(reflectionMachine, limits ? { limits } : undefined)
  let actions: Array<{ type: string; params?: unknown }> = []
  for (const e of events) {
    const [next, emitted] = transition(reflectionMachine, s, e)
    s = next
    actions = emitted.map((a) => ({ type: a.type, params: a.params }))
  }
  return { value: s.value, actions: actions.map((a) => a.type), params: actions.map((a) => a.params), status: s.status }
}

describe("reflection machine", () => {
  it("confirms a pending reflection by score when powerful memory is on, by age when off", () => {
    assert.strictEqual(runReflection([evaluated({ score: 0.99 })]).value, "pending")
    const byScore = runReflection([evaluated({ score: 1 })])
    assert.deepStrictEqual(
      [byScore.value, byScore.actions, byScore.params],
      ["confirmed", ["markConfirmed"], [{ auto: false }]]
    )
    assert.strictEqual(
      runReflection([evaluated({ score: 5, powerful: false, daysSinceCreated: 6.9 })]).value,
      "pending"
    )
    const byAge = runReflection([evaluated({ powerful: false, daysSinceCreated: 7 })])
    assert.deepStrictEqual([byAge.value, byAge.params], ["confirmed", [{ auto: true }]])
  })

  it("asks for a promotion at score 2 with a 30-minute backoff, and blocks after 5 attempts", () => {
    const confirmed = evaluated({ score: 1 })
    assert.deepStrictEqual(runReflection([confirmed, evaluated({ score: 2 })]).actions, ["requestPromotion"])
    assert.deepStrictEqual(
      runReflection([confirmed, evaluated({ score: 2, minutesSincePromoteAttempt: 29 })]).actions,
      []
    )
    assert.deepStrictEqual(
      runReflection([confirmed, evaluated({ score: 2, minutesSincePromoteAttempt: 30, promoteAttempts: 4 })]).actions,
      ["requestPromotion"]
    )
    const blocked = runReflection([confirmed, evaluated({ score: 2.5, promoteAttempts: 5 })])
    assert.deepStrictEqual([blocked.value, blocked.params], ["promote_blocked", [{ reason: "llm_unavailable" }]])
    assert.deepStrictEqual(runReflection([confirmed, evaluated({ score: 1.9 })]).actions, [])
  })

  it("promotes by time when powerful memory is off", () => {
    const confirmed = evaluated({ powerful: false, daysSinceCreated: 7 })
    assert.deepStrictEqual(
      runReflection([confirmed, evaluated({ powerful: false, daysSinceConfirmed: 6 })]).actions,
      []
    )
    assert.deepStrictEqual(runReflection([confirmed, evaluated({ powerful: false, daysSinceConfirmed: 7 })]).actions, [
      "promoteTimeDriven"
    ])
  })

  it("ends a confirmed reflection as promoted, merged or denied", () => {
    const c = evaluated({ score: 1 })
    assert.strictEqual(runReflection([c, { type: "promotion.fresh" }]).value, "promoted")
    const merged = runReflection([c, { type: "promotion.merged", into: "persona.master.manual_1" }])
    assert.deepStrictEqual([merged.value, merged.params], ["merged", [{ into: "persona.master.manual_1" }]])
    const rejected = runReflection([c, { type: "promotion.rejected", reason: "llm_merge_rejected" }])
    assert.deepStrictEqual([rejected.value, rejected.params], ["denied", [{ reason: "llm_merge_rejected" }]])
    assert.deepStrictEqual(runReflection([c, { type: "rebutted" }]).params, [{ reason: "rebuttal" }])
    assert.strictEqual(runReflection([{ type: "rebutted" }]).value, "pending")
    assert.strictEqual(runReflection([{ type: "promotion.fresh" }]).value, "pending")
  })

  it("applies feedback; a denial ends the reflection", () => {
    const ignored = runReflection([{ type: "feedback", verdict: "ignored" }])
    assert.deepStrictEqual(
      [ignored.value, ignored.actions, ignored.params],
      ["pending", ["applyFeedback"], [{ verdict: "ignored" }]]
    )
    const denied = runReflection([{ type: "feedback", verdict: "denied" }])
    assert.deepStrictEqual([denied.value, denied.actions], ["denied", ["applyFeedback", "markDenied"]])
    assert.strictEqual(
      runReflection([evaluated({ score: 1 }), { type: "feedback", verdict: "confirmed" }]).value,
      "confirmed"
    )
    const late = runReflection([
      { type: "feedback", verdict: "denied" },
      { type: "feedback", verdict: "confirmed" }
    ])
    assert.deepStrictEqual([late.value, late.actions], ["denied", []])
  })

  it("archives after 14 sub-zero days from any state, and terminal rows after 30 days", () => {
    assert.strictEqual(runReflection([{ type: "sub_zero.checked", days: 13 }]).value, "pending")
    const archived = runReflection([{ type: "sub_zero.checked", days: 14 }])
    assert.deepStrictEqual(
      [archived.value, archived.status, archived.params],
      ["archived", "done", [{ reason: "sub_zero" }]]
    )
    const denied = { type: "feedback", verdict: "denied" } as const
    assert.strictEqual(runReflection([denied, { type: "retention.checked", daysSinceTerminal: 29 }]).value, "denied")
    assert.strictEqual(runReflection([denied, { type: "retention.checked", daysSinceTerminal: 30 }]).value, "archived")
    assert.strictEqual(
      runReflection([evaluated({ score: 1 }), { type: "retention.checked", daysSinceTerminal: 99 }]).value,
      "confirmed"
    )
  })

  it("follows an operator's confirm, deny and archive where the lifecycle allows them", () => {
    const m = (action: "confirm" | "deny" | "archive") => ({ type: "manual", action }) as const
    const confirmed = runReflection([m("confirm")])
    assert.deepStrictEqual([confirmed.value, confirmed.params], ["confirmed", [{ auto: false }]])
    assert.deepStrictEqual(runReflection([m("deny")]).params, [{ reason: "manual" }])
    assert.strictEqual(runReflection([m("confirm"), m("deny")]).value, "denied")
    assert.strictEqual(runReflection([m("confirm"), m("confirm")]).value, "confirmed")
    const archived = runReflection([m("deny"), m("archive")])
    assert.deepStrictEqual([archived.value, archived.params], ["archived", [{ reason: "manual" }]])
    assert.strictEqual(runReflection([m("deny"), m("confirm")]).value, "denied")
    assert.strictEqual(runReflection([m("archive"), m("confirm")]).value, "archived")
  })

  it("takes its thresholds from the context (the configured tunables)", () => {
    assert.strictEqual(runReflection([evaluated({ score: 1 })], { confirm: 1.5 }).value, "pending")
    assert.strictEqual(runReflection([evaluated({ score: 1.5 })], { confirm: 1.5 }).value, "confirmed")
    assert.strictEqual(runReflection([{ type: "sub_zero.checked", days: 10 }], { archiveDays: 10 }).value, "archived")
  })

  it("suppresses a confirmed reflection mentioned too often, never a pending one, and lifts it after the cooldown", () => {
    const confirm = evaluated({ score: 1 })
    const mentioned = (n: number, suppressed = false) =>
      ({ type: "mentioned", mentionsInWindow: n, suppressed }) as const
    assert.deepStrictEqual(runReflection([mentioned(3)]).actions, [])
    assert.deepStrictEqual(runReflection([confirm, mentioned(2)]).actions, [])
    const suppressed = runReflection([confirm, mentioned(3)])
    assert.deepStrictEqual([suppressed.value, suppressed.actions], ["confirmed", ["markSuppressed"]])
    assert.deepStrictEqual(runReflection([confirm, mentioned(3, true)]).actions, [])
    const cooldown = (hours: number, suppressed = true) =>
      ({ type: "cooldown.checked", hoursSinceSuppressed: hours, suppressed }) as const
    assert.deepStrictEqual(runReflection([confirm, cooldown(4.9)]).actions, [])
    assert.deepStrictEqual(runReflection([confirm, cooldown(5, false)]).actions, [])
    const lifted = runReflection([confirm, cooldown(5)])
    assert.deepStrictEqual([lifted.value, lifted.actions], ["confirmed", ["liftSuppression"]])
  })

  it("emits only actions its command schema decodes", () => {
    const [, emitted] = transition(reflectionMachine, initialTransition(reflectionMachine)[0], evaluated({ score: 1 }))
    for (const a of emitted) assert.isTrue(decodeReflectionCommand(a)._tag === "Some")
  })
})

const runPersona = (events: ReadonlyArray<PersonaEvent>, isProtected = false) => {
  let [s] = initialTransition(personaMachine, { protected: isProtected })
  let types: Array<string> = []
  for (const e of events) {
    const [next, emitted] = transition(personaMachine, s, e)
    s = next
    types = emitted.map((a) => a.type)
  }
  return { value: s.value, actions: types }
}

describe("persona machine", () => {
  it("suppresses an entry mentioned more than twice and lifts it after the cooldown", () => {
    assert.strictEqual(runPersona([{ type: "mentioned", mentionsInWindow: 2 }]).value, "active")
    const suppressed = runPersona([{ type: "mentioned", mentionsInWindow: 3 }])
    assert.deepStrictEqual(suppressed, { value: "suppressed", actions: ["markSuppressed"] })
    const three = { type: "mentioned", mentionsInWindow: 3 } as const
    assert.strictEqual(runPersona([three, { type: "cooldown.checked", hoursSinceSuppressed: 4.9 }]).value, "suppressed")
    assert.deepStrictEqual(runPersona([three, { type: "cooldown.checked", hoursSinceSuppressed: 5 }]), {
      value: "active",
      actions: ["liftSuppression"]
    })
  })

  it("queues a correction and resolves it each way", () => {
    const c = { type: "contradicted", correctionId: "c1" } as const
    assert.deepStrictEqual(runPersona([c]), { value: "corrected", actions: ["queueCorrection"] })
    for (const [action, expected] of [
      ["merge", "rewrite"],
      ["keep_new", "replaceWithNew"],
      ["keep_old", "dropNew"],
      ["keep_both", "appendNew"]
    ] as const) {
      assert.deepStrictEqual(
        runPersona([c, { type: "correction.resolved", action, text: "merged", othersQueued: 0 }]),
        {
          value: "active",
          actions: [expected]
        }
      )
      assert.deepStrictEqual(runPersona([c, c, { type: "correction.resolved", action, text: "m", othersQueued: 1 }]), {
        value: "corrected",
        actions: [expected]
      })
    }
  })

  it("never suppresses a corrected or protected entry; a contradiction lifts a suppression and queues", () => {
    const c = { type: "contradicted", correctionId: "c1" } as const
    const many = { type: "mentioned", mentionsInWindow: 9 } as const
    assert.deepStrictEqual(runPersona([c, many]), { value: "corrected", actions: [] })
    assert.deepStrictEqual(runPersona([many], true), { value: "active", actions: [] })
    assert.deepStrictEqual(runPersona([many, c]), {
      value: "corrected",
      actions: ["liftSuppression", "queueCorrection"]
    })
    assert.deepStrictEqual(runPersona([c], true), { value: "active", actions: ["rejectNew"] })
    assert.deepStrictEqual(runPersona([c, { ...c, correctionId: "c2" }]), {
      value: "corrected",
      actions: ["queueCorrection"]
    })
  })

  it("archives after 14 sub-zero days, but never a protected entry", () => {
    assert.strictEqual(runPersona([{ type: "sub_zero.checked", days: 13 }]).value, "active")
    assert.deepStrictEqual(runPersona([{ type: "sub_zero.checked", days: 14 }]), {
      value: "archived",
      actions: ["archive"]
    })
    assert.strictEqual(runPersona([{ type: "sub_zero.checked", days: 40 }], true).value, "active")
    assert.strictEqual(runPersona([{ type: "archive.requested" }], true).value, "active")
    assert.strictEqual(
      runPersona([{ type: "mentioned", mentionsInWindow: 9 }, { type: "archive.requested" }]).value,
      "archived"
    )
  })
})
