/**
 * A character's in-memory state and its journal discipline. `load` rebuilds everything from the directory
 * and reconciles: journal events past the sentinel are applied again through the same idempotent path as
 * live writes (`applyUnapplied`). The sentinel only advances once time index, recent view and outbox all
 * hold every unapplied event; until then the events stay queued and are retried with the next write.
 */
import { Clock, Effect, Either, Option, type Fiber } from "effect"
import type { ReviewState } from "../memory/recent/Review.js"
import { randomUUID } from "node:crypto"
import { existsSync } from "node:fs"
import * as path from "node:path"
import { initialTransition } from "xstate"
import { sessionMachine } from "../../machines/session.js"
import type { CharacterName } from "../domain/CharacterName.js"
import { localIso } from "../domain/LocalTime.js"
import * as RecentStore from "../memory/recent/RecentStore.js"
import type { Tunables } from "../Tunables.js"
import * as EventLog from "../store/EventLog.js"
import * as Outbox from "../store/Outbox.js"
import * as FactArchive from "../memory/facts/FactArchive.js"
import * as FactStore from "../memory/facts/FactStore.js"
import * as ReflectionStore from "../memory/reflection/ReflectionStore.js"
import * as PersonaStore from "../memory/persona/PersonaStore.js"
import * as TimeIndex from "../store/TimeIndex.js"
import type { VectorStore } from "../embed/VectorStore.js"
import { ensureDir, fsyncDir } from "../store/DurableFs.js"
import type { Language } from "../domain/Locale.js"
import * as PromptLocale from "./PromptLocale.js"
import {
  fromLine,
  RECENT_SPLICED,
  spliceLine,
  TURNS_APPENDED,
  type JournalEvent,
  type SplicePayload,
  type TurnEvent
} from "./TurnEvent.js"

export const EXTRACT_FACTS = "extract_facts"

export interface CharacterState {
  readonly name: CharacterName
  readonly dir: string
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
  /** `vectors.db`, opened by the vector backfill on first use (derived data, see VectorBackfill.ts). */
  vectors: VectorStore | undefined
  unapplied: Array<EventLog.EventLine>
  locale: Option.Option<Language>
  snapshot: ReturnType<typeof initialTransition<typeof sessionMachine>>[0]
  deferredDialogs: Array<Effect.Effect<void>>
  drainScheduled: boolean
  /** The last applied event whose views are written but not yet checkpointed (fsynced + sentinel). */
  checkpointDue: string | undefined
  checkpointScheduled: boolean
  /** Recent-memory compression bookkeeping (see Compaction.ts). */
  compressing: boolean
  backup: { readonly key: string; readonly attempts: number; readonly at: number } | undefined
  lastWriteAt: number
  idleCheckScheduled: boolean
  compressionWaiters: Array<Effect.Effect<void>>
  /** Review bookkeeping (loaded on first use) and the review in flight. */
  review: ReviewState | undefined
  reviewFiber: Fiber.RuntimeFiber<void> | undefined
  /** Callers waiting until no compression and no review is in flight. */
  quietWaiters: Array<Effect.Effect<void>>
  /** Batch fact extraction (powerful ON): turns gathered, last check, tick timer, failures on the window. */
  turnsSince: number
  lastCheckAt: number | undefined
  tickScheduled: boolean
  windowFailures: number
  pathATicks: number
  readonly recorded: Set<string>
}

const now = Clock.currentTimeMillis.pipe(Effect.map(localIso))

export const exists = (state: CharacterState): boolean => existsSync(state.dir)

export const ensureCharacterDir = (state: CharacterState) => ensureDir(state.dir)

/** Opens `time_indexed.db`, creating the directory and the database when `create` is set. */
export const timeIndexOf = (state: CharacterState, create: boolean) =>
  Effect.gen(function* () {
    if (state.timeIndex) return Option.some(state.timeIndex)
    const file = path.join(state.dir, "time_indexed.db")
    if (!create && !existsSync(file)) return Option.none<TimeIndex.TimeIndex>()
    yield* ensureDir(state.dir)
    state.timeIndex = yield* TimeIndex.open(file)
    return Option.some(state.timeIndex)
  })

