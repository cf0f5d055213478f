/**
 * The recent-memory lifecycle's slice of a character's state: the snapshot of `machines/recent.ts` (with the
 * configured thresholds), the callers waiting on a compression generation, the review fiber in flight and the
 * cached review bookkeeping. `epoch` tells this slice's background results from those of a slice that was
 * replaced when the state reloaded.
 */
import type { Effect, Fiber } from "effect"
import { randomUUID } from "node:crypto"
import { initialTransition, type SnapshotFrom } from "xstate"
import { recentMachine, type RecentLimits } from "../../machines/recent.js"
import type { ReviewState } from "./Review.js"
import type { Tunables } from "../Tunables.js"

export interface RecentSlice {
  readonly epoch: string
  snapshot: SnapshotFrom<typeof recentMachine>
  waiters: Array<{ readonly generation: number; readonly done: Effect.Effect<void> }>
  reviewFiber: Fiber.RuntimeFiber<void> | undefined
  reviewState: ReviewState | undefined
}

export const recentLimitsOf = (t: Tunables): RecentLimits => ({
  maxAttempts: t.memory_liveness_max_attempts,
  selfHealSeconds: t.memory_dead_letter_self_heal_seconds,
  idleSeconds: t.idle_threshold_seconds
})

export const make = (t: Tunables): RecentSlice => ({
  epoch: randomUUID(),
  snapshot: initialTransition(recentMachine, { limits: recentLimitsOf(t) })[0],
  waiters: [],
  reviewFiber: undefined,
  reviewState: undefined
})
