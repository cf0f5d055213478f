/**
 * Forgetting a persona entry so that its text is gone, as Forget.ts does for facts. Inside the character's
 * mailbox: `persona.forgotten` (entry and correction ids, reason) is journaled and applied (the entry leaves
 * persona.json and the archive shards, the queued corrections quoting it leave persona_corrections.json), then
 * completed: every journal line carrying its text becomes a tombstone (persona/PersonaRedaction.ts), its
 * vector rows go and the checkpoint moves the sentinel past the forget. A crash before the checkpoint is
 * redone at load (`completeAtLoad`); every step is idempotent.
 */
import { Clock, Effect } from "effect"
import { randomUUID } from "node:crypto"
import { localIso } from "../domain/LocalTime.js"
import type { PersonaEntry } from "../persona/Persona.js"
import { forgottenLine } from "../persona/PersonaEvent.js"
import { carriedTexts, forgetsOf, quotes, redactLine } from "../persona/PersonaRedaction.js"
import type { EventLine } from "../store/EventLog.js"
import { erase, journalForget, type ForgetHost } from "./Forget.js"

const complete = (
  state: ForgetHost,
  ids: ReadonlySet<string>,
  corrections: ReadonlySet<string>,
  reason: string,
  at: string,
  entries: ReadonlyArray<PersonaEntry>
) =>
  Effect.gen(function* () {
    const texts = carriedTexts(yield* state.events.all, ids, entries)
    const rewritten = yield* erase(state, "persona", ids, redactLine(ids, corrections, texts, reason, at), texts)
    yield* state.checkpoint
    yield* Effect.logInfo("persona entries forgotten").pipe(
      Effect.annotateLogs({ entries: ids.size, lines: rewritten })
    )
  })

/** Forgets `entry` (active or archived) and the queued corrections that quote it. */
export const forgetPersona = (state: ForgetHost, entry: PersonaEntry, reason: string) =>
  forgetPersonaEntries(state, [entry], reason)

/** Forgets `entries` and the corrections quoting them in one journaled forget; `sections` are dropped whole. */
export const forgetPersonaEntries = (
  state: ForgetHost,
  entries: ReadonlyArray<PersonaEntry>,
  reason: string,
  sections: ReadonlyArray<string> = []
) =>
  Effect.gen(function* () {
    const ids = new Set(entries.map((e) => e.id))
    const texts = carriedTexts(yield* state.events.all, ids, entries)
    const queued = (yield* state.persona.loadCorrections).filter((c) => quotes(c, ids, texts))
    const corrections = queued.map((c) => c.correction_id)
    const at = localIso(yield* Clock.currentTimeMillis)
    const payload = {
      entry_ids: [...ids],
      correction_ids: corrections,
      reason,
      ...(sections.length > 0 ? { sections } : {})
    }
    yield* journalForget(state, forgottenLine(randomUUID(), payload, at))
    yield* complete(state, ids, new Set(corrections), reason, at, entries)
    return corrections.length
  })

/** Whether the journal holds a forget of persona entry `id`. */
export const wasPersonaForgotten = (lines: ReadonlyArray<EventLine>, id: string) =>
  forgetsOf(lines).some((p) => p.entry_ids.includes(id))

/** A repeated forget of `id`: the completion again (idempotent), nothing journaled. */
export const forgetPersonaAgain = (state: ForgetHost, id: string, reason: string) =>
  Effect.gen(function* () {
    const lines = yield* state.events.all
    const corrections = forgetsOf(lines).flatMap((p) => (p.entry_ids.includes(id) ? p.correction_ids : []))
    yield* complete(state, new Set([id]), new Set(corrections), reason, localIso(yield* Clock.currentTimeMillis), [])
  })

/** Completes again the persona forgets a replay applied (a crash came before their checkpoint). */
export const completeAtLoad = (state: ForgetHost, replayed: ReadonlyArray<EventLine>) =>
  Effect.forEach(
    forgetsOf(replayed),
    (p) =>
      Effect.flatMap(Clock.currentTimeMillis, (ms) =>
        complete(state, new Set(p.entry_ids), new Set(p.correction_ids), p.reason, localIso(ms), [])
      ),
    { discard: true }
  )