/** Applies every unapplied event in journal order; true when all of them are on disk. */
export const applyUnapplied = (state: CharacterState) =>
  Effect.gen(function* () {
    if (state.unapplied.length === 0) return true
    const ts = yield* now
    const valid: Array<JournalEvent> = []
    const rejected: Array<EventLog.RejectedLine> = []
    for (const line of state.unapplied) {
      const decoded = fromLine(line)
      if (Either.isRight(decoded)) valid.push(decoded.right)
      else if (!state.recorded.has(line.event_id)) {
        rejected.push({ line: 0, event_id: line.event_id, reason: decoded.left })
        state.recorded.add(line.event_id)
      }
    }
    if (rejected.length > 0) {
      yield* Effect.logWarning("journal events skipped").pipe(Effect.annotateLogs({ count: rejected.length }))
      yield* Effect.ignoreLogged(state.events.recordRejected(rejected, ts))
    }
    const turns = valid.filter((e): e is TurnEvent => e._tag === "Turns")
    const rowsOk = yield* timeIndexOf(state, true).pipe(
      Effect.flatMap(
        Option.match({
          onNone: () => Effect.succeed(0),
          onSome: (ti) =>
            ti.applyTurns(
              turns.map((e) => ({
                eventId: e.eventId,
                sessionId: e.payload.session_id,
                timestamp: e.payload.row_ts,
                messages: e.payload.messages.map((m) =>
                  JSON.stringify({ type: m.type, data: { content: m.data.content } })
                )
              }))
            )
        })
      ),
      Effect.as(true),
      Effect.catchAll((e) =>
        Effect.logError("time index write failed").pipe(Effect.annotateLogs({ error: e.message }), Effect.as(false))
      )
    )
    let recentOk = true
    let group: Array<TurnEvent> = []
    const flushGroup = Effect.suspend(() => {
      const events = group.map((e) => ({ eventId: e.eventId, messages: e.payload.messages }))
      group = []
      return events.length === 0
        ? Effect.succeed(true)
        : Effect.map(state.recent.appendEvents(events), (r) => r.written)
    })
    for (const event of valid) {
      if (!recentOk) break
      if (event._tag !== "Turns" && event._tag !== "Splice") continue
      if (event._tag === "Turns") {
        group.push(event)
        continue
      }
      recentOk = yield* flushGroup
      if (!recentOk) break
      const result = yield* state.recent.spliceEvent(
        event.eventId,
        event.payload.fingerprints,
        event.payload.items,
        event.payload.at
      )
      if (result.moot) yield* Effect.logInfo("recent splice moot: history changed underneath")
      recentOk = result.written
    }
    if (recentOk) recentOk = yield* flushGroup
    const moves = valid.flatMap((e) => (e._tag === "FactMove" ? [e.payload] : []))
    const absorbed = new Set(valid.flatMap((e) => (e._tag === "FactAbsorbed" ? e.payload.fact_ids : [])))
    const current =
      absorbed.size === 0
        ? []
        : (yield* Effect.either(state.facts.load)).pipe(Either.match({ onLeft: () => [], onRight: (i) => i.facts }))
    const changed = valid.flatMap((e) =>
      e._tag === "Fact" ? [e.payload.fact] : e._tag === "FactMove" && e.payload.kept ? [e.payload.kept] : []
    )
    const latest = new Map([...current, ...changed].map((f) => [f.id, f]))
    const upserts = [
      ...changed,
      ...[...latest.values()].filter((f) => absorbed.has(f.id) && !f.absorbed).map((f) => ({ ...f, absorbed: true }))
    ]
    const factsOk = yield* state.archive
      .add(
        moves.map((m) => m.archived),
        ts
      )
      .pipe(
        Effect.zipRight(
          state.facts.upsert(
            upserts,
            moves.map((m) => m.archived.id)
          )
        ),
        Effect.as(true),
        Effect.catchAll((e) =>
          Effect.logError("facts.json write failed; fact events kept").pipe(
            Effect.annotateLogs({ error: e._tag }),
            Effect.as(false)
          )
        )
      )
    const opsOk = yield* state.outbox
      .register(
        turns
          .filter((e) => e.payload.extract)
          .map((e) => ({
            opId: e.eventId,
            type: EXTRACT_FACTS,
            payload: e.payload.language
              ? { messages: e.payload.messages, language: e.payload.language }
              : { messages: e.payload.messages }
          })),
        ts
      )
      .pipe(
        Effect.as(true),
        Effect.catchAll((e) =>
          Effect.logError("outbox write failed").pipe(Effect.annotateLogs({ error: e.message }), Effect.as(false))
        )
      )
    const archivedReflections = valid.flatMap((e) =>
      e._tag === "ReflectionChanged" && e.payload.to === "archived" ? [e.payload] : []
    )
    const reflectionsOk = yield* Effect.forEach(
      archivedReflections,
      (p) =>
        state.reflections.archive.add(
          [p.entry_snapshot],
          [p["archived_at"], p.entry_snapshot["archived_at"], p.ts].find((v) => typeof v === "string") ?? ts
        ),
      { discard: true }
    ).pipe(
      Effect.zipRight(
        state.reflections.upsert(
          valid.flatMap((e) =>
            e._tag === "ReflectionAdded"
              ? [e.payload.reflection]
              : e._tag === "ReflectionChanged" && e.payload.to !== "archived"
                ? [e.payload.entry_snapshot]
                : []
          ),
          archivedReflections.map((p) => p.reflection_id)
        )
      ),
      Effect.as(true),
      Effect.catchAll((e) =>
        Effect.logError("reflections.json write failed; events kept").pipe(
          Effect.annotateLogs({ error: e._tag }),
          Effect.as(false)
        )
      )
    )
    const personaOk = yield* state.persona.apply(valid.flatMap((e) => (e._tag === "Persona" ? [e.op] : []))).pipe(
      Effect.as(true),
      Effect.catchAll((e) =>
        Effect.logError("persona write failed; events kept").pipe(
          Effect.annotateLogs({ error: e._tag }),
          Effect.as(false)
        )
      )
    )
    if (!(rowsOk && recentOk && opsOk && factsOk && reflectionsOk && personaOk)) return false
    const last = state.unapplied[state.unapplied.length - 1]
    if (last) state.checkpointDue = last.event_id
    state.unapplied = []
    return true
  })

