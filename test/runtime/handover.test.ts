import { assert, describe, it } from "@effect/vitest"
import { Deferred, Duration, Effect, Fiber, Option, RcMap, TestClock } from "effect"
import * as Admission from "../../src/runtime/Admission.js"
import * as Handover from "../../src/runtime/Handover.js"

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

  it.scoped("an exclusive hold closes the idle holder and keeps new builds waiting until it ends", () =>
    Effect.gen(function* () {
      const events: Array<string> = []
      const handover = Handover.make<string>()
      let builds = 0
      const map = yield* RcMap.make({
        lookup: (key: string) =>
          handover.guard(
            key,
            Effect.gen(function* () {
              const n = ++builds
              events.push(`open ${n}`)
              yield* Effect.addFinalizer(() => Effect.sync(() => events.push(`close ${n}`)))
              return n
            })
          ),
        idleTimeToLive: Duration.minutes(10)
      })
      assert.strictEqual(yield* Effect.scoped(RcMap.get(map, "a")), 1)
      const gate = yield* Deferred.make<void>()
      const held = yield* Effect.fork(
        Effect.scoped(
          handover.hold("a", "5 seconds", RcMap.invalidate(map, "a")).pipe(
            Effect.tap(() => Effect.sync(() => events.push("held"))),
            Effect.zipLeft(Deferred.await(gate))
          )
        )
      )
      yield* TestClock.adjust("1 millis")
      const during = yield* Effect.fork(Effect.scoped(RcMap.get(map, "a")))
      yield* TestClock.adjust("1 millis")
      assert.isNull(during.unsafePoll())
      assert.deepStrictEqual(events, ["open 1", "close 1", "held"])
      yield* Deferred.succeed(gate, undefined)
      assert.isTrue(Option.isSome(yield* Fiber.join(held)))
      assert.strictEqual(yield* Fiber.join(during), 2)
      assert.deepStrictEqual(events, ["open 1", "close 1", "held", "open 2"])
    })
  )

  it.scoped("admission: a closed door holds new requests and waits for the ones inside, or times out", () =>
    Effect.gen(function* () {
      const admission = Admission.make<string>()
      const busy = yield* Deferred.make<void>()
      const inside = yield* Effect.fork(admission.admit("a", Deferred.await(busy)))
      yield* TestClock.adjust("1 millis")
      const timedOut = yield* Effect.fork(Effect.scoped(admission.close("a", "5 seconds")))
      yield* TestClock.adjust("6 seconds")
      assert.isFalse(yield* Fiber.join(timedOut))
      const gate = yield* Deferred.make<void>()
      const closed = yield* Effect.fork(
        Effect.scoped(admission.close("a", "5 seconds").pipe(Effect.zipLeft(Deferred.await(gate))))
      )
      yield* TestClock.adjust("1 millis")
      const later = yield* Effect.fork(admission.admit("a", Effect.succeed("later")))
      yield* TestClock.adjust("1 millis")
      assert.isNull(closed.unsafePoll())
      yield* Deferred.succeed(busy, undefined)
      yield* Fiber.join(inside)
      yield* TestClock.adjust("1 millis")
      assert.isNull(later.unsafePoll())
      yield* Deferred.succeed(gate, undefined)
      assert.isTrue(yield* Fiber.join(closed))
      assert.strictEqual(yield* Fiber.join(later), "later")
      assert.strictEqual(yield* admission.admit("b", Effect.succeed(1)), 1)
    })
  )
})
