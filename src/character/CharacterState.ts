/**
 * A character's in-memory state and its journal discipline. `load` rebuilds everything from the directory
 * and reconciles: journal events past the sentinel are applied again through the same idempotent path as
 * live writes (`applyUnapplied`). The sentinel only advances once time index, recent view and outbox all
 * hold every unapplied event; until then the events stay queued and are retried with the next write. A
 * replayed forget is completed again (Forget.ts) before that checkpoint.
 */
import { Clock, Effect, Option } from "effect"
import { existsSync } from "node:fs"
import * as path from "node:path"
import { initialTransition } from "xstate"
import { sessionMachine } from "../../machines/session.js"
import type { CharacterName } from "../domain/CharacterName.js"
import { localIso } from "../domain/LocalTime.js"
import * as RecentStore from "../recent/RecentStore.js"
import type { Tunables } from "../Tunables.js"
import { outboxRetry } from "../maintenance/policies.js"
import * as EventLog from "../store/EventLog.js"
import * as Outbox from "../store/Outbox.js"
import * as FactArchive from "../facts/FactArchive.js"
import * as FactStore from "../facts/FactStore.js"
import * as ReflectionStore from "../reflection/ReflectionStore.js"
import * as PersonaStore from "../persona/PersonaStore.js"
import * as TimeIndex from "../store/TimeIndex.js"
import type { VectorsSlice } from "../vectors/VectorsHost.js"
import { intakeWindow, type FactsSlice } from "../facts/FactsHost.js"
import { ensureDir, sweepTemps } from "../store/DurableFs.js"
import { syncDirOnThread, syncFileOnThread } from "../store/WriterThread.js"
import type { Language } from "../domain/Locale.js"
import * as PromptLocale from "./locale/PromptLocale.js"
import { RECENT_SPLICED, TURNS_APPENDED } from "../recent/RecentEvents.js"
import { applyUnapplied, timeIndexOf } from "./Apply.js"
import { completeAtLoad } from "./Forget.js"
import * as ScopedForget from "./scoped/ScopedForget.js"
import * as PersonaForget from "./PersonaForget.js"
import type { CharacterHost, JournalOptions } from "../runtime/CharacterHost.js"
import * as RecentSlice from "../recent/RecentSlice.js"

export { applyUnapplied, EXTRACT_FACTS, timeIndexOf } from "./Apply.js"

/** Every feature's slice, the journal discipline's own fields and the session's. */
export interface CharacterState extends CharacterHost, FactsSlice, VectorsSlice {
  readonly recent: RecentStore.RecentStore
  readonly events: EventLog.EventLog
  readonly outbox: Outbox.Outbox
  readonly facts: FactStore.FactStore
  /** Journal size above which applied turn and splice events are compacted away at a checkpoint. */
  readonly compactAt: number
  readonly archive: FactArchive.FactArchive
  readonly reflections: ReflectionStore.ReflectionStore
  readonly persona: PersonaStore.PersonaStore
  timeIndex: TimeIndex.TimeIndex | undefined
  unapplied: Array<EventLog.EventLine>
  locale: Option.Option<Language>
  snapshot: ReturnType<typeof initialTransition<typeof sessionMachine>>[0]
  deferredDialogs: Array<Effect.Effect<void>>
  drainScheduled: boolean
  /** The last applied event whose views are written but not yet checkpointed (fsynced + sentinel). */
  checkpointDue: string | undefined
  checkpointScheduled: boolean
  /** Whether a checkpoint for when the character goes idle (recent.json holds turns) is planned. */
  idleCheckpointScheduled: boolean
  /** The recent-memory lifecycle: compressions, reviews and their callers (see RecentLifecycle.ts). */
  readonly recentLife: RecentSlice.RecentSlice
  /** When the last batch or lane job ended, and whether a check to release idle handles is scheduled. */
  lastUseAt: number
  releaseScheduled: boolean
  /** When the last write arrived (WriteCommit.ts sets it). */
  lastWriteAt: number
  /** Callers waiting until no compression and no review is in flight. */
  quietWaiters: Array<Effect.Effect<void>>
  readonly recorded: Set<string>
  /** Journaled writes of reflections, persona entries or corrections (the background lane watches it). */
  recordWrites: number
  /** Runs before every journal append: marks the character due in the due-work index (DueWork.ts). */
  readonly beforeJournal: Effect.Effect<void>
  /** When the last journal append began (0: none in this actor's life), for the due-work report. */
  lastChangeAt: number
  /** Whether the last vector backfill tick left entries without a vector. */
  vectorBacklog: boolean
}

