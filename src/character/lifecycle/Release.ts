/**
 * `POST /release_character/{name}` and `POST /reload` (neko-compat §1.2), the two calls N.E.K.O.'s main server
 * makes around a character rename or deletion. Release takes an admission claim (DerivedClaims.ts), counts the
 * character's derived work in flight (a compression or a history review), then closes its actor: that work is
 * abandoned, the journal checkpointed and `time_indexed.db` closed, so the directory can be moved. Reload
 * releases or resumes claims and closes every live actor, so each character is read again from disk on its next
 * request (configuration files are already re-read on use). In cluster mode both act on this runner's actors.
 */
import { Context, Effect, Layer } from "effect"
import type { CharacterName } from "../../domain/CharacterName.js"
import { CharacterRegistry, type CharacterBusy } from "../CharacterRegistry.js"
import type { CharacterStatus } from "../Commands.js"
import { DerivedClaims, type ReloadClaims } from "../../runtime/DerivedClaims.js"
import { KiokuConfig } from "../../Config.js"
import * as CharacterDirs from "../../store/CharacterDirs.js"
import type { StoreError } from "../../store/DurableFs.js"

export interface ReleaseClaim {
  readonly token: string
  readonly generation: number
  readonly hold: boolean
}

export type ReleaseOutcome = { readonly _tag: "Released"; readonly cancelled: number } | { readonly _tag: "Withdrawn" }

const inFlight = (s: CharacterStatus) => (s.compressing ? 1 : 0) + (s.recent === "reviewing" ? 1 : 0)

export class CharacterRelease extends Context.Tag("app/character/CharacterRelease")<
  CharacterRelease,
  {
    readonly release: (name: CharacterName, claim: ReleaseClaim) => Effect.Effect<ReleaseOutcome, CharacterBusy>
    readonly reload: (input: ReloadClaims) => Effect.Effect<number, CharacterBusy>
  }
>() {
  static readonly layer = Layer.effect(
    CharacterRelease,
    Effect.gen(function* () {
      const registry = yield* CharacterRegistry
      const claims = yield* DerivedClaims
      const { dataDir } = yield* KiokuConfig
      const work = (name: CharacterName) =>
        Effect.gen(function* () {
          if (!(yield* registry.active).includes(name)) return 0
          return yield* registry
            .ask<CharacterStatus, StoreError>(name, (reply) => ({ _tag: "Status", reply }))
            .pipe(
              Effect.map(inFlight),
              Effect.orElseSucceed(() => 0)
            )
        })
      return {
        release: (name, claim) =>
          Effect.gen(function* () {
            if ((yield* claims.claim(name, claim.token, claim.generation, claim.hold)) === "withdrawn")
              return { _tag: "Withdrawn" as const }
            const cancelled = yield* work(name)
            yield* registry
              .exclusive([name], Effect.void)
              .pipe(Effect.tapError(() => claims.release(name, claim.token)))
            yield* Effect.logInfo("character released").pipe(Effect.annotateLogs({ character: name, cancelled }))
            return { _tag: "Released" as const, cancelled }
          }),
        reload: (input) =>
          Effect.gen(function* () {
            const live = yield* registry.active
            const known = yield* CharacterDirs.list(dataDir).pipe(Effect.orElseSucceed(() => []))
            yield* claims.reload([...new Set([...known, ...live])], input)
            for (const name of live) yield* registry.exclusive([name], Effect.void)
            return live.length
          })
      }
    })
  )
}
