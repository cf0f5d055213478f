/**
 * An operator's text edit from the memory browser, journaled like every other change: a fact becomes one
 * `fact.updated` event with the whole rewritten fact (its text hash follows the text, its id stays); a
 * persona entry becomes one `persona.entry_updated` event with the whole entry, its previous version pushed
 * onto `version_history` (the newest `persona_version_history_max` kept). Character-card (protected) entries
 * are read-only. Returns what changed, or why nothing did; nothing is written on a rejection.
 */
import { Clock, Effect } from "effect"
import { randomUUID } from "node:crypto"
import { localIso } from "../domain/LocalTime.js"
import { textHash } from "../facts/Fact.js"
import type { PersonaEntry } from "../persona/Persona.js"
import type { Tunables } from "../Tunables.js"
import * as State from "./CharacterState.js"
import { entryLine, PERSONA_ENTRY_UPDATED } from "../persona/PersonaEvent.js"
import { FACT_UPDATED, factLine } from "../facts/FactEvents.js"

export type EditKind = "fact" | "persona"

export type EditResult =
  | { readonly _tag: "Edited"; readonly id: string; readonly text: string }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "ReadOnly" }

export const make = (t: Tunables) => {
  const fact = (state: State.CharacterState, id: string, text: string) =>
    Effect.gen(function* () {
      const found = (yield* state.facts.load).all.find((f) => f.id === id)
      if (found === undefined) return { _tag: "NotFound" } satisfies EditResult
      if (found.text === text) return { _tag: "Edited", id, text } satisfies EditResult
      const ts = localIso(yield* Clock.currentTimeMillis)
      yield* state.journal([
        factLine(randomUUID(), FACT_UPDATED, { ...found, text, hash: textHash(text), edited_at: ts }, ts)
      ])
      return { _tag: "Edited", id, text } satisfies EditResult
    })

  const persona = (state: State.CharacterState, id: string, text: string) =>
    Effect.gen(function* () {
      const found = Object.entries(yield* state.persona.load).flatMap(([section, s]) =>
        s.facts.filter((e) => e.id === id).map((entry) => ({ section, entry }))
      )[0]
      if (found === undefined) return { _tag: "NotFound" } satisfies EditResult
      if (found.entry.protected) return { _tag: "ReadOnly" } satisfies EditResult
      if (found.entry.text === text) return { _tag: "Edited", id, text } satisfies EditResult
      const ts = localIso(yield* Clock.currentTimeMillis)
      const { version_history, ...snapshot } = found.entry
      const edited: PersonaEntry = {
        ...found.entry,
        text,
        version_history: [...version_history, { ...snapshot, replaced_at: ts }].slice(-t.persona_version_history_max)
      }
      yield* state.journal([
        entryLine(randomUUID(), PERSONA_ENTRY_UPDATED, found.section, edited, ts, { source: "manual_edit" })
      ])
      return { _tag: "Edited", id, text } satisfies EditResult
    })

  const edit = (state: State.CharacterState, kind: EditKind, id: string, text: string) =>
    kind === "fact" ? fact(state, id, text) : persona(state, id, text)

  return { edit }
}
