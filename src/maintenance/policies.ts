/**
 * Every timing policy of background work in one place (neko-compat §4.13 and kioku's own), as Schedules
 * derived from the tunables: the maintenance loops and their restart backoff, the supervision of character
 * actors, and the retry policies of work that fails (jittered exponential backoff, then a dead letter, some
 * with a self-heal probe). Jitter draws from Effect's `Random`, so a test that provides a seeded `Random`
 * and steps `TestClock` sees the same delays every run. Work retried across commands asks `afterFailure`
 * for the delay of its next try and `deadLettered` whether it may run at all.
 */
import { Cause, Duration, Effect, Option, Schedule, ScheduleDecision, ScheduleIntervals, Schema } from "effect"
import type { Tunables } from "../Tunables.js"

const seconds = (n: number) => Duration.seconds(Math.max(0, n))

/** Retries of a chat-completions call on network errors, 429 and 5xx: after 1 s and 2 s. */
export const llmRetry = Schedule.exponential("1 second", 2).pipe(Schedule.intersect(Schedule.recurs(2)))

/** A background loop of neko-compat §4.13: first run after `first`, then every `every`. */
export const LoopName = Schema.Literal(
  "idle_maintenance",
  "signal_extraction",
  "auto_promote",
  "reflection_synthesis",
  "archive_sweep",
  "rebuttal",
  "vector_backfill"
)
export type LoopName = typeof LoopName.Type

export interface Loop {
  readonly name: LoopName
  readonly first: Duration.Duration
  readonly every: Duration.Duration
  readonly enabled: boolean
}

/** The loops with their first delay (N.E.K.O.'s start offsets) and their period from the tunables. */
export const loops = (t: Tunables): ReadonlyArray<Loop> => [
  { name: "idle_maintenance", first: seconds(20), every: seconds(t.idle_check_interval_seconds), enabled: true },
  {
    name: "signal_extraction",
    first: seconds(60),
    every: seconds(t.evidence_signal_check_interval_seconds),
    enabled: t.evidence_signal_check_enabled
  },
  { name: "auto_promote", first: seconds(150), every: seconds(t.auto_promote_check_interval_seconds), enabled: true },
  {
    name: "reflection_synthesis",
    first: seconds(200),
    every: seconds(t.memory_reflection_synthesis_interval_seconds),
    enabled: true
  },
  {
    name: "archive_sweep",
    first: seconds(250),
    every: seconds(t.evidence_archive_sweep_interval_seconds),
    enabled: true
  },
  { name: "rebuttal", first: seconds(100), every: seconds(t.rebuttal_check_interval_seconds), enabled: true },
  { name: "vector_backfill", first: seconds(30), every: seconds(t.embedding_poll_seconds), enabled: true }
]

/** The repetition of a loop after its first run. */
export const loopSchedule = (loop: Loop) => Schedule.spaced(loop.every)

/** A loop pass that failed or died is run again after 1 s, 2 s, 4 s … (jittered), at most 5 minutes apart. */
export const loopRestart: Schedule.Schedule<unknown, unknown> = Schedule.exponential("1 second", 2).pipe(
  Schedule.either(Schedule.spaced("5 minutes")),
  Schedule.jittered
)

/** The first line of a cause, for logs (never memory text: causes carry error messages only). */
export const causeLine = (cause: Cause.Cause<unknown>): string => Cause.pretty(cause).split("\n")[0] ?? "defect"

/**
 * Runs `pass` on `loop`'s schedule forever; a pass that fails or dies is logged and retried on `loopRestart`
 * (reset once a pass succeeds), so no failure ends the loop.
 */
export const runLoop = <E, R>(loop: Loop, pass: Effect.Effect<void, E, R>): Effect.Effect<never, never, R> =>
  Effect.sleep(loop.first).pipe(
    Effect.zipRight(
      pass.pipe(
        Effect.sandbox,
        Effect.tapError((cause) =>
          Effect.logError("maintenance loop pass failed; retrying on its backoff").pipe(
            Effect.annotateLogs({ loop: loop.name, cause: causeLine(cause) })
          )
        ),
        Effect.retry(loopRestart),
        Effect.orDie,
        Effect.repeat(loopSchedule(loop))
      )
    ),
    Effect.zipRight(Effect.never)
  )

/** Idle means no request for this long (neko-compat `IDLE_THRESHOLD`). */
export const idleAfter = (t: Tunables) => seconds(t.idle_threshold_seconds)

/**
 * How a character actor is supervised (actor/Actor.ts): after a crash it is rebuilt from disk at once, then
 * after 100 ms, 200 ms … (jittered, 5 tries); once those fail too it is parked. A parked actor answers every
 * request with a parked `ActorDefect` at once, tries again on its own after 30 s, 60 s … (at most 10 minutes
 * apart), and on the first request that arrives `probeAfter` after its last try.
 */
export interface Supervision {
  readonly restart: Schedule.Schedule<unknown, unknown>
  readonly parked: Schedule.Schedule<unknown, unknown>
  readonly probeAfter: Duration.Duration
}

export const actorSupervision: Supervision = {
  restart: Schedule.exponential("100 millis", 2).pipe(Schedule.jittered, Schedule.intersect(Schedule.recurs(5))),
  parked: Schedule.exponential("30 seconds", 2).pipe(Schedule.either(Schedule.spaced("10 minutes")), Schedule.jittered),
  probeAfter: Duration.seconds(10)
}

