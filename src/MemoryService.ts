/**
 * The memory operations shared by the HTTP adapter and the library API: name validation, message
 * normalisation and language parsing happen here, then each operation becomes one command to the character's
 * actor. A rename stops the actors of both names (through the registry) before it moves the directory.
 */
import { DueWork } from "./maintenance/DueWork.js"
import { Clock, Context, Effect, Either, Layer, Option, type Deferred } from "effect"
import type { ActorDefect } from "./runtime/Actor.js"
import { CharacterRegistry, type CharacterBusy } from "./character/CharacterRegistry.js"
import { Activity } from "./maintenance/Activity.js"
import { KiokuConfig } from "./Config.js"
import type { CharacterStatus, Command, MaintenanceReport, WriteKind } from "./character/Commands.js"
import type { RecentSnapshot, SaveRecentOutcome } from "./recent/RecentCommands.js"
import type { StoredMessage } from "./domain/Message.js"
import { AppFiles } from "./store/AppFiles.js"
import * as CharacterDirs from "./store/CharacterDirs.js"
import * as RenameContents from "./ops/RenameContents.js"
import * as path from "node:path"
import type { PersonaFile } from "./persona/Persona.js"
import type { ManualAction, ManualKind, ManualResult } from "./character/ManualActions.js"
import type { EditKind, EditResult } from "./character/EntryEdit.js"
import { validateCharacterName, type CharacterName, type InvalidCharacterName } from "./domain/CharacterName.js"
import { normaliseLanguage, type Language } from "./domain/Locale.js"
import type { LocaleChange, LocaleState } from "./character/locale/PromptLocale.js"
import type { ImportOutcome, ImportRequest } from "./facts/ExternalImport.js"
import { normaliseMessage } from "./domain/Message.js"
import type { MemorySubject } from "./domain/Subject.js"
import type { LlmError } from "./llm/LlmClient.js"
import type { ScopedForgetStats, SubjectWrite } from "./scoped/ScopedCommands.js"
import * as ScopedHistory from "./scoped/ScopedHistory.js"
import type { OwnerSignalJob } from "./scoped/ScopedCommands.js"
import type { OwnerSignalEvent } from "./trust/OwnerSignals.js"
import type { Segment } from "./scoped/ScopedRequests.js"
import type { Written } from "./scoped/ScopedWrite.js"
import type { StoreError } from "./store/DurableFs.js"
import type { Reflection } from "./reflection/Reflection.js"
import type { FunnelCounts } from "./character/Funnel.js"
import type { QueryRequest, QueryResult } from "./recall/RecallTypes.js"
import { failed as recallFailed } from "./recall/Recall.js"
import { renderToolAnswer } from "./recall/RecallRender.js"
import { Tokenizer } from "./llm/Tokenizer.js"

export type MemoryError = InvalidCharacterName | StoreError | ActorDefect

export interface WriteInput {
  /** Messages in OpenAI shape (`{role, content}`) or N.E.K.O.'s on-disk shape (`{type, data: {content}}`). */
  readonly messages: ReadonlyArray<unknown>
  /** An explicit language; a supported one becomes the character's durable prompt language. */
  readonly language?: string | null | undefined
}

export interface ReadInput {
  readonly language?: string | null | undefined
  readonly renderLanguage?: string | null | undefined
}

export type RenameOutcome = "renamed" | "already_renamed" | "both_exist" | "not_found"

