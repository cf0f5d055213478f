/**
 * Evaluates each live reflection against its lifecycle machine (neko-compat §4.6): the evidence score (read
 * time decay), ages and the powerful-memory switch go in as one `evidence.evaluated` event; a transition
 * the machine allows is journaled as `reflection.state_changed` carrying the whole new record, then applied.
 * Promotion into persona is not wired yet: a reflection the machine would promote stays confirmed.
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
import { reflectionLine, REFLECTION_UPDATED, stateChangedLine } from "./TurnEvent.js"

const DAY = 86_400_000
const live = new Set(["pending", "confirmed"])

export const make = (deps: { readonly tunables: Tunables }) =>
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
        for (const r of yield* state.reflections.load) {
          if (!live.has(r.status)) continue
          const snapshot = reflectionMachine.resolveState({ value: r.status, context: {} })
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
        if (lines.length === 0) return 0
        yield* state.events.append(lines)
        state.unapplied.push(...lines)
        yield* State.applyUnapplied(state)
        return lines.length
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
        if (lines.length === 0) return 0
        yield* state.events.append(lines)
        state.unapplied.push(...lines)
        yield* State.applyUnapplied(state)
        return lines.length
      })

    return { evaluate, resetConfirmedAt }
  })