/** Journals and applies one splice of the recent view; a journal failure leaves the view untouched. */
export const commitSplice = (state: CharacterState, payload: SplicePayload) =>
  Effect.gen(function* () {
    const line = spliceLine(randomUUID(), payload, yield* now)
    yield* state.events.append([line])
    state.unapplied.push(line)
    return yield* applyUnapplied(state)
  }).pipe(
    Effect.catchAll((e) =>
      Effect.logError("recent splice not journaled; view untouched").pipe(
        Effect.annotateLogs({ error: e.message }),
        Effect.as(false)
      )
    )
  )

/**
 * Makes every applied event durable beyond a power loss (WAL checkpoint, fsync of the outbox and of the
 * directory holding the renamed views), then advances the sentinel past them.
 */
export const checkpoint = (state: CharacterState) =>
  Effect.gen(function* () {
    state.checkpointScheduled = false
    const due = state.checkpointDue
    if (due === undefined) return
    if (state.timeIndex) yield* state.timeIndex.checkpoint
    yield* state.outbox.sync
    yield* fsyncDir(state.dir)
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

export const load = (name: CharacterName, root: string, tunables: Tunables) =>
  Effect.gen(function* () {
    const dir = path.join(root, name)
    const state: CharacterState = {
      name,
      dir,
      recent: RecentStore.make(dir, {
        pendingCap: Math.max(2 * tunables.recent_compress_threshold_items, tunables.recent_pending_min_cap)
      }),
      events: EventLog.make(dir),
      outbox: Outbox.make(dir, {
        maxAttempts: tunables.outbox_max_attempts,
        compactAt: tunables.outbox_compaction_lines
      }),
      facts: FactStore.make(dir),
      compactAt: tunables.event_log_compaction_lines,
      archive: FactArchive.make(dir, { maxPerShard: tunables.archive_file_max_entries }),
      reflections: ReflectionStore.make(dir, { maxPerShard: tunables.archive_file_max_entries }),
      persona: PersonaStore.make(dir, { maxPerShard: tunables.archive_file_max_entries }),
      timeIndex: undefined,
      vectors: undefined,
      unapplied: [],
      locale: Option.none(),
      snapshot: initialTransition(sessionMachine)[0],
      deferredDialogs: [],
      drainScheduled: false,
      checkpointDue: undefined,
      checkpointScheduled: false,
      compressing: false,
      backup: undefined,
      lastWriteAt: 0,
      idleCheckScheduled: false,
      compressionWaiters: [],
      review: undefined,
      reviewFiber: undefined,
      quietWaiters: [],
      turnsSince: 0,
      lastCheckAt: undefined,
      tickScheduled: false,
      windowFailures: 0,
      pathATicks: 0,
      recorded: new Set()
    }
    if (!existsSync(dir)) return state
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
      yield* checkpoint(state)
    }
    return state
  })

export const release = (state: CharacterState) =>
  Effect.gen(function* () {
    yield* checkpoint(state)
    if (state.timeIndex) yield* state.timeIndex.close
    state.timeIndex = undefined
    if (state.vectors) yield* state.vectors.close
    state.vectors = undefined
  })

/** Appends journal lines (the durability point), then applies them to the views. */
export const journal = (state: CharacterState, lines: ReadonlyArray<EventLog.EventLine>) =>
  Effect.gen(function* () {
    if (lines.length === 0) return true
    yield* state.events.append(lines)
    state.unapplied.push(...lines)
    return yield* applyUnapplied(state)
  })