/** Work retried across commands: the delays between tries, the dead letter, and its self-heal probe. */
export interface RetryPolicy {
  /** The delay before the n-th retry is the n-th delay of this schedule; it ends at the dead letter. */
  readonly backoff: Schedule.Schedule<unknown, unknown>
  /** Consecutive failures that make the work a dead letter. */
  readonly maxAttempts: number
  /** A dead letter may be tried once more when this long has passed since its last failure. */
  readonly selfHeal: Option.Option<Duration.Duration>
}

const retryPolicy = (base: Duration.DurationInput, maxAttempts: number, selfHeal?: Duration.Duration): RetryPolicy => {
  const max = Math.max(1, Math.floor(maxAttempts))
  return {
    backoff: Schedule.exponential(base, 2).pipe(Schedule.jittered, Schedule.intersect(Schedule.recurs(max - 1))),
    maxAttempts: max,
    selfHeal: Option.fromNullable(selfHeal)
  }
}

/** Work retried on its own cadence (the next loop tick or turn): no delay of its own, only the dead letter. */
const onCadence = (maxAttempts: number, selfHeal?: Duration.Duration): RetryPolicy => {
  const max = Math.max(1, Math.floor(maxAttempts))
  return { backoff: Schedule.recurs(max - 1), maxAttempts: max, selfHeal: Option.fromNullable(selfHeal) }
}

/** The n-th delay of a schedule (n ≥ 1), stepped without sleeping; none once the schedule is done. */
export const nthDelay = (schedule: Schedule.Schedule<unknown, unknown>, n: number) =>
  Effect.gen(function* () {
    let state: unknown = schedule.initial
    let now = 0
    let delay = Option.none<Duration.Duration>()
    for (let i = 0; i < n; i++) {
      const [next, , decision] = yield* schedule.step(now, undefined, state)
      if (ScheduleDecision.isDone(decision)) return Option.none<Duration.Duration>()
      const start = ScheduleIntervals.start(decision.intervals)
      delay = Option.some(Duration.millis(start - now))
      now = start
      state = next
    }
    return delay
  })

export type AfterFailure =
  | { readonly _tag: "Retry"; readonly delay: Duration.Duration }
  | { readonly _tag: "DeadLetter"; readonly probe: Option.Option<Duration.Duration> }

/** What follows the `failures`-th consecutive failure: a retry after a delay, or the dead letter. */
export const afterFailure = (policy: RetryPolicy, failures: number): Effect.Effect<AfterFailure> =>
  exhausted(policy, failures)
    ? Effect.succeed({ _tag: "DeadLetter", probe: policy.selfHeal })
    : Effect.map(
        nthDelay(policy.backoff, Math.max(1, failures)),
        Option.match({
          onNone: (): AfterFailure => ({ _tag: "DeadLetter", probe: policy.selfHeal }),
          onSome: (delay): AfterFailure => ({ _tag: "Retry", delay })
        })
      )

/** True once `failures` consecutive failures make the work a dead letter. */
export const exhausted = (policy: RetryPolicy, failures: number): boolean => failures >= policy.maxAttempts

/** True while a dead letter must not run: exhausted, and its self-heal (if any) not yet due at `now`. */
export const deadLettered = (policy: RetryPolicy, failures: number, lastFailureAt: number, now: number): boolean =>
  exhausted(policy, failures) &&
  Option.match(policy.selfHeal, {
    onNone: () => true,
    onSome: (heal) => now - lastFailureAt < Duration.toMillis(heal)
  })

/** Backup retries of a failed recent compression: 30 s, 60 s, 120 s, 240 s (each ±20 %); then one probe per self-heal interval. */
export const compressionBackoff = (t: Tunables) =>
  retryPolicy("30 seconds", t.memory_liveness_max_attempts, seconds(t.memory_dead_letter_self_heal_seconds))

/** Failed history reviews of one tail: from `review_min_interval_seconds` doubling; then that tail is skipped. */
export const reviewBackoff = (t: Tunables) =>
  retryPolicy(seconds(t.review_min_interval_seconds), t.memory_liveness_max_attempts)

/** Reviews that hit the output limit: after this many, reviews of as long a context pause. */
export const reviewOutputExhaustion = (t: Tunables) =>
  retryPolicy(seconds(t.review_min_interval_seconds), t.memory_review_output_exhaustion_max_attempts)

/** Failed extraction windows (powerful memory on): from the signal interval doubling; then the window is skipped. */
export const factIntakeRetry = (t: Tunables) =>
  retryPolicy(seconds(t.evidence_signal_check_interval_seconds), t.memory_liveness_max_attempts)

/** Failed syntheses of one fact pool: retried each synthesis tick, dead-lettered after the liveness limit, probed again after self-heal. */
export const synthesisBackoff = (t: Tunables) =>
  onCadence(t.memory_liveness_max_attempts, seconds(t.memory_dead_letter_self_heal_seconds))

/** Failed rebuttal checks of one window: from the rebuttal interval doubling; then the window is skipped. */
export const rebuttalRetry = (t: Tunables) =>
  retryPolicy(seconds(t.rebuttal_check_interval_seconds), t.memory_liveness_max_attempts)

/** Failed outbox ops: retried after 10 s, 20 s, 40 s …; at `outbox_max_attempts` closed as a dead letter. */
export const outboxRetry = (t: Tunables) => retryPolicy("10 seconds", t.outbox_max_attempts)

/** Queued persona corrections: retried at each resolution pass; after the liveness limit the item is left alone. */
export const correctionRetry = (t: Tunables) => onCadence(t.memory_liveness_max_attempts)
