/**
 * The registry of live character actors: one actor per `lanlan_name`, created on first use by an `RcMap`
 * and released after `actor_idle_ttl_seconds` without users; a new actor for a name waits until the evicted
 * one has closed, so there is never more than one writer per character. Every access goes through here.
 */
import { Cause, Context, Deferred, Duration, Effect, Layer, RcMap } from "effect"
import type { CharacterName } from "../domain/CharacterName.js"
import { AppFiles } from "../store/AppFiles.js"
import type { StoreError } from "../store/DurableFs.js"
import { KiokuConfig } from "../Config.js"
import type { ActorDefect } from "./Actor.js"
import * as CharacterActor from "./CharacterActor.js"
import * as Handover from "./Handover.js"
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
      const handover = Handover.make<CharacterName>()
      const actors = yield* RcMap.make({
        lookup: (name: CharacterName) => handover.guard(name, CharacterActor.make(name).pipe(Effect.provide(context))),
        idleTimeToLive: Duration.seconds(settings.tunables.actor_idle_ttl_seconds)
      })
      // A failed build is not kept: the next request for the character tries to load it again.
      const get = (name: CharacterName) =>
        RcMap.get(actors, name).pipe(
          Effect.onError((cause) => (Cause.isInterruptedOnly(cause) ? Effect.void : RcMap.invalidate(actors, name)))
        )
      return {
        ask: <A, E>(name: CharacterName, build: (reply: Deferred.Deferred<A, E | ActorDefect>) => Command) =>
          Effect.scoped(Effect.flatMap(get(name), (actor) => actor.ask(build))),
        warm: (name) => Effect.scoped(get(name)).pipe(Effect.asVoid),
        tell: (name, command) => Effect.scoped(Effect.flatMap(get(name), (actor) => actor.tell(command))),
        active: RcMap.keys(actors)
      }
    })
  )
}
