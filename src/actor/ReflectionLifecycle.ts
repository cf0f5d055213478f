/**
 * Evaluates each live reflection against its lifecycle machine (neko-compat §4.6): the evidence score (read
 * time decay), ages and the powerful-memory switch go in as one `evidence.evaluated` event; a transition
 * the machine allows is journaled as `reflection.state_changed` carrying the whole new record, then applied.
 * A promotion the machine asks for (score-driven or time-driven) is carried out by Promotion.ts. The
 * hourly sweep tallies sub-zero days of reflections and persona entries and archives those at 14 days,
 * and archives promoted/denied reflections 30 days after their terminal stamp.
 */
import { Clock, Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { transition } from "xstate"
import { decodeReflectionCommand, reflectionMachine } from "../../machines/reflection.js"
import { localIso, parseLocal } from "../domain/LocalTime.js"
import { score } from "../memory/evidence/Evidence.js"
import type { Reflection } from "../memory/reflection/Reflection.js"
import { AppFiles } from "../store/AppFiles.js"
import type { Tunables } from "../Tunables.js"
import * as State from "./CharacterState.js"
import { reflectionAt } from "./Machines.js"
import type * as Promotion from "./Promotion.js"
import { reflectionLine, REFLECTION_UPDATED, stateChangedLine } from "./TurnEvent.js"

const DAY = 86_400_000
const live = new Set(["pending", "confirmed"])

export const make = (deps: {
  readonly tunables: Tunables
  readonly promotion: Effect.Effect.Success<ReturnType<typeof Promotion.make>>
}) =>
  Effect.gen(function* () {
    const files = yield* AppFiles
    const t = deps.tunables

    const daysSince = (iso: unknown, now: number) => {
      const at = typeof iso === "string" ? parseLocal(iso) : undefined
      return at === undefined ? 0 : (now - at) / DAY
    }

    /** Runs every live reflection through the machine; returns how many changed state. */
    const evaluate = (state: State.CharacterState) =>
      Effect.gen(function* () {
        const powerful = (yield* files.core).powerful_memory_enabled
        const now = yield* Clock.currentTimeMillis
        const ts = localIso(now)
        const lines = []
        const promote: Array<{ readonly id: string; readonly mode: "score" | "time" }> = []
        for (const r of yield* state.reflections.load) {
          if (!live.has(r.status)) continue
          const snapshot = reflectionAt(r.status, t)
          const lastAttempt = r.last_promote_attempt_at === null ? undefined : parseLocal(r.last_promote_attempt_at)
          const [next, actions] = transition(reflectionMachine, snapshot, {
            type: "evidence.evaluated",
            score: score(r, now, t),
            powerful,
            daysSinceCreated: daysSince(r.created_at, now),
            daysSinceConfirmed: daysSince(r["confirmed_at"], now),
            minutesSincePromoteAttempt: lastAttempt === undefined ? null : (now - lastAttempt) / 60_000,
            promoteAttempts: r.promote_attempt_count
          })
          let updated: Reflection = r
          for (const action of actions.flatMap((a) => Option.toArray(decodeReflectionCommand(a)))) {
            if (action.type === "markConfirmed") {
              updated = { ...updated, status: "confirmed", confirmed_at: ts, auto_confirmed: action.params.auto }
            } else if (action.type === "requestPromotion") {
              promote.push({ id: r.id, mode: "score" })
            } else if (action.type === "promoteTimeDriven") {
              promote.push({ id: r.id, mode: "time" })
            } else if (action.type === "markBlocked") {
              updated = {
                ...updated,
                status: "promote_blocked",
                promote_blocked_at: ts,
                promote_blocked_reason: action.params.reason
              }
            }
          }
          const to = String(next.value)
          if (to !== r.status && updated !== r) {
            lines.push(
              stateChangedLine(
                randomUUID(),
                { reflection_id: r.id, from: r.status, to, ts, entry_snapshot: updated },
                ts
              )
            )
          }
        }
        yield* State.journal(state, lines)
        let changed = lines.length
        for (const { id, mode } of promote) {
          const r = (yield* state.reflections.load).find((x) => x.id === id)
          if (r === undefined || r.status !== "confirmed") continue
          const to = yield* mode === "score"
            ? deps.promotion.scoreDriven(state, r)
            : deps.promotion.timeDriven(state, r)
          if (to !== "confirmed") changed++
        }
        return changed
      })

    /**
     * Powerful memory ON→OFF: every confirmed reflection's `confirmed_at` restarts now, so the time-driven
     * path does not promote them all at once. Returns how many were reset.
     */
    const resetConfirmedAt = (state: State.CharacterState) =>
      Effect.gen(function* () {
        const ts = localIso(yield* Clock.currentTimeMillis)
        const lines = (yield* state.reflections.load)
          .filter((r) => r.status === "confirmed")
          .map((r) => reflectionLine(randomUUID(), { reflection: { ...r, confirmed_at: ts } }, ts, REFLECTION_UPDATED))
        yield* State.journal(state, lines)
        return lines.length
      })

    return { evaluate, resetConfirmedAt }
  })
