/**
 * A clock the host sets: an Effect `Clock` whose time is a mutable value the embedding process moves with
 * `setTime` / `advance` (replaying dated conversations, simulations, evaluations). Only the reading of time
 * follows the host; waits (`Effect.sleep`, schedules, timeouts, the actor idle TTL) take real time, so jumping
 * the clock a month ahead does not fire a month of timers at once. Like a wall clock, it may be set backwards;
 * keeping it monotonic is the host's choice.
 */
import { Clock, Effect } from "effect"

export interface HostClock extends Clock.Clock {
  /** The current host time in epoch milliseconds. */
  readonly now: () => number
  /** Sets the clock to `millis` (epoch ms). */
  readonly setTime: (millis: number) => void
  /** Moves the clock forward by `millis`. */
  readonly advance: (millis: number) => void
}

/** A host clock starting at `initialMillis` (epoch ms). */
export const makeHostClock = (initialMillis: number): HostClock => {
  const live = Clock.make()
  const state = { millis: Math.floor(initialMillis) }
  const nanos = () => BigInt(state.millis) * 1_000_000n
  return {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => state.millis,
    currentTimeMillis: Effect.sync(() => state.millis),
    unsafeCurrentTimeNanos: nanos,
    currentTimeNanos: Effect.sync(nanos),
    sleep: (duration) => live.sleep(duration),
    now: () => state.millis,
    setTime: (millis) => {
      if (Number.isFinite(millis)) state.millis = Math.floor(millis)
    },
    advance: (millis) => {
      if (Number.isFinite(millis) && millis > 0) state.millis += Math.floor(millis)
    }
  }
}
