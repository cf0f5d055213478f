/**
 * Where a character's actor may run. Out of cluster mode (the default) every character is local, an actor
 * claims nothing and maintenance asks the registry directly. In cluster mode the cluster layer replaces it:
 * `owns` answers from the runner's shard assignment, `claim` takes the per-character ownership lock before an
 * actor loads, `maintain` sends a loop's tick through the character's entity, and `sharedLock` serialises the
 * rewrites of root files every runner shares (the speaker-trust pool).
 */
import { Context, Effect, Option, type Scope } from "effect"
import type { CharacterName } from "../domain/CharacterName.js"
import type { StoreError } from "../store/DurableFs.js"
import type { ActorDefect } from "./Actor.js"
import type { LoopName } from "../maintenance/policies.js"

export interface PlacementService {
  /** Whether this process runs the character's actor now. */
  readonly owns: (name: CharacterName) => boolean
  /** Held for the life of an actor (its scope): the single-writer proof for the character's directory. */
  readonly claim: (name: CharacterName) => Effect.Effect<void, StoreError, Scope.Scope>
  /** Runs one maintenance loop tick for the character where its actor lives; none: the local registry. */
  readonly maintain: Option.Option<
    (name: CharacterName, loop: LoopName) => Effect.Effect<void, StoreError | ActorDefect>
  >
  /** Held (in its scope) while this process rewrites a root file other processes also write; none: one process. */
  readonly sharedLock: Option.Option<(key: string) => Effect.Effect<void, StoreError, Scope.Scope>>
}

export class Placement extends Context.Reference<Placement>()("app/actor/Placement", {
  defaultValue: (): PlacementService => ({
    owns: () => true,
    claim: () => Effect.void,
    maintain: Option.none(),
    sharedLock: Option.none()
  })
}) {}
