/**
 * Promotion of a group-chat reflection into its subject's `@subject/<kind>:<id>` persona section (neko-compat
 * §1.7, §4.6): always time-driven, whatever the powerful-memory switch says, and never into a private section.
 * The persona add goes first through the journal, the reflection's `promotion.fresh` after it; a crash between
 * the two leaves an entry whose `source_id` (or `merged_source_ids`, after a merge) names the reflection, so
 * the next pass finds the promotion already applied and only finishes the reflection — the same text is never
 * added twice nor queued as a correction against itself. A character-card clash denies it
 * (`rejected_by_persona_card_time_driven`); a clash with one of the subject's own entries queues a correction
 * stamped with the subject, and the reflection waits.
 */
import { Clock, Effect } from "effect"
import type { ReflectionEvent } from "../../machines/reflection.js"
import { personaSectionKey, stampedWith, type MemorySubject } from "../domain/Subject.js"
import { localIso } from "../domain/LocalTime.js"
import type { Reflection } from "../reflection/Reflection.js"
import { moveReflection } from "../reflection/ReflectionTransitions.js"
import type { Tunables } from "../Tunables.js"
import { entriesOf, type PersonaEntry, type PersonaFile } from "./Persona.js"
import type { PersonaHost } from "./PersonaHost.js"
import type * as PersonaKeeper from "./PersonaKeeper.js"

export const CARD_REJECTION = "rejected_by_persona_card_time_driven"

const sources = (e: PersonaEntry): ReadonlyArray<unknown> => {
  const merged = e["merged_source_ids"]
  return [e.source_id, ...(Array.isArray(merged) ? merged : [])]
}

/** Whether `persona` already holds an entry of `subject` that came from reflection `id`. */
export const alreadyPromoted = (persona: PersonaFile, id: string, subject: MemorySubject): boolean => {
  const mine = stampedWith([subject])
  return entriesOf(persona).some(({ entry }) => mine(entry) && sources(entry).includes(id))
}

export const make = (deps: {
  readonly tunables: Tunables
  readonly keeper: Effect.Effect.Success<ReturnType<typeof PersonaKeeper.make>>
}) => {
  const { keeper, tunables: t } = deps

  const move = (state: PersonaHost, r: Reflection, event: ReflectionEvent) =>
    Effect.gen(function* () {
      const m = moveReflection(r, event, t, localIso(yield* Clock.currentTimeMillis))
      if (m.to === r.status) return r.status
      yield* state.journal(m.lines)
      return m.to
    })

  /** The time-driven promotion of confirmed reflection `r` of `subject`; returns its status afterwards. */
  const timeDriven = (state: PersonaHost, r: Reflection, subject: MemorySubject) =>
    Effect.gen(function* () {
      const persona = yield* keeper.ensure(state)
      if (alreadyPromoted(persona, r.id, subject)) return yield* move(state, r, { type: "promotion.fresh" })
      const result = yield* keeper.add(
        state,
        persona,
        personaSectionKey(subject),
        { id: `prom_${r.id}`, text: r.text, source: "reflection_time_driven", sourceId: r.id },
        subject
      )
      if (result._tag === "Added") return yield* move(state, r, { type: "promotion.fresh" })
      if (result._tag === "CardConflict")
        return yield* move(state, r, { type: "promotion.rejected", reason: CARD_REJECTION })
      return r.status
    })

  return { timeDriven }
}
