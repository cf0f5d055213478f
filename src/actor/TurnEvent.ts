/**
 * The `turns.appended` journal event: one per write request, carrying everything needed to apply it on its
 * own (rows for `time_indexed_original`, items for `recent.json`, the `extract_facts` outbox op).
 */
import { Either, Schema } from "effect"
import { StoredMessage } from "../domain/Message.js"
import type { EventLine } from "../store/EventLog.js"

export const TURNS_APPENDED = "turns.appended"

export const TurnsPayload = Schema.Struct({
  session_id: Schema.String,
  row_ts: Schema.String,
  kind: Schema.Literal("cache", "process", "renew", "settle"),
  messages: Schema.Array(StoredMessage),
  language: Schema.optional(Schema.NullOr(Schema.String)),
  extract: Schema.Boolean
})
export type TurnsPayload = typeof TurnsPayload.Type

const decodePayload = Schema.decodeUnknownEither(TurnsPayload)
const encodePayload = Schema.encodeSync(TurnsPayload)

export interface TurnEvent {
  readonly eventId: string
  readonly payload: TurnsPayload
}

export const toLine = (e: TurnEvent, ts: string): EventLine => ({
  event_id: e.eventId,
  type: TURNS_APPENDED,
  ts,
  payload: { ...encodePayload(e.payload) }
})

export const fromLine = (line: EventLine): Either.Either<TurnEvent, string> =>
  line.type !== TURNS_APPENDED
    ? Either.left(`no handler for event type ${line.type}`)
    : Either.mapBoth(decodePayload(line.payload), {
        onLeft: () => "payload does not decode",
        onRight: (payload) => ({ eventId: line.event_id, payload })
      })
