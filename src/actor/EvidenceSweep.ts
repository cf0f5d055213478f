/**
 * The hourly evidence sweep (neko-compat §4.5, §2.4): every non-protected reflection (terminal rows
 * included) and persona entry scoring below zero gains at most one sub-zero day per calendar day (the
 * tally never resets); at 14 days the machines archive it into its shard. Promoted and denied reflections
 * leave for the archive 30 days after their terminal stamp. Archival is one journal event carrying the
 * whole record, applied before the shard append.
 */
import { Clock, Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { transition } from "xstate"
import { decodeReflectionCommand, reflectionMachine, type ReflectionEvent } from "../../machines/reflection.js"
import { localIso, parseLocal } from "../domain/LocalTime.js"
import { score, tallySubZero } from "../memory/evidence/Evidence.js"
import type { PersonaEntry } from "../memory/persona/Persona.js"
import type { Reflection } from "../memory/reflection/Reflection.js"
import type { EventLine } from "../store/EventLog.js"
import type { Tunables } from "../Tunables.js"
import * as State from "./CharacterState.js"
import { reflectionAt } from "./Machines.js"
import { entryLine, PERSONA_EVIDENCE_UPDATED, PERSONA_FACT_ADDED } from "./PersonaEvent.js"
import { personaStep } from "./PersonaKeeper.js"
import { reflectionLine, REFLECTION_UPDATED, stateChangedLine } from "./TurnEvent.js"

const DAY = 86_400_000

export const make = (deps: { readonly tunables: Tunables }) => {
  const t = deps.tunables

  const terminalAge = (r: Reflection, now: number) => {
    const stamp = r.status === "promoted" ? r["promoted_at"] : r.status === "denied" ? r["denied_at"] : undefined
    const at = [stamp, r.created_at]
      .map((v) => (typeof v === "string" ? parseLocal(v) : undefined))
      .find((v) => v !== undefined)
    return at === undefined ? 0 : (now - at) / DAY
  }

  /** Returns how many records changed. */
  const sweep = (state: State.CharacterState) =>
    Effect.gen(function* () {
      if (!State.exists(state)) return 0
      const now = yield* Clock.currentTimeMillis
      const ts = localIso(now)
      const today = ts.slice(0, 10)
      const lines: Array<EventLine> = []
      for (const r of yield* state.reflections.load) {
        const tallied: Reflection = { ...r, ...tallySubZero(r, score(r, now, t), today) }
        const archive = (event: ReflectionEvent) => {
          const [next, actions] = transition(reflectionMachine, reflectionAt(r.status, t), event)
          const command = actions
            .flatMap((a) => Option.toArray(decodeReflectionCommand(a)))
            .find((c) => c.type === "archive")
          return String(next.value) === "archived" && command?.type === "archive" ? command.params.reason : undefined
        }
        const reason =
          archive({ type: "sub_zero.checked", days: tallied.sub_zero_days }) ??
          (r.status === "promoted" || r.status === "denied"
            ? archive({ type: "retention.checked", daysSinceTerminal: terminalAge(r, now) })
            : undefined)
        if (reason !== undefined) {
          const snapshot: Reflection = { ...tallied, status: "archived", archived_at: ts, archive_reason: reason }
          lines.push(
            stateChangedLine(
              randomUUID(),
              {
                reflection_id: r.id,
                from: r.status,
                to: "archived",
                ts,
                archived_at: ts,
                reason,
                entry_snapshot: snapshot
              },
              ts
            )
          )
        } else if (tallied.sub_zero_days !== r.sub_zero_days) {
          lines.push(reflectionLine(randomUUID(), { reflection: tallied }, ts, REFLECTION_UPDATED))
        }
      }
      for (const [section, s] of Object.entries(yield* state.persona.load)) {
        for (const e of s.facts) {
          if (e.protected) continue
          const tallied: PersonaEntry = { ...e, ...tallySubZero(e, score(e, now, t), today) }
          const step = personaStep(tallied, { type: "sub_zero.checked", days: tallied.sub_zero_days }, t)
          if (step.commands.some((c) => c.type === "archive")) {
            lines.push(
              entryLine(randomUUID(), PERSONA_FACT_ADDED, section, tallied, ts, { source: e.source, archived_at: ts })
            )
          } else if (tallied.sub_zero_days !== e.sub_zero_days) {
            lines.push(entryLine(randomUUID(), PERSONA_EVIDENCE_UPDATED, section, tallied, ts, { source: "sub_zero" }))
          }
        }
      }
      yield* State.journal(state, lines)
      return lines.length
    })

  return { sweep }
}
