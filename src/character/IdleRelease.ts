/**
 * An actor idle for `actor_handle_release_seconds` closes its SQLite handles (time index, vectors, turn
 * vectors) after a checkpoint, long before the registry evicts it; the next command that needs one reopens it
 * (every handle is opened lazily). A batch or lane job that did real work counts as use; the check's own
 * batch does not, so an idle actor keeps no timer running once its handles are closed.
 */
import { Clock, Effect, type Scope } from "effect"
import type { Tunables } from "../Tunables.js"
import * as State from "./CharacterState.js"
import type { Command } from "./Commands.js"

export const make = (deps: {
  readonly tunables: Tunables
  readonly scope: Scope.Scope
  readonly tell: (command: Command) => Effect.Effect<void>
  /** Whether background work (compression, review, drain, lane job) still needs the handles. */
  readonly busy: (state: State.CharacterState) => boolean
}) => {
  const after = deps.tunables.actor_handle_release_seconds * 1000

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

  /** The scheduled check: closes the handles when idle long enough, else checks again later. */
  const check = (state: State.CharacterState) =>
    Effect.gen(function* () {
      state.releaseScheduled = false
      const wait = after - ((yield* Clock.currentTimeMillis) - state.lastUseAt)
      if (wait > 0) return yield* schedule(state, wait)
      if (deps.busy(state)) return yield* schedule(state, after)
      yield* State.release(state)
    })

  return { used, check }
}
