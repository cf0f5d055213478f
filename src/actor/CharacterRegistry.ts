/**
 * The registry of live character actors: one actor per `lanlan_name`, created on first use by an `RcMap`
 * and released after `actor_idle_ttl_seconds` without users. Every access to a character goes through here.
 */
import { Context, Deferred, Duration, Effect, Layer, RcMap } from "effect"
import type { CharacterName } from "../domain/CharacterName.js"
import { AppFiles } from "../store/AppFiles.js"
import type { StoreError } from "../store/DurableFs.js"
import { KiokuConfig } from "../Config.js"
import type { ActorDefect } from "./Actor.js"
import * as CharacterActor from "./CharacterActor.js"
import type { Command } from "./Commands.js"
import { OutboxHandlers } from "./Ports.js"
import { Tokenizer } from "../llm/Tokenizer.js"
import { MemoryTasks } from "../llm/MemoryTasks.js"
import { ChineseScript } from "../llm/ChineseScript.js"
import { RecentCompressor } from "../memory/recent/RecentCompressor.js"

export class CharacterRegistry extends Context.Tag("app/actor/CharacterRegistry")<
  CharacterRegistry,
  {
    readonly ask: <A, E>(
      name: CharacterName,
      build: (reply: Deferred.Deferred<A, E | ActorDefect>) => Command
    ) => Effect.Effect<A, E | ActorDefect | StoreError>
    /** Sends a command that expects no reply. */
    readonly tell: (name: CharacterName, command: Command) => Effect.Effect<void, StoreError>
    /** Touches the character so its actor loads (and reconciles) now. */
    readonly warm: (name: CharacterName) => Effect.Effect<void, StoreError>
    readonly active: Effect.Effect<ReadonlyArray<CharacterName>>
  }
>() {
  static readonly layer = Layer.scoped(
    CharacterRegistry,
    Effect.gen(function* () {
      const settings = yield* KiokuConfig
      const context = yield* Effect.context<
        KiokuConfig | AppFiles | OutboxHandlers | RecentCompressor | Tokenizer | MemoryTasks | ChineseScript
      >()
      const actors = yield* RcMap.make({
        lookup: (name: CharacterName) => CharacterActor.make(name).pipe(Effect.provide(context)),
        idleTimeToLive: Duration.seconds(settings.tunables.actor_idle_ttl_seconds)
      })
      return {
        ask: <A, E>(name: CharacterName, build: (reply: Deferred.Deferred<A, E | ActorDefect>) => Command) =>
          Effect.scoped(Effect.flatMap(RcMap.get(actors, name), (actor) => actor.ask(build))),
        warm: (name) => Effect.scoped(RcMap.get(actors, name)).pipe(Effect.asVoid),
        tell: (name, command) => Effect.scoped(Effect.flatMap(RcMap.get(actors, name), (actor) => actor.tell(command))),
        active: RcMap.keys(actors)
      }
    })
  )
}
