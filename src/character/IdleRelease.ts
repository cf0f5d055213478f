/**
 * An actor idle for `actor_handle_release_seconds` closes its SQLite handles (time index, vectors, turn
 * vectors) after a checkpoint, long before the registry evicts it; the next command that needs one reopens it
 * (every handle is opened lazily). Only requests count as use: maintenance visits, background results and
 * the check itself do not, so handles a maintenance pass reopened close again after the same wait, and an
 * actor whose handles are closed keeps no timer running.
 */
import { Clock, Effect, type Scope } from "effect"
import type { Tunables } from "../Tunables.js"
import * as State from "./CharacterState.js"
import type { Command } from "./Commands.js"
import { inLane } from "./LaneCommands.js"

/** Commands the actor sends itself (timers, background results, quiet waits): not a use of its handles. */
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
  "ReviewFailed"
])

/** Whether a command is a request that uses the character (lane jobs are background work). */
export const isUse = (c: Command): boolean => !INTERNAL.has(c._tag) && !inLane(c)

const handlesOpen = (state: State.CharacterState) =>
  state.timeIndex !== undefined || state.vectors !== undefined || state.turnVectors !== undefined

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

  /** After background work: a check is planned while any handle is open. */
  const worked = (state: State.CharacterState) => (handlesOpen(state) ? schedule(state, after) : Effect.void)

  /** The scheduled check: closes the handles when idle long enough, else checks again later. */
  const check = (state: State.CharacterState) =>
    Effect.gen(function* () {
      state.releaseScheduled = false
      const wait = after - ((yield* Clock.currentTimeMillis) - state.lastUseAt)
      if (wait > 0) return yield* schedule(state, wait)
      if (deps.busy(state)) return yield* schedule(state, after)
      yield* State.release(state)
    })

  return { used, worked, check }
}
