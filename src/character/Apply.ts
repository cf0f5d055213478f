/**
 * Applying journal events to a character's views, the single idempotent path shared by live writes and the
 * startup reconciler: turns into `time_indexed.db`, recent items and splices into `recent.json`, outbox ops,
 * fact moves and upserts (archive first; forgotten and tombstoned ids leave both), reflections (archived ones
 * into their shards) and persona ops.
 * Events that do not decode are recorded in `events_rejected.ndjson` and skipped.
 */
import { Clock, Effect, Either, Option } from "effect"
import * as path from "node:path"
import { localIso } from "../domain/LocalTime.js"
import type * as FactArchive from "../facts/FactArchive.js"
import type * as FactStore from "../facts/FactStore.js"
import type * as PersonaStore from "../persona/PersonaStore.js"
import type * as RecentStore from "../recent/RecentStore.js"
import type * as ReflectionStore from "../reflection/ReflectionStore.js"
import type * as EventLog from "../store/EventLog.js"
import type * as Outbox from "../store/Outbox.js"
import * as TimeIndex from "../store/TimeIndex.js"
import { ensureDir } from "../store/DurableFs.js"
import { existsSync } from "node:fs"
import { fromLine, type JournalEvent, type TurnEvent } from "./JournalEvent.js"
import { withFields } from "../domain/Shapes.js"

/** What applying events reads and writes of a character's state (the character state has all of it). */
export interface CharacterViews {
  readonly dir: string
  readonly recent: RecentStore.RecentStore
  readonly events: EventLog.EventLog
  readonly outbox: Outbox.Outbox
  readonly facts: FactStore.FactStore
  readonly archive: FactArchive.FactArchive
  readonly reflections: ReflectionStore.ReflectionStore
  readonly persona: PersonaStore.PersonaStore
  readonly recorded: Set<string>
  timeIndex: TimeIndex.TimeIndex | undefined
  unapplied: Array<EventLog.EventLine>
  /** The last applied event whose views are written but not yet checkpointed. */
  checkpointDue: string | undefined
}

/** The outbox op type every journaled turn registers (fact extraction). */
export const EXTRACT_FACTS = "extract_facts"
const now = Clock.currentTimeMillis.pipe(Effect.map(localIso))

/**
 * A view writer's part of applying: skipped when the events hold nothing for it (`none`), else true once it
 * wrote, false (logged, the events kept for the next attempt) when it failed.
 */
const viewWrite = <E extends { readonly _tag: string }>(
  none: boolean,
  failed: string,
  write: Effect.Effect<unknown, E>
) =>
  none
    ? Effect.succeed(true)
    : write.pipe(
        Effect.as(true),
        Effect.catchAll((e) => Effect.logError(failed).pipe(Effect.annotateLogs({ error: e._tag }), Effect.as(false)))
      )

/** Opens `time_indexed.db`, creating the directory and the database when `create` is set. */
export const timeIndexOf = (state: CharacterViews, create: boolean) =>
  Effect.gen(function* () {
    if (state.timeIndex) return Option.some(state.timeIndex)
    const file = path.join(state.dir, "time_indexed.db")
    if (!create && !existsSync(file)) return Option.none<TimeIndex.TimeIndex>()
    yield* ensureDir(state.dir)
    state.timeIndex = yield* TimeIndex.open(file)
    return Option.some(state.timeIndex)
  })

/** Applies every unapplied event in journal order; true when all of them are on disk. */
export const applyUnapplied = (state: CharacterViews) =>
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
        event.payload.at,
        event.payload.reason === "edit"
      )
      if (result.moot) yield* Effect.logInfo("recent splice moot: history changed underneath")
      recentOk = result.written
    }
    if (recentOk) recentOk = yield* flushGroup
    const moves = valid.flatMap((e) => (e._tag === "FactMove" ? [e.payload] : []))
    const forgotten = valid.flatMap((e) =>
      e._tag === "FactForgotten" ? e.payload.fact_ids : e._tag === "FactRedacted" ? e.payload.redacted.ids : []
    )
    const absorbed = new Set(valid.flatMap((e) => (e._tag === "FactAbsorbed" ? e.payload.fact_ids : [])))
    const current =
      absorbed.size === 0
        ? []
        : (yield* Effect.either(state.facts.load)).pipe(Either.match({ onLeft: () => [], onRight: (i) => i.all }))
    const changed = valid.flatMap((e) =>
      e._tag === "Fact"
        ? [e.payload.fact]
        : (e._tag === "FactMove" || e._tag === "FactRedacted") && e.payload.kept
          ? [e.payload.kept]
          : []
    )
    const latest = new Map([...current, ...changed].map((f) => [f.id, f]))
    const upserts = [
      ...changed,
      ...[...latest.values()]
        .filter((f) => absorbed.has(f.id) && !f.absorbed)
        .map((f) => withFields(f, { absorbed: true }))
    ]
    const factsOk = yield* viewWrite(
      moves.length === 0 && forgotten.length === 0 && upserts.length === 0,
      "facts.json write failed; fact events kept",
      state.archive
        .add(
          moves.map((m) => m.archived),
          ts
        )
        .pipe(
          Effect.zipRight(state.archive.remove(forgotten)),
          Effect.zipRight(state.facts.upsert(upserts, [...moves.map((m) => m.archived.id), ...forgotten]))
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
    const forgottenReflections = valid.flatMap((e) =>
      e._tag === "ReflectionForgotten" ? e.payload.reflection_ids : []
    )
    const reflectionRows = valid.flatMap((e) =>
      e._tag === "ReflectionAdded"
        ? [e.payload.reflection]
        : e._tag === "ReflectionChanged" && e.payload.to !== "archived"
          ? [e.payload.entry_snapshot]
          : []
    )
    const reflectionsOk = yield* viewWrite(
      archivedReflections.length === 0 && forgottenReflections.length === 0 && reflectionRows.length === 0,
      "reflections.json write failed; events kept",
      Effect.forEach(
        archivedReflections,
        (p) =>
          state.reflections.archive.add(
            [p.entry_snapshot],
            [p["archived_at"], p.entry_snapshot["archived_at"], p.ts].find((v) => typeof v === "string") ?? ts
          ),
        { discard: true }
      ).pipe(
        Effect.zipRight(state.reflections.archive.remove(forgottenReflections)),
        Effect.zipRight(
          state.reflections.upsert(reflectionRows, [
            ...archivedReflections.map((p) => p.reflection_id),
            ...forgottenReflections
          ])
        )
      )
    )
    const personaOps = valid.flatMap((e) => (e._tag === "Persona" ? [e.op] : []))
    const personaOk = yield* viewWrite(
      personaOps.length === 0,
      "persona write failed; events kept",
      state.persona.apply(personaOps)
    )
    if (!(rowsOk && recentOk && opsOk && factsOk && reflectionsOk && personaOk)) return false
    const last = state.unapplied[state.unapplied.length - 1]
    if (last) state.checkpointDue = last.event_id
    state.unapplied = []
    return true
  })
