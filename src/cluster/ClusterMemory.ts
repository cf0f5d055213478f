/**
 * The memory service of a cluster runner's gateway (HTTP or library): every operation that names a character
 * is validated here, then sent as an RPC to the `Character` entity, which the cluster delivers to the runner
 * owning the character's shard (possibly this one). Transport failures become `ActorDefect`s, so callers see
 * the same errors as in single-process mode. The browser's conditional save compares a snapshot fetched from
 * the owner; a rename goes to the old name's owner, which has the new name released by its owner first.
 */
import { Effect, Either, Layer, Option } from "effect"
import { validateCharacterName } from "../domain/CharacterName.js"
import { normaliseLanguage } from "../domain/Locale.js"
import { KiokuConfig } from "../Config.js"
import { Activity } from "../maintenance/Activity.js"
import * as CharacterDirs from "../store/CharacterDirs.js"
import { failed as recallFailed } from "../recall/Recall.js"
import {
  MemoryService,
  makeLocal,
  recallTextOf,
  scopedHistoryOf,
  type MemoryError,
  type MemoryOperations
} from "../MemoryService.js"
import { Character, deliveryAsDefect, type DeliveryError } from "./CharacterEntity.js"

export const ClusterMemory = Layer.effect(
  MemoryService,
  Effect.gen(function* () {
    const local = yield* makeLocal
    const client = yield* Character.client
    const activity = yield* Activity
    const { dataDir } = yield* KiokuConfig
    const named = (raw: string) =>
      activity.touch.pipe(
        Effect.zipRight(Either.match(validateCharacterName(raw), { onLeft: Effect.fail, onRight: Effect.succeed }))
      )
    const send = <A>(
      raw: string,
      call: (entity: ReturnType<typeof client>) => Effect.Effect<A, MemoryError | DeliveryError>
    ): Effect.Effect<A, MemoryError> => Effect.flatMap(named(raw), (name) => deliveryAsDefect(name)(call(client(name))))
    const promptLocale: MemoryOperations["promptLocale"] = (raw) => send(raw, (c) => c.PromptLocale({}))
    const scopedWrite: MemoryOperations["scopedWrite"] = (raw, writes) => send(raw, (c) => c.ScopedWrite({ writes }))
    const queryMemory: MemoryOperations["queryMemory"] = (raw, input) =>
      send(raw, (c) => c.QueryMemory({ input })).pipe(
        Effect.catchTags({
          StoreError: () => Effect.succeed(recallFailed(input.query ?? "")),
          ActorDefect: (e) =>
            Effect.logError("query_memory failed; answering hybrid_recall_failed").pipe(
              Effect.annotateLogs({ error: e._tag }),
              Effect.as(recallFailed(input.query ?? ""))
            )
        })
      )
    return {
      write: (kind, raw, input) =>
        send(raw, (c) => c.Write({ kind, messages: input.messages, language: normaliseLanguage(input.language) })),
      newDialog: (raw, input) => send(raw, (c) => c.NewDialog({ ...input })),
      recentHistory: (raw, input) => send(raw, (c) => c.RecentHistory({ ...input })),
      lastConversationGap: (raw) => send(raw, (c) => c.Gap({})),
      promptLocale,
      setPromptLocale: (raw, language) => send(raw, (c) => c.SetPromptLocale({ language })),
      importMarkdown: (raw, request) => send(raw, (c) => c.ImportMarkdown({ request })),
      scopedWrite,
      scopedHistory: yield* scopedHistoryOf({ scopedWrite, promptLocale }),
      scopedContext: (raw, subjects, language) =>
        send(raw, (c) => c.ScopedContext({ subjects, ...(language !== undefined ? { language } : {}) })),
      scopedTrustSignals: (raw, jobs) => send(raw, (c) => c.ScopedTrustSignals({ jobs })),
      scopedMentions: (raw, subjects, text) => send(raw, (c) => c.ScopedMentions({ subjects, text })),
      scopedForget: (raw, subject) => send(raw, (c) => c.ScopedForget({ subject })),
      status: (raw) => send(raw, (c) => c.Status({})),
      awaitBackground: (raw) => send(raw, (c) => c.AwaitBackground({})),
      followupTopics: (raw) => send(raw, (c) => c.Followups({})),
      recordSurfaced: (raw, ids) => send(raw, (c) => c.RecordSurfaced({ ids })),
      resetConfirmedAt: CharacterDirs.list(dataDir).pipe(
        Effect.flatMap((names) => Effect.forEach(names, (raw) => send(raw, (c) => c.ResetConfirmedAt({})))),
        Effect.map((counts) => counts.reduce((a, b) => a + b, 0))
      ),
      funnel: (raw, since, until) => send(raw, (c) => c.Funnel({ since, until })),
      reflect: (raw) => send(raw, (c) => c.Reflect({})),
      maintainNow: (raw) => send(raw, (c) => c.MaintainNow({})),
      persona: (raw) => send(raw, (c) => c.Persona({})),
      settings: (raw, input) => send(raw, (c) => c.Settings({ ...input })),
      queryMemory,
      recallText: yield* recallTextOf(queryMemory),
      manualAction: (raw, input) => send(raw, (c) => c.ManualAction(input)),
      editEntry: (raw, input) => send(raw, (c) => c.EditEntry(input)),
      cancelCorrection: (raw) => send(raw, (c) => c.CancelCorrection({})),
      recentFiles: local.recentFiles,
      recentFile: (raw) => send(raw, (c) => c.RecentFile({})),
      saveRecent: (raw, matches, items) =>
        send(raw, (c) =>
          Effect.flatMap(c.RecentFile({}), (current) =>
            Option.isSome(current) && matches(current.value)
              ? c.SaveRecent({ expected: current.value, items })
              : Effect.succeed({ _tag: "Conflict" as const, current })
          )
        ),
      renameCharacter: (oldRaw, newRaw) =>
        Effect.flatMap(named(oldRaw), (from) =>
          Effect.flatMap(named(newRaw), (to) => deliveryAsDefect(from)(client(from).Rename({ to })))
        )
    } satisfies MemoryOperations
  })
)
