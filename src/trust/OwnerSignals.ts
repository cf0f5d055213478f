/**
 * Owner trust signals (N.E.K.O.'s `aevaluate_speaker_trust_events` / `apersist_speaker_trust_events`), pure:
 * each user message of a `speaker_is_owner` segment is held against the facts other speakers contributed in
 * the owner's reach (the same subject; for a group participant, every participant of the same group in the
 * same scope, or both in their default scope). A confirmation or a correction (OwnerMessage.ts) becomes an
 * event for the fact's speaker. Never for the owner's own facts (nor another
 * account of the same person), a fact of mixed provenance, or one with an explicit event window (a dated fact
 * is not contradicted by a present-day remark). Ids are content-stable: `event_id` from (kind, character,
 * owner, fact identity, target), `observation_id` from the owner's message, so one owner message never counts
 * twice for one fact, and an event already recorded on a row for the same message is re-delivered (replay
 * after a lost response). `attachEvents` writes new events onto the rows as `_speaker_trust_signal_events`
 * and answers only the events a row durably carries.
 */
import { Option, Predicate, Schema } from "effect"
import { createHash } from "node:crypto"
import { subjectOfRow, subjectMarker, type MemorySubject } from "../domain/Subject.js"
import { normalizeAccountId } from "./Identity.js"
import { readMessage, relationOf } from "./OwnerMessage.js"
import { relationKey, type Relation } from "./OwnerRelation.js"

export const SIGNAL_EVENTS_FIELD = "_speaker_trust_signal_events"

export const OwnerSignalEvent = Schema.Struct({
  kind: Schema.Literal("confirmation", "correction"),
  speaker_id: Schema.String,
  event_id: Schema.String,
  source_speaker_id: Schema.String,
  source_fact_id: Schema.String,
  source_subject_kind: Schema.String,
  source_subject_id: Schema.String,
  source_scope: Schema.String,
  observation_id: Schema.String
})
export type OwnerSignalEvent = typeof OwnerSignalEvent.Type
const decodeEvent = Schema.decodeUnknownOption(OwnerSignalEvent)

/** A fact row as the evaluation reads it (facts.json rows, archived rows). */
export type Row = Readonly<Record<string, unknown>>
/** `[fact id, subject_kind, subject_id, scope]`. */
export type FactIdentity = readonly [string, string, string, string]

export interface OwnerJob {
  readonly character: string
  /** The owner's account (normalised). */
  readonly sourceId: string
  /** Every account of the owner's entity: their facts are the owner's own. */
  readonly selfAccounts: ReadonlyArray<string>
  readonly subject: MemorySubject
  /** The owner's user-authored message texts, in order. */
  readonly texts: ReadonlyArray<string>
  /** Fact identities the caller excluded (`trust_signal_excluded_fact_identities`). */
  readonly excluded: ReadonlyArray<FactIdentity>
}

const sha24 = (s: string) => createHash("sha256").update(s).digest("hex").slice(0, 24)
const folded = (text: string) =>
  text
    .split(/\s+/)
    .filter((w) => w !== "")
    .join(" ")
    .toLowerCase()

export const observationId = (text: string) => sha24(folded(text))
export const eventId = (kind: Relation, signalKey: string, target: string) => sha24(`${kind}|${signalKey}|${target}`)

export const identityOf = (row: Row): FactIdentity | undefined => {
  const id = row["id"]
  const subject = subjectOfRow(row)
  return typeof id === "string" && id !== "" && subject !== undefined
    ? [id, subject.kind, subject.subjectId, subject.scope]
    : undefined
}
const identityKey = (i: ReadonlyArray<unknown>) => JSON.stringify(i)
const eventIdentity = (e: OwnerSignalEvent): FactIdentity => [
  e.source_fact_id,
  e.source_subject_kind,
  e.source_subject_id,
  e.source_scope
]

export const recordedEvents = (row: Row): ReadonlyArray<OwnerSignalEvent> => {
  const raw = row[SIGNAL_EVENTS_FIELD]
  return Array.isArray(raw) ? raw.flatMap((e) => (Predicate.isRecord(e) ? Option.toArray(decodeEvent(e)) : [])) : []
}

/** Whether `row` is in the owner's reach from `subject` (N.E.K.O.'s `_in_signal_scope`). */
export const inReach = (subject: MemorySubject) => {
  const marker = subjectMarker(subject)
  const group = (s: MemorySubject) => s.subjectId.slice(0, s.subjectId.lastIndexOf(":"))
  const defaultScope = (s: MemorySubject) => s.scope === `${s.kind}:${s.subjectId}`
  return (row: Row): boolean => {
    const candidate = subjectOfRow(row)
    if (candidate === undefined) return false
    if (subject.kind !== "group_participant") return subjectMarker(candidate) === marker
    return (
      candidate.kind === "group_participant" &&
      group(candidate) === group(subject) &&
      (candidate.scope === subject.scope || (defaultScope(subject) && defaultScope(candidate)))
    )
  }
}

/** A window the fact states, not the creation-time fallback (N.E.K.O.'s `explicit_event_window`). */
const hasExplicitWindow = (row: Row): boolean => {
  const created = row["created_at"]
  const start = row["event_start_at"]
  const end = row["event_end_at"]
  const set = (v: unknown) => typeof v === "string" && v !== ""
  if (!row["event_when_raw"] && (!set(start) || start === created) && (!set(end) || end === created)) return false
  return set(start) || set(end)
}