export interface MemoryOperations {
  readonly write: (kind: WriteKind, name: string, input: WriteInput) => Effect.Effect<number, MemoryError>
  readonly newDialog: (name: string, input?: ReadInput) => Effect.Effect<string, MemoryError>
  /** The `/get_recent_history` text (the route JSON-encodes it). */
  readonly recentHistory: (name: string, input?: ReadInput) => Effect.Effect<string, MemoryError>
  readonly lastConversationGap: (name: string) => Effect.Effect<number, MemoryError>
  /** The durable prompt language and its write order (`GET /prompt-locale`). */
  readonly promptLocale: (name: string) => Effect.Effect<LocaleState, MemoryError>
  /** Sets the durable prompt language (`PUT /prompt-locale`). */
  readonly setPromptLocale: (name: string, language: Language) => Effect.Effect<LocaleChange, MemoryError>
  /** Imports an OpenClaw / Hermes workspace's candidates (`POST /internal/memory/import_external_markdown`). */
  readonly importMarkdown: (name: string, request: ImportRequest) => Effect.Effect<ImportOutcome, MemoryError>
  readonly status: (name: string) => Effect.Effect<CharacterStatus, MemoryError>
  /** Resolves once no recent-memory compression or review is in flight for the character. */
  readonly awaitBackground: (name: string) => Effect.Effect<void, MemoryError>
  /** Pending reflections eligible for a proactive mention (`/followup_topics`); nothing is marked. */
  readonly followupTopics: (name: string) => Effect.Effect<ReadonlyArray<Reflection>, MemoryError>
  /** Starts the cooldown of the reflections the client surfaced (`/record_surfaced`). */
  readonly recordSurfaced: (name: string, ids: ReadonlyArray<string>) => Effect.Effect<void, MemoryError>
  /** Resets `confirmed_at` of every confirmed reflection of every character (powerful memory ON→OFF). */
  readonly resetConfirmedAt: Effect.Effect<number, MemoryError>
  /** Lifecycle transition counts between `since` and `until` (epoch ms) from the journal. */
  readonly funnel: (name: string, since: number, until: number) => Effect.Effect<FunnelCounts, MemoryError>
  /** Runs one reflection synthesis now (`/reflect`); the new reflection, if one was due. */
  readonly reflect: (name: string) => Effect.Effect<Option.Option<Reflection>, MemoryError>
  /** Runs every due maintenance job of the character now and reports what ran. */
  readonly maintainNow: (name: string) => Effect.Effect<MaintenanceReport, MemoryError>
  /** The whole persona (`/get_persona`), character card synced. */
  readonly persona: (name: string) => Effect.Effect<PersonaFile, MemoryError>
  /** The rendered persona block (`/get_settings`); a character without one renders its legacy settings. */
  readonly settings: (name: string, input?: ReadInput) => Effect.Effect<string, MemoryError>
  /**
   * Hybrid recall (`/query_memory`): query and/or time over facts, reflections and archived facts. Never fails
   * but on an invalid name; any other failure is the `hybrid_recall_failed` answer.
   */
  readonly queryMemory: (name: string, input: QueryRequest) => Effect.Effect<QueryResult, InvalidCharacterName>
  /** The `recall_memory` tool's text for a recall (neko-compat §1.9), in the request's language. */
  readonly recallText: (name: string, input: QueryRequest) => Effect.Effect<string, InvalidCharacterName>
  /** Group-chat memory (neko-compat §1.7): facts written to subjects, the context, mentions, forgetting. */
  readonly scopedWrite: (
    name: string,
    writes: ReadonlyArray<SubjectWrite>
  ) => Effect.Effect<ReadonlyArray<Written>, MemoryError>
  /** `scoped_history`: each segment extracted (outside the mailbox), then every usable one written at once. */
  readonly scopedHistory: (
    name: string,
    segments: ReadonlyArray<Segment>,
    language: Language | undefined
  ) => Effect.Effect<ReadonlyArray<SegmentOutcome>, MemoryError>
  /** The owner segments' trust signals, judged and written onto the facts; per job, the durable events. */
  readonly scopedTrustSignals: (
    name: string,
    jobs: ReadonlyArray<OwnerSignalJob>
  ) => Effect.Effect<ReadonlyArray<ReadonlyArray<OwnerSignalEvent>>, MemoryError>
  readonly scopedContext: (
    name: string,
    subjects: ReadonlyArray<MemorySubject>,
    language: Language | undefined
  ) => Effect.Effect<string, MemoryError>
  readonly scopedMentions: (
    name: string,
    subjects: ReadonlyArray<MemorySubject>,
    text: string
  ) => Effect.Effect<void, MemoryError>
  readonly scopedForget: (name: string, subject: MemorySubject) => Effect.Effect<ScopedForgetStats, MemoryError>
  /** An operator's confirm / deny / archive of a reflection or persona entry, or forget of a fact, journaled. */
  readonly manualAction: (
    name: string,
    input: { readonly kind: ManualKind; readonly id: string; readonly action: ManualAction }
  ) => Effect.Effect<ManualResult, MemoryError>
  /** An operator's text edit of a fact or a non-protected persona entry (memory browser), journaled. */
  readonly editEntry: (
    name: string,
    input: { readonly kind: EditKind; readonly id: string; readonly text: string }
  ) => Effect.Effect<EditResult, MemoryError>
  /** Cancels a recent-history review in flight (`/cancel_correction`). */
  readonly cancelCorrection: (name: string) => Effect.Effect<"cancelled" | "no_task", MemoryError>
  /** Characters whose directory holds a `recent.json` (the memory browser's list), sorted. */
  readonly recentFiles: Effect.Effect<ReadonlyArray<string>, StoreError>
  /** The memory browser's snapshot of `recent.json` (text + pending tail); none when there is no file. */
  readonly recentFile: (name: string) => Effect.Effect<Option.Option<RecentSnapshot>, MemoryError>
  /** Replaces `recent.json` with `items` while the snapshot `matches` is still current (journaled). */
  readonly saveRecent: (
    name: string,
    matches: (current: RecentSnapshot) => boolean,
    items: ReadonlyArray<StoredMessage>
  ) => Effect.Effect<SaveRecentOutcome, MemoryError>
  /** Moves a character's memory (and its `characters.json` entry) to a new name, both actors stopped. */
  readonly renameCharacter: (
    oldName: string,
    newName: string
  ) => Effect.Effect<RenameOutcome, MemoryError | CharacterBusy>
}

