/**
 * The hourly evidence sweep (neko-compat §4.5, §2.4): every non-protected reflection (terminal rows and
 * group-chat rows included; rows with a partial subject stamp are left alone) and persona entry scoring below zero gains at most one sub-zero day per calendar day (the
 * tally never resets); at 14 days the machines archive it into its shard. Promoted and denied reflections
 * leave for the archive 30 days after their terminal stamp. Archival is one journal event carrying the
 * whole record (applied and journaled by ReflectionTransitions.ts / PersonaTransitions.ts), applied before
 * the shard append.
 */
import { Clock, Effect } from "effect"
import { randomUUID } from "node:crypto"
import { localIso, parseLocal } from "../../domain/LocalTime.js"
import { score, tallySubZero } from "./Evidence.js"
import type { PersonaEntry } from "../../persona/Persona.js"
import type { Reflection } from "../Reflection.js"
import type { EventLine } from "../../store/EventLog.js"
import type { Tunables } from "../../Tunables.js"
import { correctionsOf } from "../../persona/PersonaState.js"
import type { ReflectionHost } from "../ReflectionHost.js"
import { movePersona } from "../../persona/PersonaTransitions.js"
import { isLegacyPrivate, subjectOfRow } from "../../domain/Subject.js"
import { moveReflection } from "../ReflectionTransitions.js"
import { reflectionLine, REFLECTION_UPDATED } from "../ReflectionEvents.js"
import { withFields } from "../../domain/Shapes.js"

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
  const sweep = (state: ReflectionHost) =>
    Effect.gen(function* () {
      if (!state.exists()) return 0
      const now = yield* Clock.currentTimeMillis
      const ts = localIso(now)
      const today = ts.slice(0, 10)
      const lines: Array<EventLine> = []
      for (const r of yield* state.reflections.loadAll) {
        if (subjectOfRow(r) === undefined && !isLegacyPrivate(r)) continue
        const tallied: Reflection = withFields(r, tallySubZero(r, score(r, now, t), today))
        const subZero = moveReflection(r, { type: "sub_zero.checked", days: tallied.sub_zero_days }, t, ts, {
          base: tallied
        })
        const retained =
          subZero.to === r.status && (r.status === "promoted" || r.status === "denied")
            ? moveReflection(r, { type: "retention.checked", daysSinceTerminal: terminalAge(r, now) }, t, ts, {
                base: tallied
              })
            : subZero
        if (retained.to !== r.status) {
          lines.push(...retained.lines)
        } else if (tallied.sub_zero_days !== r.sub_zero_days) {
          lines.push(reflectionLine(randomUUID(), { reflection: tallied }, ts, REFLECTION_UPDATED))
        }
      }
      const queue = yield* state.persona.loadCorrections
      for (const [section, s] of Object.entries(yield* state.persona.load)) {
        for (const e of s.facts) {
          if (e.protected) continue
          const tallied: PersonaEntry = withFields(e, tallySubZero(e, score(e, now, t), today))
          const move = movePersona(
            section,
            e,
            correctionsOf(e, section, s.facts, queue),
            { type: "sub_zero.checked", days: tallied.sub_zero_days },
            t,
            ts,
            { base: tallied, source: "sub_zero", always: tallied.sub_zero_days !== e.sub_zero_days }
          )
          lines.push(...move.lines)
        }
      }
      yield* state.journal(lines)
      return lines.length
    })

  return { sweep }
}
