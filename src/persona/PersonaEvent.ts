/**
 * Persona journal events, each replayable on its own: `persona.fact_added` (a new entry, or with
 * `archived_at` the entry leaving for an archive shard), `persona.entry_updated` (a rewrite: merge,
 * correction), `persona.evidence_updated` (evidence, mentions, suppression), `persona.entry_removed`,
 * `persona.card_synced` (the character-card lines of a section; an added entry may stamp its section too) and the correction queue's
 * `correction.queued` / `correction.resolved` / `correction.attempted`. Every payload carries the whole
 * entry, never only a delta; `persona.forgotten` (PersonaRedaction.ts) carries ids only.
 */
import { Either, Schema } from "effect"
import { Correction, PersonaEntry } from "./Persona.js"
import type { PersonaOp } from "./PersonaStore.js"
import type { EventLine } from "../store/EventLog.js"

export const PERSONA_FACT_ADDED = "persona.fact_added"
export const PERSONA_ENTRY_UPDATED = "persona.entry_updated"
export const PERSONA_EVIDENCE_UPDATED = "persona.evidence_updated"
export const PERSONA_ENTRY_REMOVED = "persona.entry_removed"
export const PERSONA_CARD_SYNCED = "persona.card_synced"
export const CORRECTION_QUEUED = "correction.queued"
export const CORRECTION_RESOLVED = "correction.resolved"
export const CORRECTION_ATTEMPTED = "correction.attempted"
export const PERSONA_FORGOTTEN = "persona.forgotten"

const Rest = Schema.Record({ key: Schema.String, value: Schema.Unknown })
const EntryPayload = Schema.Struct(
  {
    entity_key: Schema.String,
    entry_id: Schema.String,
    entry_snapshot: PersonaEntry,
    source: Schema.optional(Schema.String),
    archived_at: Schema.optional(Schema.String),
    /** The section's own stamp, set with the entry (a group-chat subject's fields and entity). */
    section_fields: Schema.optional(Rest)
  },
  Rest
)
const RemovedPayload = Schema.Struct({ entity_key: Schema.String, entry_id: Schema.String, reason: Schema.String })
const CardPayload = Schema.Struct({ entity_key: Schema.String, entries: Schema.Array(PersonaEntry) })
const QueuedPayload = Schema.Struct({ correction: Correction })
const ResolvedPayload = Schema.Struct({
  correction_ids: Schema.Array(Schema.String),
  action: Schema.optional(Schema.String)
})
const AttemptedPayload = Schema.Struct({ attempts: Schema.Record({ key: Schema.String, value: Schema.Number }) })
export const ForgottenPayload = Schema.Struct({
  entry_ids: Schema.Array(Schema.String),
  correction_ids: Schema.Array(Schema.String),
  reason: Schema.String,
  /** Whole sections that go with them (a forgotten subject's `@subject/…` section and its metadata). */
  sections: Schema.optional(Schema.Array(Schema.String))
})
export type ForgottenPayload = typeof ForgottenPayload.Type
export const decodeForgotten = Schema.decodeUnknownEither(ForgottenPayload)

export const personaTypes = new Set([
  PERSONA_FACT_ADDED,
  PERSONA_ENTRY_UPDATED,
  PERSONA_EVIDENCE_UPDATED,
  PERSONA_ENTRY_REMOVED,
  PERSONA_CARD_SYNCED,
  CORRECTION_QUEUED,
  CORRECTION_RESOLVED,
  CORRECTION_ATTEMPTED,
  PERSONA_FORGOTTEN
])

const line = (eventId: string, type: string, ts: string, payload: Readonly<Record<string, unknown>>): EventLine => ({
  event_id: eventId,
  type,
  ts,
  payload: { ...payload }
})
const encodeEntry = Schema.encodeSync(EntryPayload)