const now = Clock.currentTimeMillis.pipe(Effect.map(localIso))

/**
 * Makes every applied event durable beyond a power loss (recent.json's deferred items written, fsync of the
 * time index's WAL, fsync of the outbox and of the directory holding the renamed views), then advances the sentinel
 * past them; while recent.json cannot be written the sentinel stays, so the journal still replays them.
 */
const checkpoint = (state: CharacterState) =>
  Effect.gen(function* () {
    state.checkpointScheduled = false
    const due = state.checkpointDue
    if (due === undefined) return
    if (!(yield* state.recent.flush)) return yield* Effect.logWarning("recent.json not written; checkpoint deferred")
    // The time index commits with synchronous=NORMAL: its WAL holds every commit, so an fsync of the WAL (off
    // the event loop) makes them survive a power loss; SQLite's own checkpoints move the pages into the file.
    if (state.timeIndex) yield* syncFileOnThread(state.timeIndex.walFile)
    yield* state.outbox.sync
    yield* syncDirOnThread(state.dir)
    yield* state.events.setSentinel(due, yield* now)
    if (state.checkpointDue === due) state.checkpointDue = undefined
    if (state.unapplied.length === 0) {
      const removed = yield* state.events.compact(
        state.compactAt,
        due,
        (e) => e.type === TURNS_APPENDED || e.type === RECENT_SPLICED
      )
      if (removed > 0) yield* Effect.logDebug("journal compacted").pipe(Effect.annotateLogs({ removed }))
    }
  }).pipe(
    Effect.catchAll((e) => Effect.logError("journal checkpoint failed").pipe(Effect.annotateLogs({ error: e.message })))
  )

