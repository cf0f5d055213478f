/**
 * The lifecycle state of a stored persona entry (machines/persona.ts), derived in this one place for the
 * actor and the state-chart page alike: `corrected` while a queued correction targets it, else `suppressed`
 * while its `suppress` flag is set, else `active` (archived entries live in `persona_archive/`). A correction
 * targets the entry named by its `old_id`, or — when it has none, or that entry is gone — the entry of its
 * section with its `old_text`.
 */
import type { Correction, PersonaEntry } from "./Persona.js"

export type PersonaState = "active" | "suppressed" | "corrected"

/** The entry of `entries` (one section) that `c` corrects, if any. */
export const correctionTarget = (c: Correction, entries: ReadonlyArray<PersonaEntry>): PersonaEntry | undefined =>
  (c.old_id !== null ? entries.find((e) => e.id === c.old_id) : undefined) ?? entries.find((e) => e.text === c.old_text)

/** The corrections of `queue` that target `entry` of `section` (whose entries are `entries`). */
export const correctionsOf = (
  entry: PersonaEntry,
  section: string,
  entries: ReadonlyArray<PersonaEntry>,
  queue: ReadonlyArray<Correction>
): ReadonlyArray<Correction> =>
  queue.filter((c) => c.entity === section && correctionTarget(c, entries)?.id === entry.id)

export const personaState = (entry: PersonaEntry, queued: ReadonlyArray<Correction>): PersonaState =>
  queued.length > 0 ? "corrected" : entry.suppress ? "suppressed" : "active"
