/**
 * kioku's recent-memory journal events, each carrying everything needed to apply it on its own:
 * `turns.appended` (one per write request: rows for `time_indexed_original`, items for `recent.json`, the
 * `extract_facts` outbox op) and `recent.spliced` (a compression, hard cap, history review or browser edit: the run of
 * items it replaces, by position and fingerprint, and the items that take their place), `fact.added` and
 * `fact.updated` (the whole fact record, upserted by id).
 */
import { Either, Schema } from "effect"
import { StoredMessage } from "../domain/Message.js"
import { Fact } from "../facts/Fact.js"
import { Reflection } from "../reflection/Reflection.js"
import type { EventLine } from "../store/EventLog.js"
import type { PersonaOp } from "../persona/PersonaStore.js"
import { personaOp, personaTypes } from "../persona/PersonaEvent.js"

export const TURNS_APPENDED = "turns.appended"
export const RECENT_SPLICED = "recent.spliced"
export const FACT_ADDED = "fact.added"
export const FACT_UPDATED = "fact.updated"
export const FACT_ARCHIVED = "fact.archived"
export const FACT_MERGED = "fact.merged"
export const FACT_ABSORBED = "fact.absorbed"
export const REFLECTION_SYNTHESIZED = "reflection.synthesized"
export const REFLECTION_STATE_CHANGED = "reflection.state_changed"
export const REFLECTION_UPDATED = "reflection.updated"

export const TurnsPayload = Schema.Struct({
  session_id: Schema.String,
  row_ts: Schema.String,
  kind: Schema.Literal("cache", "process", "renew", "settle"),
  messages: Schema.Array(StoredMessage),
  language: Schema.optional(Schema.NullOr(Schema.String)),
  extract: Schema.Boolean
})
export type TurnsPayload = typeof TurnsPayload.Type

export const SplicePayload = Schema.Struct({
  /** `edit`: a memory-browser save, replacing the whole file (the fingerprints name every item). */
  reason: Schema.Literal("compression", "hard_cap", "review", "edit"),
  /** Index of the first replaced item (0: the head). */
  at: Schema.optionalWith(Schema.Number, { default: () => 0 }),
  fingerprints: Schema.Array(Schema.String),
  items: Schema.Array(StoredMessage)
})
export type SplicePayload = typeof SplicePayload.Type

export const FactPayload = Schema.Struct({ fact: Fact })
export type FactPayload = typeof FactPayload.Type
/** `fact.archived`: the fact leaves facts.json for the archive. `fact.merged`: `kept` is upserted, `archived` archived. */
export const FactMovePayload = Schema.Struct({
  kept: Schema.optional(Fact),
  archived: Fact,
  reason: Schema.String
})
export type FactMovePayload = typeof FactMovePayload.Type

