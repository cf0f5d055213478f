/**
 * Evaluates each live reflection against its lifecycle machine (neko-compat §4.6): the evidence score (read
 * time decay), ages and the powerful-memory switch go in as one `evidence.evaluated` event; a transition
 * the machine allows is applied and journaled by ReflectionTransitions.ts.
 * A promotion the machine asks for (score-driven or time-driven) is carried out by Promotion.ts. Group-chat
 * reflections go through the same machine as if powerful memory were off — by age only, their score never
 * counts — and are promoted by ScopedPromotion.ts into their subject's section; a row with a partial stamp
 * belongs to neither side and never moves. The hourly sweep tallies sub-zero days of reflections and persona
 * entries and archives those at 14 days, and archives promoted/denied reflections 30 days after their
 * terminal stamp.
 */
import { Clock, Effect } from "effect"
import { randomUUID } from "node:crypto"
import { localIso, parseLocal } from "../domain/LocalTime.js"
import { score } from "./evidence/Evidence.js"
import { AppFiles } from "../store/AppFiles.js"
import type { EventLine } from "../store/EventLog.js"
import type { Tunables } from "../Tunables.js"
import type { ReflectionHost } from "./ReflectionHost.js"
import type * as Promotion from "../persona/Promotion.js"
import type * as ScopedPromotion from "../persona/ScopedPromotion.js"
import { isLegacyPrivate, subjectOfRow, type MemorySubject } from "../domain/Subject.js"
import { moveReflection } from "./ReflectionTransitions.js"
import { reflectionLine, REFLECTION_UPDATED } from "./ReflectionEvents.js"

const DAY = 86_400_000
const live = new Set(["pending", "confirmed"])

export const make = (deps: {
  readonly tunables: Tunables
  readonly promotion: Effect.Effect.Success<ReturnType<typeof Promotion.make>>
  readonly scoped: ReturnType<typeof ScopedPromotion.make>
}) =>
  Effect.gen(function* () {
    const files = yield* AppFiles
    const t = deps.tunables

    const daysSince = (iso: unknown, now: number) => {
      const at = typeof iso === "string" ? parseLocal(iso) : undefined
      return at === undefined ? 0 : (now - at) / DAY
    }

    /** Runs every live reflection (private and group-chat) through the machine; returns how many changed state. */
    const evaluate = (state: ReflectionHost) =>
      Effect.gen(function* () {
        const powerful = (yield* files.core).powerful_memory_enabled
        const now = yield* Clock.currentTimeMillis
        const ts = localIso(now)
        const lines: Array<EventLine> = []
        const promote: Array<{
          readonly id: string
          readonly mode: "score" | "time"
          readonly subject: MemorySubject | undefined
        }> = []
        for (const r of yield* state.reflections.loadAll) {
          const subject = subjectOfRow(r)
          if (!live.has(r.status) || (subject === undefined && !isLegacyPrivate(r))) continue
          const lastAttempt = r.last_promote_attempt_at === null ? undefined : parseLocal(r.last_promote_attempt_at)
          const move = moveReflection(
            r,
            {
              type: "evidence.evaluated",
              score: score(r, now, t),
              powerful: powerful && subject === undefined,
              daysSinceCreated: daysSince(r.created_at, now),
              daysSinceConfirmed: daysSince(r["confirmed_at"], now),
              minutesSincePromoteAttempt: lastAttempt === undefined ? null : (now - lastAttempt) / 60_000,
              promoteAttempts: r.promote_attempt_count
            },
            t,
            ts
          )
          lines.push(...move.lines)
          if (move.promote !== undefined) promote.push({ id: r.id, mode: move.promote, subject })
        }
        yield* state.journal(lines)
        let changed = lines.length
        for (const { id, mode, subject } of promote) {
          const r = (yield* state.reflections.loadAll).find((x) => x.id === id)
          if (r === undefined || r.status !== "confirmed") continue
          const to = yield* subject !== undefined
            ? deps.scoped.timeDriven(state, r, subject)
            : mode === "score"
              ? deps.promotion.scoreDriven(state, r)
              : deps.promotion.timeDriven(state, r)
          if (to !== "confirmed") changed++
        }
        return changed
      })

    /**
     * Powerful memory ON→OFF: every confirmed reflection's `confirmed_at` restarts now, so the time-driven
     * path does not promote them all at once (group-chat reflections keep theirs: their clock never depended
     * on the switch). Returns how many were reset.
     */
    const resetConfirmedAt = (state: ReflectionHost) =>
      Effect.gen(function* () {
        const ts = localIso(yield* Clock.currentTimeMillis)
        const lines = (yield* state.reflections.load)
          .filter((r) => r.status === "confirmed")
          .map((r) => reflectionLine(randomUUID(), { reflection: { ...r, confirmed_at: ts } }, ts, REFLECTION_UPDATED))
        yield* state.journal(lines)
        return lines.length
      })

    return { evaluate, resetConfirmedAt }
  })
