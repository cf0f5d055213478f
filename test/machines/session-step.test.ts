import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import { initialTransition, transition } from "xstate"
import { decodeCommand, sessionMachine, type SessionEvent } from "../../machines/session.js"
import { step } from "../../src/character/lifecycle/SessionStep.js"

const walk: ReadonlyArray<SessionEvent> = [
  { type: "cache", count: 2 },
  { type: "cache", count: 0 },
  { type: "settle", count: 1 },
  { type: "new_dialog" },
  { type: "settle", count: 0 },
  { type: "new_dialog" },
  { type: "settle.done" },
  { type: "cache", count: 2 },
  { type: "settle.done" },
  { type: "process", count: 3 },
  { type: "renew", count: 1 },
  { type: "new_dialog" },
  { type: "cache", count: 2 }
]

describe("the session machine's memoised step", () => {
  it("answers every step of a walk as the machine's own transition does, twice over", () => {
    let plain = initialTransition(sessionMachine)[0]
    let memo = plain
    for (const round of [1, 2]) {
      for (const event of walk) {
        const [next, emitted] = transition(sessionMachine, plain, event)
        const [mNext, mEmitted] = step(memo, event)
        const label = `round ${round}, ${JSON.stringify(event)}`
        assert.deepStrictEqual(mNext.value, next.value, label)
        assert.deepStrictEqual(mNext.context, next.context, label)
        assert.deepStrictEqual(
          mEmitted,
          emitted.flatMap((a) => Option.toArray(decodeCommand(a))),
          label
        )
        plain = next
        memo = mNext
      }
    }
  })
})
