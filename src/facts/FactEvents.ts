/**
 * The fact journal events: `fact.added` and `fact.updated` (the whole record, upserted by id), `fact.archived`
 * and `fact.merged` (moves into the archive), `fact.absorbed` (the facts a reflection consumed), `fact.forgotten`
 * (an operator's forget: ids and a reason, never text; the facts leave facts.json and the archive). A line
 * that carried a forgotten fact is a tombstone (store/Tombstone.ts, FactRedaction.ts): `fact.merged` may keep
 * its `kept` fact when only the archived one was forgotten.
 */
import { Either, Schema } from "effect"
import type { ParseError } from "effect/ParseResult"
import type { EventLine } from "../store/EventLog.js"
import { Redacted } from "../store/Tombstone.js"
import { Fact } from "./Fact.js"

export const FACT_ADDED = "fact.added"
export const FACT_UPDATED = "fact.updated"
export const FACT_ARCHIVED = "fact.archived"
export const FACT_MERGED = "fact.merged"
export const FACT_ABSORBED = "fact.absorbed"
export const FACT_FORGOTTEN = "fact.forgotten"
/** The fact events whose payloads carry fact text. */
export const FACT_TEXT_TYPES: ReadonlySet<string> = new Set([FACT_ADDED, FACT_UPDATED, FACT_ARCHIVED, FACT_MERGED])

export const FactPayload = Schema.Struct({ fact: Fact })
export type FactPayload = typeof FactPayload.Type
/** `fact.archived`: the fact leaves facts.json for the archive. `fact.merged`: `kept` is upserted, `archived` archived. */
export const FactMovePayload = Schema.Struct({
  kept: Schema.optional(Fact),
  archived: Fact,
  reason: Schema.String
})
export type FactMovePayload = typeof FactMovePayload.Type

/** `fact.absorbed`: the facts a reflection consumed (monotonic flag). */
export const FactAbsorbedPayload = Schema.Struct({
  fact_ids: Schema.Array(Schema.String),
  reflection_id: Schema.optional(Schema.String)
})
export type FactAbsorbedPayload = typeof FactAbsorbedPayload.Type
/** `fact.forgotten`: the forgotten ids and why (lines written before redaction carried the whole `fact`). */
export const FactForgottenPayload = Schema.Struct({ fact_ids: Schema.Array(Schema.String), reason: Schema.String })
export type FactForgottenPayload = typeof FactForgottenPayload.Type
const LegacyForgotten = Schema.Struct({ fact: Schema.Struct({ id: Schema.String }), reason: Schema.String })
/** A tombstoned fact line: the forgotten ids, and `kept` when a merge's surviving fact was not forgotten. */
export const FactRedactedPayload = Schema.Struct({ redacted: Redacted, kept: Schema.optional(Fact) })
export type FactRedactedPayload = typeof FactRedactedPayload.Type

export const decodeFact = Schema.decodeUnknownEither(FactPayload)
const encodeFact = Schema.encodeSync(FactPayload)
export const decodeMove = Schema.decodeUnknownEither(FactMovePayload)
const encodeMove = Schema.encodeSync(FactMovePayload)
export const decodeAbsorbed = Schema.decodeUnknownEither(FactAbsorbedPayload)
const encodeAbsorbed = Schema.encodeSync(FactAbsorbedPayload)
const decodeLegacyForgotten = Schema.decodeUnknownEither(LegacyForgotten)
export const decodeForgotten = (u: unknown): Either.Either<FactForgottenPayload, ParseError> =>
  Either.orElse(Schema.decodeUnknownEither(FactForgottenPayload)(u), () =>
    Either.map(decodeLegacyForgotten(u), (l) => ({ fact_ids: [l.fact.id], reason: l.reason }))
  )
export const decodeRedactedFact = Schema.decodeUnknownEither(FactRedactedPayload)
const encodeForgotten = Schema.encodeSync(FactForgottenPayload)

export const factLine = (
  eventId: string,
  type: typeof FACT_ADDED | typeof FACT_UPDATED,
  fact: Fact,
  ts: string
): EventLine => ({
  event_id: eventId,
  type,
  ts,
  payload: encodeFact({ fact })
})

export const factMoveLine = (
  eventId: string,
  type: typeof FACT_ARCHIVED | typeof FACT_MERGED,
  payload: FactMovePayload,
  ts: string
): EventLine => ({ event_id: eventId, type, ts, payload: encodeMove(payload) })

export const factAbsorbedLine = (eventId: string, payload: FactAbsorbedPayload, ts: string): EventLine => ({
  event_id: eventId,
  type: FACT_ABSORBED,
  ts,
  payload: encodeAbsorbed(payload)
})

export const factForgottenLine = (eventId: string, payload: FactForgottenPayload, ts: string): EventLine => ({
  event_id: eventId,
  type: FACT_FORGOTTEN,
  ts,
  payload: encodeForgotten(payload)
})
