/**
 * The fact journal events: `fact.added` and `fact.updated` (the whole record, upserted by id), `fact.archived`
 * and `fact.merged` (moves into the archive), `fact.absorbed` (the facts a reflection consumed), `fact.forgotten`
 * (an operator's forget: the fact leaves facts.json for no archive, so recall no longer finds it).
 */
import { Schema } from "effect"
import type { EventLine } from "../store/EventLog.js"
import { Fact } from "./Fact.js"

export const FACT_ADDED = "fact.added"
export const FACT_UPDATED = "fact.updated"
export const FACT_ARCHIVED = "fact.archived"
export const FACT_MERGED = "fact.merged"
export const FACT_ABSORBED = "fact.absorbed"
export const FACT_FORGOTTEN = "fact.forgotten"

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
/** `fact.forgotten`: the whole forgotten record and why. */
export const FactForgottenPayload = Schema.Struct({ fact: Fact, reason: Schema.String })
export type FactForgottenPayload = typeof FactForgottenPayload.Type

export const decodeFact = Schema.decodeUnknownEither(FactPayload)
const encodeFact = Schema.encodeSync(FactPayload)
export const decodeMove = Schema.decodeUnknownEither(FactMovePayload)
const encodeMove = Schema.encodeSync(FactMovePayload)
export const decodeAbsorbed = Schema.decodeUnknownEither(FactAbsorbedPayload)
const encodeAbsorbed = Schema.encodeSync(FactAbsorbedPayload)
export const decodeForgotten = Schema.decodeUnknownEither(FactForgottenPayload)
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

export const factForgottenLine = (eventId: string, payload: FactForgottenPayload, ts: string): EventLine => ({
  event_id: eventId,
  type: FACT_FORGOTTEN,
  ts,
  payload: { ...encodeForgotten(payload) }
})
