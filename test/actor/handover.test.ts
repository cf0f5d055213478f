import { assert, describe, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Fiber, RcMap, TestClock } from "effect"
import * as Handover from "../../src/actor/Handover.js"

describe("Handover", () => {
  it.scoped("a new build of a key waits until the evicted one has closed", () =>
    Effect.gen(function* () {
      const events: Array<string> = []
      const gate = yield* Deferred.make<void>()
      const handover = Handover.make<string>()
      let builds = 0
      const map = yield* RcMap.make({
        lookup: (key: string) =>
          handover.guard(
            key,
            Effect.gen(function* () {
              const n = ++builds
              events.push(`open ${n}`)
              yield* Effect.addFinalizer(() =>
                (n === 1 ? Deferred.await(gate) : Effect.void).pipe(
                  Effect.zipRight(Effect.sync(() => events.push(`close ${n}`)))
                )
              )
              return n
            })
          ),
        idleTimeToLive: Duration.minutes(1)
      })
      assert.strictEqual(yield* Effect.scoped(RcMap.get(map, "a")), 1)
      yield* TestClock.adjust("2 minutes")
      assert.deepStrictEqual([...(yield* RcMap.keys(map))], [])
      const second = yield* Effect.fork(Effect.scoped(RcMap.get(map, "a")))
      const other = yield* Effect.scoped(RcMap.get(map, "b"))
      assert.strictEqual(other, 2)
      assert.deepStrictEqual(events, ["open 1", "open 2"])
      yield* Deferred.succeed(gate, undefined)
      assert.strictEqual(yield* Fiber.join(second), 3)
      assert.deepStrictEqual(events, ["open 1", "open 2", "close 1", "open 3"])
    })
  )
})
