/**
 * The reflection journal events: `reflection.synthesized` and `reflection.updated` (the whole record) and
 * `reflection.state_changed` (N.E.K.O.'s payload with the whole new record); `reflection.forgotten` (ids only).
 */
import { Schema } from "effect"
import type { EventLine } from "../store/EventLog.js"
import { Reflection } from "./Reflection.js"

export const REFLECTION_SYNTHESIZED = "reflection.synthesized"
export const REFLECTION_STATE_CHANGED = "reflection.state_changed"
export const REFLECTION_UPDATED = "reflection.updated"

/** `reflection.synthesized`: the whole new reflection record. */
export const ReflectionPayload = Schema.Struct({ reflection: Reflection })
export type ReflectionPayload = typeof ReflectionPayload.Type
export const decodeReflection = Schema.decodeUnknownEither(ReflectionPayload)
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
export const decodeStateChanged = Schema.decodeUnknownEither(StateChangedPayload)
const encodeStateChanged = Schema.encodeSync(StateChangedPayload)
export const reflectionLine = (
  eventId: string,
  payload: ReflectionPayload,
  ts: string,
  type: typeof REFLECTION_SYNTHESIZED | typeof REFLECTION_UPDATED = REFLECTION_SYNTHESIZED
): EventLine => ({
  event_id: eventId,
  type,
  ts,
  payload: encodeReflection(payload)
})

export const stateChangedLine = (eventId: string, payload: StateChangedPayload, ts: string): EventLine => ({
  event_id: eventId,
  type: REFLECTION_STATE_CHANGED,
  ts,
  payload: encodeStateChanged(payload)
})

/** `reflection.forgotten`: reflections an operator forgot (ids and a reason, never text); they leave every view. */
export const REFLECTION_FORGOTTEN = "reflection.forgotten"
export const ReflectionForgottenPayload = Schema.Struct({
  reflection_ids: Schema.Array(Schema.String),
  reason: Schema.String
})
export type ReflectionForgottenPayload = typeof ReflectionForgottenPayload.Type
export const decodeReflectionForgotten = Schema.decodeUnknownEither(ReflectionForgottenPayload)
export const reflectionForgottenLine = (
  eventId: string,
  payload: ReflectionForgottenPayload,
  ts: string
): EventLine => ({
  event_id: eventId,
  type: REFLECTION_FORGOTTEN,
  ts,
  payload: { reflection_ids: [...payload.reflection_ids], reason: payload.reason }
})
