/**
 * Redaction tombstones, the journal side of "forgetting removes text, not just pointers": a journal line that
 * carried forgotten text is rewritten in place, keeping its `event_id`, `type` and `ts`, with a payload that
 * holds `redacted: {ids, reason, at}` (the forgotten record ids) plus only the fields that carry no forgotten
 * text. Each feature decides which of its lines a forget touches and what they keep; this module only owns the
 * shape and the journal rewrite, so any forget route (a fact, a scoped subject) uses the same machinery.
 */
import { Effect, Option, Schema } from "effect"
import type { EventLine, EventLog } from "./EventLog.js"

export const REDACTED = "redacted"

export const Redacted = Schema.Struct({ ids: Schema.Array(Schema.String), reason: Schema.String, at: Schema.String })
export type Redacted = typeof Redacted.Type
const decodeRedacted = Schema.decodeUnknownOption(Redacted)
const encodeRedacted = Schema.encodeSync(Redacted)

/** The tombstone's stamp when `line` is one (a payload with a decodable `redacted` field). */
export const tombstoneOf = (line: EventLine): Option.Option<Redacted> =>
  REDACTED in line.payload ? decodeRedacted(line.payload[REDACTED]) : Option.none()

/** `line` as a tombstone for `redacted`, keeping `keep` (fields without forgotten text). */
export const tombstone = (line: EventLine, redacted: Redacted, keep: Readonly<Record<string, unknown>> = {}) =>
  ({
    event_id: line.event_id,
    type: line.type,
    ts: line.ts,
    payload: { ...keep, [REDACTED]: encodeRedacted(redacted) }
  }) satisfies EventLine

/**
 * Rewrites the journal through `edit` (`Some` replaces a line, `None` keeps it), atomically; an unreadable
 * line (a torn write) that contains one of `texts` is dropped. Idempotent when `edit` leaves tombstones alone.
 */
export const redactJournal = (
  events: EventLog,
  edit: (line: EventLine) => Option.Option<EventLine>,
  texts: ReadonlyArray<string>
) =>
  events
    .rewrite(
      (line) => Option.orElse(edit(line), () => Option.some(line)),
      (raw) => texts.some((t) => t !== "" && (raw.includes(t) || raw.includes(JSON.stringify(t).slice(1, -1))))
    )
    .pipe(Effect.withSpan("Tombstone.redactJournal"))
