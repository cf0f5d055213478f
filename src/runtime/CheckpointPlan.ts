/**
 * When a character's journal checkpoint runs (CharacterState.ts does the checkpoint itself): at the latest
 * `journal_checkpoint_interval_ms` after a batch left applied events not yet checkpointed, and — while
 * recent.json holds turns — a write of recent.json alone as soon as the character has had no turn for
 * `recent_write_idle_ms`, or once `recent_write_interval_ms` has passed since the file's last write when only
 * that interval holds them (RecentStore's `flushBy`), so the file on disk catches up whenever the character
 * pauses and at least once an interval under sustained ingest (power safety and the sentinel stay with the
 * regular checkpoint). Turns held for `recent_write_at_checkpoint` or a large file are written, under sustained
 * ingest, at the regular checkpoints. Each plan is one timer at a time per character; the timers send
 * `Checkpoint` commands through the mailbox.
 */
import { Clock, Effect, Random } from "effect"

/** What the plan reads and marks of a character's state. */
export interface Plannable {
  readonly checkpointDue: string | undefined
  checkpointScheduled: boolean
  idleCheckpointScheduled: boolean
  /** When the last turn was journaled (ms). */
  readonly lastWriteAt: number
  /** How many items recent.json holds for the next checkpoint, and their write (false: not written). */
  readonly recent: {
    readonly held: () => number
    /** When the write interval wants the held items on disk (ms; infinity: at the idle write or checkpoint). */
    readonly flushBy: () => number
    readonly flush: Effect.Effect<boolean>
  }
  readonly checkpoint: Effect.Effect<void>
}

/**
 * The regular checkpoint's delay: a random point in the second half of the interval. Characters that start
 * together (a burst of first turns, a restart) would otherwise checkpoint together at every interval, and
 * their fsyncs, all at once, slowed every character's journal append for about a second (docs/benchmarks.md).
 */
export const spread = (intervalMs: number) => Random.nextIntBetween(Math.ceil(intervalMs / 2), intervalMs + 1)

export const make = (deps: {
  readonly intervalMs: number
  readonly idleMs: number
  /** Sends the actor a `Checkpoint` command (`idle` for the idle plan) after `delayMillis`. */
  readonly later: (idle: boolean, delayMillis: number) => Effect.Effect<void>
}) => {
  /** After a batch or a lane job: plans the regular checkpoint and, with turns held, the idle one. */
  const plan = (state: Plannable) =>
    Effect.gen(function* () {
      if (!state.checkpointScheduled && state.checkpointDue !== undefined) {
        state.checkpointScheduled = true
        yield* deps.later(false, yield* spread(deps.intervalMs))
      }
      if (!state.idleCheckpointScheduled && state.recent.held() > 0) {
        state.idleCheckpointScheduled = true
        const by = state.recent.flushBy() - (yield* Clock.currentTimeMillis)
        yield* deps.later(true, Math.max(1, Math.min(deps.idleMs, by)))
      }
    })

  /** A `Checkpoint` command: the idle one writes recent.json once the character is idle, else plans again. */
  const run = (state: Plannable, idle: boolean) =>
    Effect.gen(function* () {
      if (!idle) return yield* state.checkpoint
      if (state.recent.held() === 0) {
        // A turn after the interval wrote them: the next batch that holds items plans again.
        state.idleCheckpointScheduled = false
        return
      }
      const wait = Math.min(state.lastWriteAt + deps.idleMs, state.recent.flushBy()) - (yield* Clock.currentTimeMillis)
      if (wait > 0) return yield* deps.later(true, wait)
      state.idleCheckpointScheduled = false
      yield* state.recent.flush
    })

  return { plan, run }
}