/**
 * The events of one owner job: replays recorded on `replayRows` (active and archived) for these messages,
 * then new ones against `rows` (the active facts the owner could have seen), each event id once, in message
 * order; excluded identities never give one.
 */
export const evaluateOwnerSignals = (
  job: OwnerJob,
  rows: ReadonlyArray<Row>,
  replayRows: ReadonlyArray<Row>
): ReadonlyArray<OwnerSignalEvent> => {
  const reach = inReach(job.subject)
  const excluded = new Set(job.excluded.map(identityKey))
  const self = new Set([job.sourceId, ...job.selfAccounts])
  const replays = replayRows.flatMap((prior) => {
    const identity = reach(prior) ? identityOf(prior) : undefined
    if (identity === undefined) return []
    const key = identityKey(identity)
    return recordedEvents(prior).filter(
      (r) =>
        r.event_id.trim() !== "" &&
        identityKey(eventIdentity(r)) === key &&
        normalizeAccountId(r.source_speaker_id) === job.sourceId &&
        normalizeAccountId(r.speaker_id) !== undefined
    )
  })
  const candidates = rows.flatMap((prior) => {
    if (!reach(prior) || prior["speaker_provenance_mixed"] === true) return []
    const target = normalizeAccountId(prior["speaker_id"])
    if (target === undefined || self.has(target) || hasExplicitWindow(prior)) return []
    const identity = identityOf(prior)
    const text = prior["text"]
    if (identity === undefined || typeof text !== "string") return []
    const [factId, subjectKind, subjectId, scope] = identity
    const signalKey = sha24(JSON.stringify([job.character, job.sourceId, subjectKind, subjectId, scope, factId]))
    return [{ target, identity, text, signalKey, key: relationKey(text) }]
  })
  const byKey = new Map<string, Array<number>>()
  candidates.forEach((c, i) => byKey.set(c.key, [...(byKey.get(c.key) ?? []), i]))
  const seen = new Set<string>()
  const events: Array<OwnerSignalEvent> = []
  const add = (e: OwnerSignalEvent) => {
    if (seen.has(e.event_id) || excluded.has(identityKey(eventIdentity(e)))) return
    seen.add(e.event_id)
    events.push(e)
  }
  for (const message of job.texts) {
    const observation = observationId(message)
    for (const recorded of replays) if (recorded.observation_id === observation) add({ ...recorded })
    const read = readMessage(message)
    const paired = [...new Set([...read.keys].flatMap((k) => byKey.get(k) ?? []))].sort((x, y) => x - y)
    for (const c of paired.map((i) => candidates[i]!)) {
      const kind = relationOf(c.text, read)
      if (kind === undefined) continue
      const [factId, subjectKind, subjectId, scope] = c.identity
      add({
        kind,
        speaker_id: c.target,
        event_id: eventId(kind, c.signalKey, c.target),
        source_speaker_id: job.sourceId,
        source_fact_id: factId,
        source_subject_kind: subjectKind,
        source_subject_id: subjectId,
        source_scope: scope,
        observation_id: observation
      })
    }
  }
  return events
}

/**
 * Attaches `events` to the active rows they name: an event already on its row is a replay (durable as is),
 * a new one lands only on a row still spoken by its target and not of mixed provenance. Archived rows are
 * never written: an event found on one is durable. Returns the rows that changed and the durable events.
 */
export const attachEvents = <R extends Row>(
  active: ReadonlyArray<R>,
  archived: ReadonlyArray<Row>,
  events: ReadonlyArray<OwnerSignalEvent>
): { readonly changed: ReadonlyArray<R>; readonly durable: ReadonlyArray<OwnerSignalEvent> } => {
  const wanted = new Map<string, Array<OwnerSignalEvent>>()
  for (const e of events) {
    const key = identityKey(eventIdentity(e))
    wanted.set(key, [...(wanted.get(key) ?? []), e])
  }
  const durable = new Set<string>()
  const changed: Array<R> = []
  const visit = (row: Row, writable: boolean): Array<OwnerSignalEvent> | undefined => {
    const identity = identityOf(row)
    const additions = identity === undefined ? undefined : wanted.get(identityKey(identity))
    if (additions === undefined) return undefined
    const recorded = recordedEvents(row)
    const known = new Set(recorded.map((e) => e.event_id))
    const added: Array<OwnerSignalEvent> = []
    for (const e of additions) {
      if (known.has(e.event_id)) {
        durable.add(e.event_id)
        continue
      }
      if (!writable || row["speaker_provenance_mixed"] === true) continue
      if (normalizeAccountId(row["speaker_id"]) !== e.speaker_id) continue
      known.add(e.event_id)
      added.push(e)
      durable.add(e.event_id)
    }
    return added
  }
  for (const row of active) {
    const added = visit(row, true)
    if (added !== undefined && added.length > 0) {
      const raw = row[SIGNAL_EVENTS_FIELD]
      changed.push({ ...row, [SIGNAL_EVENTS_FIELD]: [...(Array.isArray(raw) ? raw : []), ...added] })
    }
  }
  for (const row of archived) visit(row, false)
  return { changed, durable: events.filter((e) => durable.has(e.event_id)) }
}