/**
 * Moves a character's directory and its `characters.json` entry to a new name; the caller has stopped both
 * characters' actors (and, in cluster mode, holds both ownership locks).
 */
export const renameWork = (
  dataDir: string,
  files: Context.Tag.Service<AppFiles>,
  from: CharacterName,
  to: CharacterName
) =>
  Effect.gen(function* () {
    const had = CharacterDirs.exists(dataDir, from)
    const has = CharacterDirs.exists(dataDir, to)
    if (had && has) return "both_exist" as const
    if (had) yield* CharacterDirs.renameDir(dataDir, from, to)
    const configured = yield* files
      .renameCharacter(from, to)
      .pipe(Effect.tapError(() => (had ? CharacterDirs.renameDir(dataDir, to, from) : Effect.void)))
    if (!had) return has ? ("already_renamed" as const) : configured ? ("renamed" as const) : ("not_found" as const)
    yield* RenameContents.rewriteNames(path.join(dataDir, to), from, to).pipe(
      Effect.flatMap((changed) => Effect.logDebug("rename rewrote names in files").pipe(Effect.annotateLogs(changed))),
      Effect.catchAll((e) =>
        Effect.logWarning("rename: names inside the files not rewritten").pipe(Effect.annotateLogs({ error: e._tag }))
      )
    )
    return "renamed" as const
  })

/** The `recall_memory` tool's text of a recall, in the request's language (else the default one). */
export const recallTextOf = (queryMemory: MemoryOperations["queryMemory"]) =>
  Effect.gen(function* () {
    const { tunables } = yield* KiokuConfig
    const tokens = yield* Tokenizer
    return (raw: string, input: QueryRequest) =>
      Effect.gen(function* () {
        const result = yield* queryMemory(raw, input)
        const language = normaliseLanguage(input.language) ?? normaliseLanguage(tunables.default_language) ?? "en"
        const nowMillis = yield* Clock.currentTimeMillis
        return renderToolAnswer(input, result, { language, nowMillis, tokens, tunables })
      })
  })

/** A segment's outcome: `ok` with what was written when extraction gave an answer, else `failed`. */
export type SegmentOutcome =
  | { readonly status: "ok"; readonly written: Written }
  | { readonly status: "failed"; readonly error: LlmError }

/**
 * `scoped_history` over `scopedWrite`: extraction runs here, outside the character's mailbox, in the prompt
 * language (the request's, else the character's durable one, else the default), and one write follows.
 */
