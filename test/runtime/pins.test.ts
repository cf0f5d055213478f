import { assert, describe, it } from "@effect/vitest"
import { Effect, RcMap, TestClock } from "effect"
import * as Pins from "../../src/runtime/Pins.js"

describe("Pins", () => {
  it.scoped("keeps the first reference as the pin and releases it once idle for the time to live", () =>
    Effect.gen(function* () {
      const events: Array<string> = []
      let builds = 0
      const map = yield* RcMap.make({
        lookup: (key: string) =>
          Effect.gen(function* () {
            const n = ++builds
            events.push(`open ${key}${n}`)
            yield* Effect.addFinalizer(() => Effect.sync(() => events.push(`close ${key}${n}`)))
            return n
          })
      })
      const busy = new Set<string>()
      const pins = yield* Pins.make<string, number>({ ttlMillis: 60_000, idle: (k) => !busy.has(k) })
      const use = (key: string) => pins.acquire(key, RcMap.get(map, key), (n) => Effect.succeed(n))

      assert.isUndefined(pins.peek("a"))
      assert.strictEqual(yield* use("a"), 1)
      assert.strictEqual(pins.peek("a"), 1)
      // A second reference while pinned is released after its use; the pin keeps the entry open.
      assert.strictEqual(yield* use("a"), 1)
      assert.deepStrictEqual(yield* RcMap.keys(map), ["a"])

      yield* pins.idleFrom("a", 0)
      yield* TestClock.adjust("50 seconds")
      yield* pins.idleFrom("a", 50_000)
      yield* TestClock.adjust("50 seconds")
      assert.deepStrictEqual(events, ["open a1"], "a later use moves the expiry on")
      busy.add("a")
      yield* TestClock.adjust("20 seconds")
      assert.deepStrictEqual(events, ["open a1"], "a key in use is not released")
      busy.delete("a")
      yield* pins.idleFrom("a", 120_000)
      yield* TestClock.adjust("60 seconds")
      assert.deepStrictEqual(events, ["open a1", "close a1"])
      assert.isUndefined(pins.peek("a"))
      assert.deepStrictEqual(yield* RcMap.keys(map), [])

      // Released at once on demand; the next use builds the entry again.
      assert.strictEqual(yield* use("b"), 2)
      yield* pins.release("b")
      assert.deepStrictEqual(events.slice(2), ["open b2", "close b2"])
      assert.strictEqual(yield* use("b"), 3)
    })
  )
})
