/**
 * Every timing policy of background work in one place (neko-compat §4.13 and kioku's own), as Schedules
 * or delays derived from the tunables. `vector_backfill` (kioku's) starts with the embedder warm-up
 * (`vectors_warmup_delay_seconds`) and repeats every `embedding_poll_seconds`.
 */
import { Duration, Schedule, Schema } from "effect"

/** Delay before the n-th (1-based) backup retry of a failed recent compression: 30 s, 60 s, 120 s, 240 s. */
export const backupDelay = (attempt: number): number => 30_000 * 2 ** Math.max(0, attempt - 1)

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
  readonly first: Duration.DurationInput
  readonly every: Duration.DurationInput
}

export const loops: ReadonlyArray<Loop> = [
  { name: "idle_maintenance", first: "20 seconds", every: "40 seconds" },
  { name: "signal_extraction", first: "60 seconds", every: "40 seconds" },
  { name: "auto_promote", first: "150 seconds", every: "180 seconds" },
  { name: "reflection_synthesis", first: "200 seconds", every: "180 seconds" },
  { name: "archive_sweep", first: "250 seconds", every: "3600 seconds" },
  { name: "rebuttal", first: "100 seconds", every: "180 seconds" },
  { name: "vector_backfill", first: "30 seconds", every: "20 seconds" }
]

/** The repetition of a loop after its first run. */
export const loopSchedule = (loop: Loop) => Schedule.spaced(loop.every)

/** Idle means no request for this long (neko-compat `IDLE_THRESHOLD`). */
export const idleAfter = Duration.seconds(10)
