/**
 * The recent-memory journal events: `turns.appended` (one per write request: rows for `time_indexed_original`,
 * items for `recent.json`, the `extract_facts` outbox op) and `recent.spliced` (a compression, hard cap, history
 * review or browser edit: the run of items it replaces, by position and fingerprint, and the items that take
 * their place). Each carries everything needed to apply it on its own.
 */
import { Clock, Effect, Schema } from "effect"
import { randomUUID } from "node:crypto"
import { localIso } from "../domain/LocalTime.js"
import type { CharacterHost } from "../runtime/CharacterHost.js"
import { StoredMessage } from "../domain/Message.js"
import type { EventLine } from "../store/EventLog.js"

export const TURNS_APPENDED = "turns.appended"
export const RECENT_SPLICED = "recent.spliced"

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

export const decodeTurns = Schema.decodeUnknownEither(TurnsPayload)
export const decodeSplice = Schema.decodeUnknownEither(SplicePayload)
const encodeSplice = Schema.encodeSync(SplicePayload)

/** The payload of each line `turnsLine` built, so the commit applying it does not decode what it just encoded. */
const built = new WeakMap<EventLine, TurnsPayload>()

/**
 * A turn's payload is its own encoded form (its schema transforms nothing; this stops compiling if it ever does),
 * so it goes into the line as built, without a run through the encoder on every turn.
 */
const encodedTurns = (payload: TurnsPayload): typeof TurnsPayload.Encoded => payload

export const turnsLine = (eventId: string, payload: TurnsPayload, ts: string): EventLine => {
  const line = { event_id: eventId, type: TURNS_APPENDED, ts, payload: encodedTurns(payload) }
  built.set(line, payload)
  return line
}

/** The payload a line was built from, when `turnsLine` built it in this process. */
export const builtTurns = (line: EventLine): TurnsPayload | undefined => built.get(line)

export const spliceLine = (eventId: string, payload: SplicePayload, ts: string): EventLine => ({
  event_id: eventId,
  type: RECENT_SPLICED,
  ts,
  payload: encodeSplice(payload)
})

/** Journals and applies one splice of the recent view; false (and the view untouched) when the journal failed. */
export const commitSplice = (host: CharacterHost, payload: SplicePayload) =>
  Effect.gen(function* () {
    const line = spliceLine(randomUUID(), payload, localIso(yield* Clock.currentTimeMillis))
    return yield* host.journal([line])
  }).pipe(
    Effect.catchAll((e) =>
      Effect.logError("recent splice not journaled; view untouched").pipe(
        Effect.annotateLogs({ error: e.message }),
        Effect.as(false)
      )
    )
  )
