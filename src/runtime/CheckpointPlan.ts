/**
 * When a character's journal checkpoint runs (CharacterState.ts does the checkpoint itself): at the latest
 * `journal_checkpoint_interval_ms` after a batch left applied events not yet checkpointed, and — while
 * recent.json holds turns for the next checkpoint (`recent_write_at_checkpoint`) — a write of recent.json alone
 * as soon as the character has had no turn for `recent_write_idle_ms`, so the file on disk catches up whenever
 * the character pauses (power safety and the sentinel stay with the regular checkpoint). Under sustained
 * ingest the idle write keeps moving, and the file is written at the regular checkpoints. Each plan is one
 * timer at a time per character; the timers send `Checkpoint` commands through the mailbox.
 */
import { Clock, Effect } from "effect"

/** What the plan reads and marks of a character's state. */
export interface Plannable {
  readonly checkpointDue: string | undefined
  checkpointScheduled: boolean
  idleCheckpointScheduled: boolean
  /** When the last turn was journaled (ms). */
  readonly lastWriteAt: number
  /** How many items recent.json holds for the next checkpoint, and their write (false: not written). */
  readonly recent: { readonly held: () => number; readonly flush: Effect.Effect<boolean> }
  readonly checkpoint: Effect.Effect<void>
}

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
        yield* deps.later(false, deps.intervalMs)
      }
      if (!state.idleCheckpointScheduled && state.recent.held() > 0) {
        state.idleCheckpointScheduled = true
        yield* deps.later(true, Math.max(1, deps.idleMs))
      }
    })

  /** A `Checkpoint` command: the idle one writes recent.json once the character is idle, else plans again. */
  const run = (state: Plannable, idle: boolean) =>
    Effect.gen(function* () {
      if (!idle) return yield* state.checkpoint
      const wait = state.lastWriteAt + deps.idleMs - (yield* Clock.currentTimeMillis)
      if (wait > 0) return yield* deps.later(true, wait)
      state.idleCheckpointScheduled = false
      yield* state.recent.flush
    })

  return { plan, run }
}
