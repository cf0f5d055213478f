import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Fiber, Option, Random, Ref, TestClock } from "effect"
import { tunablesFrom } from "../../src/Config.js"
import * as P from "../../src/maintenance/policies.js"
import { tunableDefaults } from "../../src/Tunables.js"

const seeded = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.withRandom(effect, Random.make("policies"))

/** The delay (ms) or dead letter after each of `n` consecutive failures. */
const outcomes = (policy: P.RetryPolicy, n: number) =>
  Effect.forEach(
    Array.from({ length: n }, (_, i) => i + 1),
    (failures) =>
      Effect.map(P.afterFailure(policy, failures), (next) =>
        next._tag === "Retry" ? Duration.toMillis(next.delay) : "dead"
      )
  )

describe("retry policies", () => {
  it.effect("back off exponentially with ±20% jitter, then dead-letter; a seeded Random repeats the delays", () =>
    Effect.gen(function* () {
      const policy = P.compressionBackoff(tunableDefaults)
      const first = yield* seeded(outcomes(policy, 6))
      assert.deepStrictEqual(first.slice(4), ["dead", "dead"])
      const base = [30_000, 60_000, 120_000, 240_000]
      first.slice(0, 4).forEach((d, i) => {
        assert.isAtLeast(Number(d), 0.8 * (base[i] ?? 0))
        assert.isAtMost(Number(d), 1.2 * (base[i] ?? 0))
      })
      assert.notDeepEqual(first.slice(0, 4), base)
      assert.deepStrictEqual(yield* seeded(outcomes(policy, 6)), first)
    })
  )

  it("hold a dead letter until its self-heal interval has passed, or for good without one", () => {
    const synthesis = P.synthesisBackoff(tunableDefaults)
    const hour = 3_600_000
    assert.isFalse(P.deadLettered(synthesis, 4, 0, 1))
    assert.isTrue(P.deadLettered(synthesis, 5, 0, 5 * hour - 1))
    assert.isFalse(P.deadLettered(synthesis, 5, 0, 5 * hour))
    assert.isTrue(P.deadLettered(P.rebuttalRetry(tunableDefaults), 5, 0, 100 * hour))
  })

  it.effect("take their limits and delays from the tunables", () =>
    Effect.gen(function* () {
      const t = tunablesFrom({
        memory_liveness_max_attempts: 2,
        outbox_max_attempts: 3,
        rebuttal_check_interval_seconds: 100
      })
      assert.deepStrictEqual(
        [P.factIntakeRetry, P.rebuttalRetry, P.correctionRetry, P.reviewBackoff, P.synthesisBackoff].map(
          (p) => p(t).maxAttempts
        ),
        [2, 2, 2, 2, 2]
      )
      assert.strictEqual(P.outboxRetry(t).maxAttempts, 3)
      const [rebuttal, dead] = yield* seeded(outcomes(P.rebuttalRetry(t), 2))
      assert.isAtLeast(Number(rebuttal), 80_000)
      assert.isAtMost(Number(rebuttal), 120_000)
      assert.strictEqual(dead, "dead")
      assert.deepStrictEqual(yield* outcomes(P.correctionRetry(t), 2), [0, "dead"])
    })
  )

  it.effect("steps a schedule without sleeping", () =>
    Effect.gen(function* () {
      const delays = yield* Effect.forEach([1, 2, 3], (n) => P.nthDelay(P.llmRetry, n))
      assert.deepStrictEqual(delays.map(Option.map(Duration.toMillis)), [
        Option.some(1000),
        Option.some(2000),
        Option.none()
      ])
    })
  )
})

describe("supervised loops", () => {
  it.effect("retry a failing or dying pass on the backoff, then keep the loop's period", () =>
    Effect.gen(function* () {
      const runs = yield* Ref.make(0)
      const pass = Ref.updateAndGet(runs, (n) => n + 1).pipe(
        Effect.flatMap((n) => (n === 1 ? Effect.fail("first") : n === 2 ? Effect.die("second") : Effect.void))
      )
      const [loop] = P.loops(tunableDefaults)
      assert.strictEqual(loop?.name, "idle_maintenance")
      if (loop === undefined) return
      const fiber = yield* Effect.fork(seeded(P.runLoop(loop, pass)))
      yield* TestClock.adjust("20 seconds")
      assert.strictEqual(yield* Ref.get(runs), 1)
      yield* TestClock.adjust("1200 millis")
      assert.strictEqual(yield* Ref.get(runs), 2)
      yield* TestClock.adjust("2400 millis")
      assert.strictEqual(yield* Ref.get(runs), 3)
      yield* TestClock.adjust("40 seconds")
      assert.strictEqual(yield* Ref.get(runs), 4)
      yield* Fiber.interrupt(fiber)
    })
  )
})