const decodeTurns = Schema.decodeUnknownEither(TurnsPayload)
const decodeFact = Schema.decodeUnknownEither(FactPayload)
const encodeFact = Schema.encodeSync(FactPayload)
/** `fact.absorbed`: the facts a reflection consumed (monotonic flag). */
export const FactAbsorbedPayload = Schema.Struct({
  fact_ids: Schema.Array(Schema.String),
  reflection_id: Schema.optional(Schema.String)
})
export type FactAbsorbedPayload = typeof FactAbsorbedPayload.Type
const decodeAbsorbed = Schema.decodeUnknownEither(FactAbsorbedPayload)
const encodeAbsorbed = Schema.encodeSync(FactAbsorbedPayload)
/** `reflection.synthesized`: the whole new reflection record. */
export const ReflectionPayload = Schema.Struct({ reflection: Reflection })
export type ReflectionPayload = typeof ReflectionPayload.Type
const decodeReflection = Schema.decodeUnknownEither(ReflectionPayload)
const encodeReflection = Schema.encodeSync(ReflectionPayload)
/** `reflection.state_changed`, N.E.K.O.'s payload, always with the whole new record (`entry_snapshot`). */
export const StateChangedPayload = Schema.Struct(
  {
    reflection_id: Schema.String,
    from: Schema.String,
    to: Schema.String,
    ts: Schema.optional(Schema.String),
    entry_snapshot: Reflection
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)
export type StateChangedPayload = typeof StateChangedPayload.Type
const decodeStateChanged = Schema.decodeUnknownEither(StateChangedPayload)
const encodeStateChanged = Schema.encodeSync(StateChangedPayload)
const decodeMove = Schema.decodeUnknownEither(FactMovePayload)
const encodeMove = Schema.encodeSync(FactMovePayload)
const decodeSplice = Schema.decodeUnknownEither(SplicePayload)
const encodeTurns = Schema.encodeSync(TurnsPayload)
const encodeSplice = Schema.encodeSync(SplicePayload)

export type JournalEvent =
  | { readonly _tag: "Turns"; readonly eventId: string; readonly payload: TurnsPayload }
  | { readonly _tag: "Splice"; readonly eventId: string; readonly payload: SplicePayload }
  | { readonly _tag: "Fact"; readonly eventId: string; readonly payload: FactPayload }
  | { readonly _tag: "FactMove"; readonly eventId: string; readonly payload: FactMovePayload }
  | { readonly _tag: "FactAbsorbed"; readonly eventId: string; readonly payload: FactAbsorbedPayload }
  | { readonly _tag: "ReflectionAdded"; readonly eventId: string; readonly payload: ReflectionPayload }
  | { readonly _tag: "ReflectionChanged"; readonly eventId: string; readonly payload: StateChangedPayload }
  | { readonly _tag: "Persona"; readonly eventId: string; readonly op: PersonaOp }

export type TurnEvent = Extract<JournalEvent, { _tag: "Turns" }>

export const turnsLine = (eventId: string, payload: TurnsPayload, ts: string): EventLine => ({
  event_id: eventId,
  type: TURNS_APPENDED,
  ts,
  payload: { ...encodeTurns(payload) }
})

export const spliceLine = (eventId: string, payload: SplicePayload, ts: string): EventLine => ({
  event_id: eventId,
  type: RECENT_SPLICED,
  ts,
  payload: { ...encodeSplice(payload) }
})

export const factLine = (
  eventId: string,
  type: typeof FACT_ADDED | typeof FACT_UPDATED,
  fact: Fact,
  ts: string
): EventLine => ({
  event_id: eventId,
  type,
  ts,
  payload: { ...encodeFact({ fact }) }
})

export const factMoveLine = (
  eventId: string,
  type: typeof FACT_ARCHIVED | typeof FACT_MERGED,
  payload: FactMovePayload,
  ts: string
): EventLine => ({ event_id: eventId, type, ts, payload: { ...encodeMove(payload) } })

export const factAbsorbedLine = (eventId: string, payload: FactAbsorbedPayload, ts: string): EventLine => ({
  event_id: eventId,
  type: FACT_ABSORBED,
  ts,
  payload: { ...encodeAbsorbed(payload) }
})

export const reflectionLine = (
  eventId: string,
  payload: ReflectionPayload,
  ts: string,
  type: typeof REFLECTION_SYNTHESIZED | typeof REFLECTION_UPDATED = REFLECTION_SYNTHESIZED
): EventLine => ({
  event_id: eventId,
  type,
  ts,
  payload: { ...encodeReflection(payload) }
})

export const stateChangedLine = (eventId: string, payload: StateChangedPayload, ts: string): EventLine => ({
  event_id: eventId,
  type: REFLECTION_STATE_CHANGED,
  ts,
  payload: { ...encodeStateChanged(payload) }
})

export const fromLine = (line: EventLine): Either.Either<JournalEvent, string> => {
  const bad = () => "payload does not decode"
  if (line.type === TURNS_APPENDED) {
    return Either.mapBoth(decodeTurns(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "Turns" as const, eventId: line.event_id, payload })
    })
  }
  if (line.type === RECENT_SPLICED) {
    return Either.mapBoth(decodeSplice(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "Splice" as const, eventId: line.event_id, payload })
    })
  }
  if (line.type === FACT_ADDED || line.type === FACT_UPDATED) {
    return Either.mapBoth(decodeFact(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "Fact" as const, eventId: line.event_id, payload })
    })
  }
  if (line.type === FACT_ARCHIVED || line.type === FACT_MERGED) {
    return Either.mapBoth(decodeMove(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "FactMove" as const, eventId: line.event_id, payload })
    })
  }
  if (line.type === REFLECTION_STATE_CHANGED) {
    return Either.mapBoth(decodeStateChanged(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "ReflectionChanged" as const, eventId: line.event_id, payload })
    })
  }
  if (line.type === REFLECTION_SYNTHESIZED || line.type === REFLECTION_UPDATED) {
    return Either.mapBoth(decodeReflection(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "ReflectionAdded" as const, eventId: line.event_id, payload })
    })
  }
  if (line.type === FACT_ABSORBED) {
    return Either.mapBoth(decodeAbsorbed(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "FactAbsorbed" as const, eventId: line.event_id, payload })
    })
  }
  if (personaTypes.has(line.type)) {
    return Either.map(personaOp(line), (op) => ({ _tag: "Persona" as const, eventId: line.event_id, op }))
  }
  return Either.left(`no handler for event type ${line.type}`)
}
