/**
 * Which persona journal lines a forget touches, and their tombstones (store/Tombstone.ts), beside
 * facts/FactRedaction.ts. Every `persona.fact_added` / `persona.entry_updated` / `persona.evidence_updated`
 * line of a forgotten entry becomes a bare tombstone, and so does every `correction.queued` line whose
 * correction the forget took or that quotes the entry (its `old_id`, or one of its texts as old or new text).
 * `persona.entry_removed`, `correction.resolved` / `correction.attempted` and `persona.forgotten` lines hold
 * ids only and stay. Character-card entries are never forgotten (the card is their source), so
 * `persona.card_synced` lines are left alone.
 */
import { Either, Option, Schema } from "effect"
import type { EventLine } from "../store/EventLog.js"
import { tombstone, tombstoneOf } from "../store/Tombstone.js"
import { Correction, type PersonaEntry } from "./Persona.js"
import {
  CORRECTION_QUEUED,
  decodeForgotten,
  PERSONA_ENTRY_UPDATED,
  PERSONA_EVIDENCE_UPDATED,
  PERSONA_FACT_ADDED,
  PERSONA_FORGOTTEN,
  type ForgottenPayload
} from "./PersonaEvent.js"

const entryTypes = new Set([PERSONA_FACT_ADDED, PERSONA_ENTRY_UPDATED, PERSONA_EVIDENCE_UPDATED])
const EntryRef = Schema.Struct({ entry_id: Schema.String, entry_snapshot: Schema.optional(Schema.Unknown) })
const decodeRef = Schema.decodeUnknownOption(EntryRef)
const decodeQueued = Schema.decodeUnknownOption(Schema.Struct({ correction: Correction }))
const TextOf = Schema.Struct({ text: Schema.String })
const decodeText = Schema.decodeUnknownOption(TextOf)
const decodeHistory = Schema.decodeUnknownOption(
  Schema.Struct({
    text: Schema.optional(Schema.String),
    version_history: Schema.optional(Schema.Array(Schema.Unknown))
  })
)

/** Every text (each version and its history) of an entry snapshot. */
const snapshotTexts = (snapshot: unknown): ReadonlyArray<string> =>
  Option.match(decodeHistory(snapshot), {
    onNone: () => [],
    onSome: (s) => [
      ...(s.text === undefined ? [] : [s.text]),
      ...(s.version_history ?? []).flatMap((v) => Option.toArray(Option.map(decodeText(v), (t) => t.text)))
    ]
  })

/** The texts of `entries` plus every version of `ids` the journal still carries, for the stray-text search. */
export const carriedTexts = (
  lines: ReadonlyArray<EventLine>,
  ids: ReadonlySet<string>,
  entries: ReadonlyArray<PersonaEntry>
): ReadonlyArray<string> => {
  const out = new Set(entries.flatMap(snapshotTexts))
  for (const l of lines) {
    if (!entryTypes.has(l.type) || Option.isSome(tombstoneOf(l))) continue
    const ref = decodeRef(l.payload)
    if (Option.isSome(ref) && ids.has(ref.value.entry_id))
      for (const t of snapshotTexts(ref.value.entry_snapshot)) out.add(t)
  }
  out.delete("")
  return [...out]
}

/** Whether `c` quotes one of the forgotten entries `ids` (whose texts are `texts`). */
export const quotes = (c: Correction, ids: ReadonlySet<string>, texts: ReadonlyArray<string>) =>
  (c.old_id !== null && ids.has(c.old_id)) || texts.includes(c.old_text) || texts.includes(c.new_text)

/** The tombstone of `line` when it carries a forgotten entry or correction; `None` leaves it as it is. */
export const redactLine =
  (
    ids: ReadonlySet<string>,
    corrections: ReadonlySet<string>,
    texts: ReadonlyArray<string>,
    reason: string,
    at: string
  ) =>
  (line: EventLine): Option.Option<EventLine> => {
    if (Option.isSome(tombstoneOf(line))) return Option.none()
    if (entryTypes.has(line.type)) {
      return decodeRef(line.payload).pipe(
        Option.filter((r) => ids.has(r.entry_id)),
        Option.map((r) => tombstone(line, { ids: [r.entry_id], reason, at }))
      )
    }
    if (line.type === CORRECTION_QUEUED) {
      return decodeQueued(line.payload).pipe(
        Option.filter((p) => corrections.has(p.correction.correction_id) || quotes(p.correction, ids, texts)),
        Option.map((p) => tombstone(line, { ids: [p.correction.correction_id], reason, at }))
      )
    }
    return Option.none()
  }

/** The persona forgets `lines` hold. */
export const forgetsOf = (lines: ReadonlyArray<EventLine>): ReadonlyArray<ForgottenPayload> =>
  lines.flatMap((l) =>
    l.type === PERSONA_FORGOTTEN ? Either.getRight(decodeForgotten(l.payload)).pipe(Option.toArray) : []
  )
