/**
 * An operator's decisions from the memory browser, interpreted through the lifecycle machines like every
 * other transition: a reflection can be confirmed, denied or archived where its machine allows it; a
 * non-protected persona entry can be archived. Each is one journal event carrying the whole record
 * (archival moves it into its shard). Returns the new state, or why nothing changed.
 */
import { Clock, Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { transition } from "xstate"
import { decodeReflectionCommand, reflectionMachine } from "../../machines/reflection.js"
import { localIso } from "../domain/LocalTime.js"
import type { Reflection } from "../memory/reflection/Reflection.js"
import type { Tunables } from "../Tunables.js"
import * as State from "./CharacterState.js"
import { reflectionAt } from "./Machines.js"
import { entryLine, PERSONA_FACT_ADDED } from "./PersonaEvent.js"
import { personaStep } from "./PersonaKeeper.js"
import { stateChangedLine } from "./TurnEvent.js"

export type ManualAction = "confirm" | "deny" | "archive"

export type ManualResult =
  | { readonly _tag: "Changed"; readonly status: string }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "NotAllowed"; readonly status: string }

export const make = (t: Tunables) => {
  const reflection = (state: State.CharacterState, id: string, action: ManualAction) =>
    Effect.gen(function* () {
      const r = (yield* state.reflections.load).find((x) => x.id === id)
      if (r === undefined) return { _tag: "NotFound" } satisfies ManualResult
      const [next, actions] = transition(reflectionMachine, reflectionAt(r.status, t), { type: "manual", action })
      const to = String(next.value)
      if (to === r.status) return { _tag: "NotAllowed", status: r.status } satisfies ManualResult
      const ts = localIso(yield* Clock.currentTimeMillis)
      let updated: Reflection = { ...r, status: to }
      for (const c of actions.flatMap((a) => Option.toArray(decodeReflectionCommand(a)))) {
        if (c.type === "markConfirmed") updated = { ...updated, confirmed_at: ts, auto_confirmed: false }
        else if (c.type === "markDenied") updated = { ...updated, denied_at: ts, denied_reason: c.params.reason }
        else if (c.type === "archive") updated = { ...updated, archived_at: ts, archive_reason: c.params.reason }
      }
      const payload = { reflection_id: r.id, from: r.status, to, ts, reason: "manual", entry_snapshot: updated }
      yield* State.journal(state, [
        stateChangedLine(randomUUID(), to === "archived" ? { ...payload, archived_at: ts } : payload, ts)
      ])
      return { _tag: "Changed", status: to } satisfies ManualResult
    })

  const persona = (state: State.CharacterState, id: string, action: ManualAction) =>
    Effect.gen(function* () {
      const found = Object.entries(yield* state.persona.load).flatMap(([section, s]) =>
        s.facts.filter((e) => e.id === id).map((entry) => ({ section, entry }))
      )[0]
      if (found === undefined) return { _tag: "NotFound" } satisfies ManualResult
      const current = found.entry.suppress ? "suppressed" : "active"
      const step = personaStep(found.entry, { type: "archive.requested" }, t)
      if (action !== "archive" || !step.commands.some((c) => c.type === "archive")) {
        return { _tag: "NotAllowed", status: current } satisfies ManualResult
      }
      const ts = localIso(yield* Clock.currentTimeMillis)
      yield* State.journal(state, [
        entryLine(randomUUID(), PERSONA_FACT_ADDED, found.section, found.entry, ts, {
          source: found.entry.source,
          archived_at: ts
        })
      ])
      return { _tag: "Changed", status: "archived" } satisfies ManualResult
    })

  const act = (state: State.CharacterState, kind: "reflection" | "persona", id: string, action: ManualAction) =>
    kind === "reflection" ? reflection(state, id, action) : persona(state, id, action)

  return { act }
}