export const scopedHistoryOf = (ops: Pick<MemoryOperations, "scopedWrite" | "promptLocale">) =>
  Effect.gen(function* () {
    const { tunables } = yield* KiokuConfig
    const extraction = yield* ScopedHistory.make
    return (raw: string, segments: ReadonlyArray<Segment>, language: Language | undefined) =>
      Effect.gen(function* () {
        const lang =
          language ??
          Option.getOrUndefined(Option.flatMap(yield* Effect.option(ops.promptLocale(raw)), (l) => l.language)) ??
          normaliseLanguage(tunables.default_language) ??
          "en"
        const found = yield* extraction.extractAll(segments, { language: lang, character: raw })
        const writes = segments.flatMap((s, i) => {
          const f = found[i]
          return f !== undefined && Either.isRight(f)
            ? [
                {
                  subject: s.subject,
                  candidates: f.right,
                  provenance: s.provenance,
                  displayName: s.displayName,
                  language
                }
              ]
            : []
        })
        const written = writes.length === 0 ? [] : yield* ops.scopedWrite(raw, writes)
        let next = 0
        return found.map((f): SegmentOutcome => {
          if (Either.isLeft(f)) return { status: "failed", error: f.left }
          const w = written[next++]
          return { status: "ok", written: w ?? { created: [], upgraded: [] } }
        })
      })
  })

