/**
 * The `Character` entity on the runner that owns its shard: each RPC runs the same local memory operation
 * (and so the same actor command) the single-process server runs. The entity's life bounds the actor's: when
 * the entity stops (idle, shard moved to another runner, shutdown) the local actor is closed and its handover
 * awaited, which also releases the character's ownership lock. RPCs run concurrently: the actor's mailbox is
 * what serialises a character's changes.
 */
import { Entity } from "@effect/cluster"
import { Deferred, Duration, Effect, Either, Layer, Option } from "effect"
import type { ActorDefect } from "../runtime/Actor.js"
import { CharacterRegistry } from "../character/CharacterRegistry.js"
import { CharacterName, validateCharacterName } from "../domain/CharacterName.js"
import { Placement } from "../runtime/Placement.js"
import { AppFiles } from "../store/AppFiles.js"
import { KiokuConfig } from "../Config.js"
import { commandOf } from "../maintenance/Maintenance.js"
import { makeLocal, renameWork } from "../MemoryService.js"
import type { StoreError } from "../store/DurableFs.js"
import type { Command } from "../character/Commands.js"
import { Character, deliveryAsDefect } from "./CharacterEntity.js"
import * as CharacterLock from "./CharacterLock.js"

const sameSnapshot =
  (expected: { readonly content: string; readonly pathKey: string; readonly generation: string }) =>
  (current: typeof expected) =>
    current.content === expected.content &&
    current.pathKey === expected.pathKey &&
    current.generation === expected.generation

export const CharacterHandlers = Layer.unwrapEffect(
  Effect.gen(function* () {
    const local = yield* makeLocal
    const registry = yield* CharacterRegistry
    const placement = yield* Placement
    const files = yield* AppFiles
    const client = yield* Character.client
    const { dataDir, tunables } = yield* KiokuConfig
    return Character.toLayer(
      Effect.gen(function* () {
        const address = yield* Entity.CurrentAddress
        const raw = address.entityId
        const name = CharacterName.make(raw)
        yield* Effect.addFinalizer(() =>
          registry
            .exclusive([name], Effect.void)
            .pipe(
              Effect.catchAll((e) =>
                Effect.logWarning("character entity stopped with its actor busy").pipe(
                  Effect.annotateLogs({ error: e._tag })
                )
              )
            )
        )
        const ask = <A>(command: (reply: Deferred.Deferred<A, StoreError | ActorDefect>) => Command) =>
          registry.ask<A, StoreError>(name, command)
        return Character.of({
          Write: ({ payload }) => local.write(payload.kind, raw, payload),
          NewDialog: ({ payload }) => local.newDialog(raw, payload),
          RecentHistory: ({ payload }) => local.recentHistory(raw, payload),
          Gap: () => local.lastConversationGap(raw),
          PromptLocale: () => local.promptLocale(raw),
          SetPromptLocale: ({ payload }) => local.setPromptLocale(raw, payload.language),
          ImportMarkdown: ({ payload }) => local.importMarkdown(raw, payload.request),
          ScopedWrite: ({ payload }) => local.scopedWrite(raw, payload.writes),
          ScopedContext: ({ payload }) => local.scopedContext(raw, payload.subjects, payload.language),
          ScopedMentions: ({ payload }) => local.scopedMentions(raw, payload.subjects, payload.text),
          ScopedTrustSignals: ({ payload }) => local.scopedTrustSignals(raw, payload.jobs),
          ScopedForget: ({ payload }) => local.scopedForget(raw, payload.subject),
          Status: () => local.status(raw),
          AwaitBackground: () => local.awaitBackground(raw),
          Followups: () => local.followupTopics(raw),
          RecordSurfaced: ({ payload }) => local.recordSurfaced(raw, payload.ids),
          ResetConfirmedAt: () => ask<number>((reply) => ({ _tag: "ResetConfirmedAt", reply })),
          Funnel: ({ payload }) => local.funnel(raw, payload.since, payload.until),
          Reflect: () => local.reflect(raw),
          MaintainNow: () => local.maintainNow(raw),
          Persona: () => local.persona(raw),
          Settings: ({ payload }) => local.settings(raw, payload),
          QueryMemory: ({ payload }) => local.queryMemory(raw, payload.input),
          ManualAction: ({ payload }) => local.manualAction(raw, payload),
          EditEntry: ({ payload }) => local.editEntry(raw, payload),
          CancelCorrection: () => local.cancelCorrection(raw),
          RecentFile: () => local.recentFile(raw),
          SaveRecent: ({ payload }) => local.saveRecent(raw, sameSnapshot(payload.expected), payload.items),
          Release: () => registry.exclusive([name], Effect.void),
          Rename: ({ payload }) =>
            Effect.gen(function* () {
              const to = yield* Either.match(validateCharacterName(payload.to), {
                onLeft: Effect.fail,
                onRight: Effect.succeed
              })
              yield* deliveryAsDefect(to)(client(to).Release())
              // Both ownership locks held while the directory moves: no runner can load either character.
              const work = Effect.gen(function* () {
                yield* placement.claim(name)
                if (to !== name) yield* placement.claim(to)
                yield* CharacterLock.configLock(dataDir)
                return yield* renameWork(dataDir, files, name, to)
              })
              return yield* registry.exclusive([name], Effect.scoped(work))
            }),
          Maintain: ({ payload }) =>
            Option.match(commandOf(payload.loop), {
              onNone: () => Effect.void,
              onSome: (command) => ask<void>(command)
            })
        })
      }),
      { concurrency: "unbounded", maxIdleTime: Duration.seconds(tunables.actor_idle_ttl_seconds) }
    )
  })
)