export const entryLine = (
  eventId: string,
  type: typeof PERSONA_FACT_ADDED | typeof PERSONA_ENTRY_UPDATED | typeof PERSONA_EVIDENCE_UPDATED,
  section: string,
  entry: PersonaEntry,
  ts: string,
  extra: {
    readonly source?: string
    readonly archived_at?: string
    readonly section_fields?: Readonly<Record<string, unknown>>
  } = {}
): EventLine =>
  line(
    eventId,
    type,
    ts,
    encodeEntry({
      entity_key: section,
      entry_id: entry.id,
      entry_snapshot: entry,
      ...(type === PERSONA_FACT_ADDED ? { text: entry.text } : {}),
      ...extra
    })
  )

export const removedLine = (eventId: string, section: string, id: string, reason: string, ts: string) =>
  line(eventId, PERSONA_ENTRY_REMOVED, ts, { entity_key: section, entry_id: id, reason })

export const cardLine = (eventId: string, section: string, entries: ReadonlyArray<PersonaEntry>, ts: string) =>
  line(eventId, PERSONA_CARD_SYNCED, ts, Schema.encodeSync(CardPayload)({ entity_key: section, entries }))

export const queuedLine = (eventId: string, correction: Correction, ts: string) =>
  line(eventId, CORRECTION_QUEUED, ts, Schema.encodeSync(QueuedPayload)({ correction }))

export const resolvedLine = (eventId: string, ids: ReadonlyArray<string>, action: string, ts: string) =>
  line(eventId, CORRECTION_RESOLVED, ts, { correction_ids: [...ids], action })

export const attemptedLine = (eventId: string, attempts: Readonly<Record<string, number>>, ts: string) =>
  line(eventId, CORRECTION_ATTEMPTED, ts, { attempts: { ...attempts } })

/** A forget of persona entries (and the queued corrections quoting them): ids and reason, never text. */
export const forgottenLine = (eventId: string, payload: ForgottenPayload, ts: string) =>
  line(eventId, PERSONA_FORGOTTEN, ts, Schema.encodeSync(ForgottenPayload)(payload))

const bad = () => "payload does not decode"
const decodeWith =
  <A, I>(schema: Schema.Schema<A, I>, f: (a: A) => PersonaOp) =>
  (payload: unknown): Either.Either<PersonaOp, string> =>
    Either.mapBoth(Schema.decodeUnknownEither(schema)(payload), { onLeft: bad, onRight: f })

/** The persona op a journal line stands for. */
export const personaOp = (line: EventLine): Either.Either<PersonaOp, string> => {
  switch (line.type) {
    case PERSONA_FACT_ADDED:
    case PERSONA_ENTRY_UPDATED:
    case PERSONA_EVIDENCE_UPDATED:
      return decodeWith(
        EntryPayload,
        (p): PersonaOp =>
          p.archived_at !== undefined
            ? { op: "archive", section: p.entity_key, entry: p.entry_snapshot, at: p.archived_at }
            : {
                op: "upsert",
                section: p.entity_key,
                entry: p.entry_snapshot,
                ...(p.section_fields === undefined ? {} : { sectionFields: p.section_fields })
              }
      )(line.payload)
    case PERSONA_ENTRY_REMOVED:
      return decodeWith(
        RemovedPayload,
        (p): PersonaOp => ({ op: "remove", section: p.entity_key, id: p.entry_id })
      )(line.payload)
    case PERSONA_CARD_SYNCED:
      return decodeWith(
        CardPayload,
        (p): PersonaOp => ({ op: "card", section: p.entity_key, entries: p.entries })
      )(line.payload)
    case CORRECTION_QUEUED:
      return decodeWith(QueuedPayload, (p): PersonaOp => ({ op: "queue", correction: p.correction }))(line.payload)
    case CORRECTION_RESOLVED:
      return decodeWith(ResolvedPayload, (p): PersonaOp => ({ op: "resolve", ids: p.correction_ids }))(line.payload)
    case CORRECTION_ATTEMPTED:
      return decodeWith(AttemptedPayload, (p): PersonaOp => ({ op: "attempts", counts: p.attempts }))(line.payload)
    case PERSONA_FORGOTTEN:
      return decodeWith(
        ForgottenPayload,
        (p): PersonaOp => ({
          op: "forget",
          ids: p.entry_ids,
          corrections: p.correction_ids,
          sections: p.sections ?? []
        })
      )(line.payload)
    default:
      return Either.left(`no handler for event type ${line.type}`)
  }
}