export const load = (
  name: CharacterName,
  root: string,
  tunables: Tunables,
  marker: Effect.Effect<void> = Effect.void
) =>
  Effect.gen(function* () {
    const dir = path.join(root, name)
    const state: CharacterState = {
      name,
      dir,
      journal: (lines, options) => journal(state, lines, options),
      checkpoint: Effect.suspend(() => checkpoint(state)),
      exists: () => existsSync(dir),
      ensureDir: ensureDir(dir),
      openTimeIndex: (create) => timeIndexOf(state, create),
      recent: RecentStore.make(dir, {
        pendingCap: Math.max(2 * tunables.recent_compress_threshold_items, tunables.recent_pending_min_cap),
        deferWrites: tunables.recent_write_at_checkpoint,
        deferAbove: tunables.recent_write_defer_bytes,
        writeIntervalMs: tunables.recent_write_interval_ms
      }),
      events: EventLog.make(dir),
      outbox: Outbox.make(dir, {
        maxAttempts: outboxRetry(tunables).maxAttempts,
        compactAt: tunables.outbox_compaction_lines
      }),
      facts: FactStore.make(dir),
      compactAt: tunables.event_log_compaction_lines,
      archive: FactArchive.make(dir, { maxPerShard: tunables.archive_file_max_entries }),
      reflections: ReflectionStore.make(dir, { maxPerShard: tunables.archive_file_max_entries }),
      persona: PersonaStore.make(dir, { maxPerShard: tunables.archive_file_max_entries }),
      timeIndex: undefined,
      vectors: undefined,
      turnVectors: undefined,
      unapplied: [],
      locale: Option.none(),
      snapshot: initialTransition(sessionMachine)[0],
      deferredDialogs: [],
      drainScheduled: false,
      checkpointDue: undefined,
      checkpointScheduled: false,
      idleCheckpointScheduled: false,
      recentLife: RecentSlice.make(tunables),
      lastWriteAt: 0,
      lastUseAt: 0,
      releaseScheduled: false,
      quietWaiters: [],
      intake: intakeWindow(),
      recorded: new Set(),
      recordWrites: 0,
      beforeJournal: Effect.suspend(() => beforeJournal(state, marker)),
      lastChangeAt: 0,
      vectorBacklog: false
    }
    if (!existsSync(dir)) return state
    const swept = yield* sweepTemps(dir)
    if (swept > 0) yield* Effect.logInfo("leftover temp files removed").pipe(Effect.annotateLogs({ count: swept }))
    yield* state.outbox.load
    state.locale = yield* PromptLocale.read(dir)
    const pending = yield* state.events.unapplied
    if (pending.rejected.length > 0) {
      yield* Effect.logWarning("unreadable journal lines skipped").pipe(
        Effect.annotateLogs({ count: pending.rejected.length })
      )
      yield* Effect.ignoreLogged(state.events.recordRejected(pending.rejected, yield* now))
    }
    state.unapplied = [...pending.events]
    if (state.unapplied.length > 0) {
      yield* Effect.logInfo("replaying journal").pipe(Effect.annotateLogs({ events: state.unapplied.length }))
      yield* applyUnapplied(state)
      const completed = yield* completeAtLoad(state, pending.events).pipe(
        Effect.zipRight(PersonaForget.completeAtLoad(state, pending.events)),
        Effect.zipRight(ScopedForget.completeAtLoad(state, pending.events)),
        Effect.as(true),
        Effect.catchAll((e) =>
          Effect.logError("forget not completed; retried at the next load").pipe(
            Effect.annotateLogs({ error: e.message }),
            Effect.as(false)
          )
        )
      )
      if (completed) yield* checkpoint(state)
    }
    return state
  })

/** Checkpoints, then closes the SQLite handles; each reopens on its next use (they are opened lazily). */
export const release = (state: CharacterState) =>
  Effect.gen(function* () {
    yield* checkpoint(state)
    if (state.timeIndex) yield* state.timeIndex.close
    state.timeIndex = undefined
    if (state.vectors) yield* state.vectors.close
    state.vectors = undefined
    if (state.turnVectors) yield* state.turnVectors.store.close
    state.turnVectors = undefined
  })

/** Drops the decoded views (facts, reflections, persona and its corrections); each is read again on its next use. */
export const handlesOpen = (state: CharacterState) =>
  state.timeIndex !== undefined || state.vectors !== undefined || state.turnVectors !== undefined

export const viewsHeld = (state: CharacterState) =>
  state.facts.held() || state.reflections.held() || state.persona.held()

export const releaseViews = (state: CharacterState) =>
  Effect.all([state.facts.release, state.reflections.release, state.persona.release], { discard: true })

/** Notes the change and marks the character due, before a journal append. */
const beforeJournal = (state: CharacterState, marker: Effect.Effect<void>) =>
  Clock.currentTimeMillis.pipe(
    Effect.tap((millis) => Effect.sync(() => (state.lastChangeAt = millis))),
    Effect.zipRight(marker)
  )

/** Appends journal lines (the durability point), then applies them to the views. */
const RECORD_EVENT = /^(reflection|persona|correction)\./

const journal = (state: CharacterState, lines: ReadonlyArray<EventLog.EventLine>, options?: JournalOptions) =>
  Effect.gen(function* () {
    if (lines.length === 0) return true
    if ((options?.supersedes ?? true) && lines.some((l) => RECORD_EVENT.test(l.type))) state.recordWrites++
    yield* state.beforeJournal
    yield* state.events.append(lines)
    state.unapplied.push(...lines)
    return yield* applyUnapplied(state)
  })
