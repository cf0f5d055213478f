/**
 * The one place a persona entry's lifecycle fields change: an event goes through `machines/persona.ts` from
 * the entry's derived state (PersonaState.ts: corrected, suppressed or active, with its protection and the
 * configured thresholds), and the typed actions it emits are applied here — suppression
 * (`suppress`/`suppressed_at`), its lifting (mentions cleared too) and archival — each journaled with the
 * whole entry. The actions about the contradicting statement (queue a correction, reject it, or resolve a
 * queued one) are returned to the caller (PersonaKeeper.ts, Corrections.ts), which carries them out.
 */
import { Option } from "effect"
import { randomUUID } from "node:crypto"
import { transition } from "xstate"
import {
  decodePersonaCommand,
  personaMachine,
  type PersonaCommand,
  type PersonaEvent,
  type PersonaLimits
} from "../../machines/persona.js"
import type { Correction, PersonaEntry } from "./Persona.js"
import { personaState } from "./PersonaState.js"
import type { EventLine } from "../store/EventLog.js"
import type { Tunables } from "../Tunables.js"
import { memoPer } from "../domain/Memo.js"
import { entryLine, PERSONA_EVIDENCE_UPDATED, PERSONA_FACT_ADDED } from "./PersonaEvent.js"

const personaLimits = (t: Tunables): PersonaLimits => ({
  mentions: t.suppress_mention_limit,
  cooldownHours: t.suppress_cooldown_hours,
  archiveDays: t.evidence_archive_days
})

/**
 * The persona machine in a given state for an entry, with the configured thresholds as its context. Snapshots
 * are immutable and resolving one costs more than the transition: kept per tunables and state.
 */
const personaAt = memoPer(
  (at: { readonly value: string; readonly isProtected: boolean }) => `${at.isProtected ? "p" : "-"}${at.value}`,
  (t: Tunables, at) =>
    personaMachine.resolveState({ value: at.value, context: { protected: at.isProtected, limits: personaLimits(t) } }),
  64
)

export interface PersonaMove {
  readonly from: string
  readonly to: string
  readonly commands: ReadonlyArray<PersonaCommand>
  /** The entry after the machine's own changes (`base` when there were none). */
  readonly entry: PersonaEntry
  /** The journal lines of those changes. */
  readonly lines: ReadonlyArray<EventLine>
}

export interface PersonaMoveOptions {
  /** The entry to stamp, when the caller changed bookkeeping first (mentions, sub-zero tally). */
  readonly base?: PersonaEntry
  /** `source` of the journaled change. */
  readonly source: string
  /** Journal `base` even when the machine changed nothing (the caller's bookkeeping). */
  readonly always?: boolean
}

/**
 * Runs `event` through the persona machine for `entry` of `section`, whose queued corrections are `queued`,
 * and applies what it emits, stamped at `ts`.
 */
export const movePersona = (
  section: string,
  entry: PersonaEntry,
  queued: ReadonlyArray<Correction>,
  event: PersonaEvent,
  t: Tunables,
  ts: string,
  options: PersonaMoveOptions
): PersonaMove => {
  const from = personaState(entry, queued)
  const at = personaAt(t, { value: from, isProtected: entry.protected })
  // `can` evaluates the machine's own guards; `transition` would also build an inert actor, which costs more.
  const [next, actions] = at.can(event) ? transition(personaMachine, at, event) : [at, []]
  const commands = actions.flatMap((a) => Option.toArray(decodePersonaCommand(a)))
  const base = options.base ?? entry
  let updated: PersonaEntry = base
  let archived = false
  for (const c of commands) {
    if (c.type === "markSuppressed") updated = { ...updated, suppress: true, suppressed_at: ts }
    else if (c.type === "liftSuppression")
      updated = { ...updated, suppress: false, suppressed_at: null, recent_mentions: [] }
    else if (c.type === "archive") archived = true
  }
  const changed = updated !== base
  const lines = archived
    ? [entryLine(randomUUID(), PERSONA_FACT_ADDED, section, updated, ts, { source: entry.source, archived_at: ts })]
    : changed || options.always === true
      ? [entryLine(randomUUID(), PERSONA_EVIDENCE_UPDATED, section, updated, ts, { source: options.source })]
      : []
  return { from, to: String(next.value), commands, entry: updated, lines }
}
