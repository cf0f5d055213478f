/**
 * An operator's decisions from the memory browser, events of the lifecycle machines like every other
 * transition: a reflection can be confirmed, denied or archived where its machine allows it; a
 * non-protected persona entry can be archived (its text kept) or forgotten (PersonaForget.ts: its text leaves
 * every file; a character-card entry is refused as `protected`, the card would bring it back); a fact can be
 * forgotten. Each is applied and journaled by
 * ReflectionTransitions.ts or PersonaTransitions.ts as one event carrying the whole record (archival moves it
 * into its shard). A fact, active or archived, can be forgotten (Forget.ts: its text leaves every file of the
 * character, the journal included); forgetting it again completes the redaction again and answers the same.
 * Returns the new state, or why nothing changed.
 */
import { Clock, Effect } from "effect"
import { localIso } from "../domain/LocalTime.js"
import type { PersonaEntry } from "../persona/Persona.js"
import { correctionsOf, personaState } from "../persona/PersonaState.js"
import type { Tunables } from "../Tunables.js"
import * as State from "./CharacterState.js"
import { forgetAgain, forgetFact, wasForgotten } from "./Forget.js"
import { forgetPersona, forgetPersonaAgain, wasPersonaForgotten } from "./PersonaForget.js"
import { movePersona } from "../persona/PersonaTransitions.js"
import { moveReflection } from "../reflection/ReflectionTransitions.js"

export type ManualAction = "confirm" | "deny" | "archive" | "forget"
export type ManualKind = "reflection" | "persona" | "fact"

export type ManualResult =
  | { readonly _tag: "Changed"; readonly status: string }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "NotAllowed"; readonly status: string }

export const make = (t: Tunables) => {
  const reflection = (state: State.CharacterState, id: string, action: ManualAction) =>
    Effect.gen(function* () {
      const r = (yield* state.reflections.loadAll).find((x) => x.id === id)
      if (r === undefined) return { _tag: "NotFound" } satisfies ManualResult
      if (action === "forget") return { _tag: "NotAllowed", status: r.status } satisfies ManualResult
      const ts = localIso(yield* Clock.currentTimeMillis)
      const move = moveReflection(r, { type: "manual", action }, t, ts, { payload: { reason: "manual" } })
      if (move.to === r.status) return { _tag: "NotAllowed", status: r.status } satisfies ManualResult
      yield* state.journal(move.lines)
      return { _tag: "Changed", status: move.to } satisfies ManualResult
    })

  const persona = (state: State.CharacterState, id: string, action: ManualAction) =>
    Effect.gen(function* () {
      const found = Object.entries(yield* state.persona.load).flatMap(([section, s]) =>
        s.facts.filter((e) => e.id === id).map((entry) => ({ section, entry, entries: s.facts }))
      )[0]
      if (action === "forget") return yield* forgetEntry(state, id, found?.entry)
      if (found === undefined) return { _tag: "NotFound" } satisfies ManualResult
      const queued = correctionsOf(found.entry, found.section, found.entries, yield* state.persona.loadCorrections)
      const from = personaState(found.entry, queued)
      if (action !== "archive") return { _tag: "NotAllowed", status: from } satisfies ManualResult
      const ts = localIso(yield* Clock.currentTimeMillis)
      const move = movePersona(found.section, found.entry, queued, { type: "archive.requested" }, t, ts, {
        source: found.entry.source
      })
      if (move.to !== "archived") return { _tag: "NotAllowed", status: from } satisfies ManualResult
      yield* state.journal(move.lines)
      return { _tag: "Changed", status: "archived" } satisfies ManualResult
    })

  /** Forget: a card (protected) entry is refused, an archived one is forgotten too, a forgotten one again. */
  const forgetEntry = (state: State.CharacterState, id: string, active: PersonaEntry | undefined) =>
    Effect.gen(function* () {
      const entry = active ?? (yield* state.persona.archive.all).find((e) => e.id === id)
      if (entry === undefined) {
        if (!wasPersonaForgotten(yield* state.events.all, id)) return { _tag: "NotFound" } satisfies ManualResult
        yield* forgetPersonaAgain(state, id, "manual")
        return { _tag: "Changed", status: "forgotten" } satisfies ManualResult
      }
      if (entry.protected || entry.source === "character_card") {
        return { _tag: "NotAllowed", status: "protected" } satisfies ManualResult
      }
      yield* forgetPersona(state, entry, "manual")
      return { _tag: "Changed", status: "forgotten" } satisfies ManualResult
    })

  const fact = (state: State.CharacterState, id: string, action: ManualAction) =>
    Effect.gen(function* () {
      const active = (yield* state.facts.load).all.some((f) => f.id === id)
      const archived = !active && (yield* state.archive.all).some((f) => f.id === id)
      if (!active && !archived) {
        if (action !== "forget" || !wasForgotten(yield* state.events.all, id)) return { _tag: "NotFound" } as const
        yield* forgetAgain(state, id, "manual")
        return { _tag: "Changed", status: "forgotten" } satisfies ManualResult
      }
      if (action !== "forget") return { _tag: "NotAllowed", status: active ? "active" : "archived" } as const
      yield* forgetFact(state, id, "manual")
      return { _tag: "Changed", status: "forgotten" } satisfies ManualResult
    })

  const act = (state: State.CharacterState, kind: ManualKind, id: string, action: ManualAction) =>
    kind === "reflection"
      ? reflection(state, id, action)
      : kind === "persona"
        ? persona(state, id, action)
        : fact(state, id, action)

  return { act }
}
