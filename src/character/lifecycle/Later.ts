/**
 * Commands an actor sends itself later (retries, ticks, checkpoints), forked in the actor's scope, and how many
 * of them are still waiting whose work the state does not show otherwise: the due-work report's `deferred`.
 */
import { Effect, type Scope } from "effect"
import type { Command } from "../Commands.js"

/**
 * Delayed commands whose work the state already shows: checkpoints (durability, not maintenance), extraction
 * ticks (turns waiting for a window), outbox retries (pending ops) and backfill polls (the vector backlog).
 */
const shownInState: ReadonlySet<Command["_tag"]> = new Set([
  "Checkpoint",
  "SignalTick",
  "DrainOutbox",
  "VectorBackfill"
])

export const make = (tell: (command: Command) => Effect.Effect<void>, scope: Scope.Scope) => {
  let waiting = 0
  const later = (c: Command, delayMillis = 0): Effect.Effect<void> => {
    const counted = delayMillis > 0 && !shownInState.has(c._tag)
    return Effect.suspend(() => {
      if (counted) waiting++
      return (delayMillis > 0 ? Effect.sleep(delayMillis) : Effect.void).pipe(
        Effect.zipRight(tell(c)),
        Effect.ensuring(Effect.sync(() => (counted ? waiting-- : undefined))),
        Effect.forkIn(scope),
        Effect.asVoid
      )
    })
  }
  return { later, waiting: () => waiting }
}