/** The operations on this process's own actors (the whole service out of cluster mode). */
export const makeLocal = Effect.gen(function* () {
  const registry = yield* CharacterRegistry
  const dueWork = yield* DueWork
  const activity = yield* Activity
  const config = yield* KiokuConfig
  const { dataDir } = config
  const files = yield* AppFiles
  const named = (raw: string) =>
    activity.touch.pipe(
      Effect.zipRight(Either.match(validateCharacterName(raw), { onLeft: Effect.fail, onRight: Effect.succeed }))
    )
  const ask = <A>(raw: string, command: (reply: Deferred.Deferred<A, StoreError | ActorDefect>) => Command) =>
    Effect.flatMap(named(raw), (name) => registry.ask<A, StoreError>(name, command))
  const lang = (input?: ReadInput) => ({
    language: Option.fromNullable(normaliseLanguage(input?.language)),
    renderLanguage: Option.fromNullable(normaliseLanguage(input?.renderLanguage))
  })
  const promptLocale = (raw: string) => ask<LocaleState>(raw, (reply) => ({ _tag: "GetPromptLocale", reply }))
  const scopedWrite = (raw: string, writes: ReadonlyArray<SubjectWrite>) =>
    ask<ReadonlyArray<Written>>(raw, (reply) => ({ _tag: "ScopedWrite", writes, reply }))
  const queryMemory = (raw: string, input: QueryRequest) =>
    Effect.flatMap(named(raw), (name) => registry.query(name, input)).pipe(
      Effect.catchTags({
        StoreError: (e) => degraded(e, input),
        ActorDefect: (e) => degraded(e, input)
      })
    )
  const degraded = (e: StoreError | ActorDefect, input: QueryRequest) =>
    Effect.logError("query_memory failed; answering hybrid_recall_failed").pipe(
      Effect.annotateLogs({ error: e._tag }),
      Effect.as(recallFailed(input.query ?? ""))
    )
  return {
    write: (kind, raw, input) =>
      ask<number>(raw, (reply) => ({
        _tag: "Write",
        request: {
          kind,
          messages: input.messages.map(normaliseMessage),
          language: Option.fromNullable(normaliseLanguage(input.language))
        },
        reply
      })),
    newDialog: (raw, input) => Effect.flatMap(named(raw), (name) => registry.newDialog(name, lang(input))),
    recentHistory: (raw, input) => ask<string>(raw, (reply) => ({ _tag: "RecentHistory", lang: lang(input), reply })),
    lastConversationGap: (raw) => ask<number>(raw, (reply) => ({ _tag: "Gap", reply })),
    promptLocale,
    setPromptLocale: (raw, language) =>
      ask<LocaleChange>(raw, (reply) => ({ _tag: "SetPromptLocale", language, reply })),
    importMarkdown: (raw, request) => ask<ImportOutcome>(raw, (reply) => ({ _tag: "ImportMarkdown", request, reply })),
    followupTopics: (raw) => ask<ReadonlyArray<Reflection>>(raw, (reply) => ({ _tag: "Followups", reply })),
    recordSurfaced: (raw, ids) => ask<void>(raw, (reply) => ({ _tag: "RecordSurfaced", ids, reply })),
    resetConfirmedAt: Effect.gen(function* () {
      const counts = yield* Effect.forEach(yield* CharacterDirs.list(dataDir), (raw) =>
        ask<number>(raw, (reply) => ({ _tag: "ResetConfirmedAt", reply }))
      )
      return counts.reduce((a, b) => a + b, 0)
    }),
    funnel: (raw, since, until) => ask<FunnelCounts>(raw, (reply) => ({ _tag: "Funnel", since, until, reply })),
    reflect: (raw) => ask<Option.Option<Reflection>>(raw, (reply) => ({ _tag: "Synthesize", reply })),
    maintainNow: (raw) => ask<MaintenanceReport>(raw, (reply) => ({ _tag: "MaintainNow", reply })),
    queryMemory,
    recallText: yield* recallTextOf(queryMemory),
    scopedWrite,
    scopedHistory: yield* scopedHistoryOf({ scopedWrite, promptLocale }),
    scopedTrustSignals: (raw, jobs) =>
      ask<ReadonlyArray<ReadonlyArray<OwnerSignalEvent>>>(raw, (reply) => ({
        _tag: "ScopedTrustSignals",
        jobs,
        reply
      })),
    scopedContext: (raw, subjects, language) =>
      ask<string>(raw, (reply) => ({ _tag: "ScopedContext", subjects, language, reply })),
    scopedMentions: (raw, subjects, text) =>
      ask<void>(raw, (reply) => ({ _tag: "ScopedMentions", subjects, text, reply })),
    scopedForget: (raw, subject) => ask<ScopedForgetStats>(raw, (reply) => ({ _tag: "ScopedForget", subject, reply })),
    cancelCorrection: (raw) => ask<"cancelled" | "no_task">(raw, (reply) => ({ _tag: "CancelCorrection", reply })),
    awaitBackground: (raw) => ask<void>(raw, (reply) => ({ _tag: "AwaitBackground", reply })),
    manualAction: (raw, input) => ask<ManualResult>(raw, (reply) => ({ _tag: "ManualAction", ...input, reply })),
    editEntry: (raw, input) => ask<EditResult>(raw, (reply) => ({ _tag: "EntryEdit", ...input, reply })),
    persona: (raw) => ask<PersonaFile>(raw, (reply) => ({ _tag: "GetPersona", reply })),
    settings: (raw, input) => ask<string>(raw, (reply) => ({ _tag: "GetSettings", lang: lang(input), reply })),
    status: (raw) => ask<CharacterStatus>(raw, (reply) => ({ _tag: "Status", reply })),
    recentFiles: CharacterDirs.withRecentFile(dataDir),
    recentFile: (raw) =>
      Effect.flatMap(named(raw), (name) =>
        CharacterDirs.exists(dataDir, name)
          ? registry.ask<Option.Option<RecentSnapshot>, StoreError>(name, (reply) => ({
              _tag: "RecentFile",
              reply
            }))
          : Effect.succeed(Option.none())
      ),
    saveRecent: (raw, matches, items) =>
      ask<SaveRecentOutcome>(raw, (reply) => ({ _tag: "SaveRecent", matches, items, reply })),
    renameCharacter: (oldRaw, newRaw) =>
      Effect.gen(function* () {
        const from = yield* named(oldRaw)
        const to = yield* named(newRaw)
        // The moved directory is due under its new name (its index row stays with the old one until a pass drops it).
        return yield* registry
          .exclusive([from, to], renameWork(dataDir, files, from, to))
          .pipe(Effect.tap(() => dueWork.mark(to)))
      })
  } satisfies MemoryOperations
})

export class MemoryService extends Context.Tag("app/MemoryService")<MemoryService, MemoryOperations>() {
  static readonly layer = Layer.effect(MemoryService, makeLocal)
}
