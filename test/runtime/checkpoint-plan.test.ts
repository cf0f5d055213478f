import { assert, describe, it } from "@effect/vitest"
import { Effect, Random } from "effect"
import * as CheckpointPlan from "../../src/runtime/CheckpointPlan.js"

const INTERVAL = 10_000

/** A character with applied events not yet checkpointed and nothing held for recent.json. */
const dueState = (): CheckpointPlan.Plannable => ({
  checkpointDue: "event-1",
  checkpointScheduled: false,
  idleCheckpointScheduled: false,
  lastWriteAt: 0,
  recent: { held: () => 0, flushBy: () => Infinity, flush: Effect.succeed(true) },
  checkpoint: Effect.void
})

/** A plan whose timers only record the regular checkpoints' delays. */
const recording = () => {
  const delays: Array<number> = []
  const plan = CheckpointPlan.make({
    intervalMs: INTERVAL,
    idleMs: 500,
    later: (idle, delay) => Effect.sync(() => (idle ? undefined : delays.push(delay)))
  })
  return { plan, delays }
}

describe("CheckpointPlan", () => {
  it.effect("plans each regular checkpoint within the interval's second half, spread across characters", () =>
    Effect.gen(function* () {
      const { plan, delays } = recording()
      const states = Array.from({ length: 100 }, dueState)
      for (const state of states) yield* plan.plan(state)
      // Planned once per character: a second batch before the checkpoint runs adds no timer.
      yield* plan.plan(states[0]!)
      assert.strictEqual(delays.length, 100)
      assert.isTrue(states.every((s) => s.checkpointScheduled))
      assert.isTrue(delays.every((d) => Number.isInteger(d) && d >= INTERVAL / 2 && d <= INTERVAL))
      // Characters that started together do not checkpoint together: the delays cover the half interval.
      const spread = Math.max(...delays) - Math.min(...delays)
      assert.isAbove(spread, INTERVAL / 4)
      assert.isAbove(new Set(delays).size, 90)
    }).pipe(Effect.withRandom(Random.make("checkpoint-spread")))
  )

  it.effect("plans no regular checkpoint when nothing is due", () =>
    Effect.gen(function* () {
      const { plan, delays } = recording()
      yield* plan.plan({ ...dueState(), checkpointDue: undefined })
      assert.deepStrictEqual(delays, [])
    })
  )
})
