/**
 * An actor idle for `actor_handle_release_seconds` closes its SQLite handles (time index, vectors, turn
 * vectors) after a checkpoint, and once idle for `actor_view_release_seconds` (0: never) it drops its decoded
 * views, recall corpus and recall vectors too — both long before the registry evicts it; the next command that
 * needs one reopens or decodes it again (every handle and view is loaded lazily). Only requests count as use:
 * maintenance visits, background results and the check itself do not, so what a maintenance pass loaded is
 * released again after the same wait, and an actor that holds nothing keeps no timer running.
 */
import { Clock, Effect, type Scope } from "effect"
import type { Tunables } from "../Tunables.js"
import * as State from "./CharacterState.js"
import type { Command } from "./Commands.js"
import { inLane } from "./LaneCommands.js"

/** Commands the actor sends itself (timers, background results, quiet waits) and its status: not a use. */
const INTERNAL: ReadonlySet<Command["_tag"]> = new Set<Command["_tag"]>([
  "ReleaseHandles",
  "Checkpoint",
  "AwaitBackground",
  "SettleDone",
  "Splice",
  "CompressionFailed",
  "CompressRetry",
  "IdleCheck",
  "ReviewDone",
  "ReviewFailed",
  "Status"
])

/** Whether a command is a request that uses the character (lane jobs are background work). */
export const isUse = (c: Command): boolean => !INTERNAL.has(c._tag) && !inLane(c)

export const make = (deps: {
  readonly tunables: Tunables
  readonly scope: Scope.Scope
  readonly tell: (command: Command) => Effect.Effect<void>
  /** Whether background work (compression, review, drain, lane job) still needs the handles. */
  readonly busy: (state: State.CharacterState) => boolean
  /** Checkpoints and closes the SQLite handles. */
  readonly releaseHandles: (state: State.CharacterState) => Effect.Effect<void>
  /** Drops the decoded views and what recall built from them. */
  readonly releaseViews: (state: State.CharacterState) => Effect.Effect<void>
}) => {
  const after = deps.tunables.actor_handle_release_seconds * 1000
  const viewsAfter = deps.tunables.actor_view_release_seconds * 1000
  const viewsHeld = (state: State.CharacterState) => viewsAfter > 0 && State.viewsHeld(state)

  const schedule = (state: State.CharacterState, delayMillis: number) =>
    state.releaseScheduled
      ? Effect.void
      : Effect.sync(() => (state.releaseScheduled = true)).pipe(
          Effect.zipRight(
            Effect.sleep(delayMillis).pipe(
              Effect.zipRight(deps.tell({ _tag: "ReleaseHandles" })),
              Effect.forkIn(deps.scope)
            )
          ),
          Effect.asVoid
        )

  const used = (state: State.CharacterState) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      state.lastUseAt = now
      return schedule(state, after)
    })

  /** After background work: a check is planned while any handle is open. */
  const worked = (state: State.CharacterState) =>
    State.handlesOpen(state) || viewsHeld(state) ? schedule(state, after) : Effect.void

  /** The scheduled check: closes the handles, then drops the views, when idle long enough; else checks later. */
  const check = (state: State.CharacterState) =>
    Effect.gen(function* () {
      state.releaseScheduled = false
      const idle = (yield* Clock.currentTimeMillis) - state.lastUseAt
      if (idle < after) return yield* schedule(state, after - idle)
      if (deps.busy(state)) return yield* schedule(state, after)
      if (State.handlesOpen(state)) yield* deps.releaseHandles(state)
      if (!viewsHeld(state)) return
      if (idle < viewsAfter) return yield* schedule(state, viewsAfter - idle)
      yield* deps.releaseViews(state)
    })

  return { used, worked, check }
}
