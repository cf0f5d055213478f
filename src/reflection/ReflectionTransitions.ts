/**
 * The one place a reflection's lifecycle fields change: an event goes through `machines/reflection.ts` from
 * the record's stored status (with the configured thresholds), and the typed actions it emits are applied to
 * the record — the status from the machine's next state, the stamps each action names (confirmed_at,
 * denied_at/denied_reason, promoted_at, merged_at/absorbed_into, promote_blocked_at, archived_at, feedback and
 * its evidence signal, suppress/suppressed_at) — and journaled: a status change as one
 * `reflection.state_changed` carrying the whole new record, any other change the machine made as one
 * `reflection.updated`. A promotion the machine asks for is returned for Promotion.ts to carry out.
 */
import { Option } from "effect"
import { randomUUID } from "node:crypto"
import { transition } from "xstate"
import {
  decodeReflectionCommand,
  reflectionMachine,
  type ReflectionEvent,
  type ReflectionLimits
} from "../../machines/reflection.js"
import { applySignal } from "./evidence/Evidence.js"
import type { Reflection } from "./Reflection.js"
import type { EventLine } from "../store/EventLog.js"
import type { Tunables } from "../Tunables.js"
import { memoPer } from "../domain/Memo.js"
import { reflectionLine, REFLECTION_UPDATED, stateChangedLine } from "./ReflectionEvents.js"

const reflectionLimits = (t: Tunables): ReflectionLimits => ({
  confirm: t.evidence_confirmed_threshold,
  promote: t.evidence_promoted_threshold,
  autoDays: t.weak_memory_auto_confirm_days,
  autoPromoteDays: t.weak_memory_auto_promote_days,
  backoffMinutes: t.evidence_promote_retry_backoff_minutes,
  maxAttempts: t.evidence_promote_max_retries,
  archiveDays: t.evidence_archive_days,
  keepDays: t.reflection_terminal_keep_days,
  mentions: t.suppress_mention_limit,
  cooldownHours: t.suppress_cooldown_hours
})

/** The reflection machine in the state of a stored status, with the configured thresholds as its context. */
const reflectionAt = memoPer(
  (status: string) => status,
  (t: Tunables, status: string) =>
    reflectionMachine.resolveState({ value: status, context: { limits: reflectionLimits(t) } }),
  64
)

export interface ReflectionMove {
  readonly from: string
  readonly to: string
  /** The record after the move (`base` when the machine changed nothing). */
  readonly record: Reflection
  /** The journal lines of the move; empty when the machine changed nothing. */
  readonly lines: ReadonlyArray<EventLine>
  /** A promotion the machine asked for. */
  readonly promote: "score" | "time" | undefined
}

export interface MoveOptions {
  /** The record to stamp, when the caller changed non-lifecycle fields first (evidence tallies). */
  readonly base?: Reflection
  /** Extra fields for the record and the payload, only when the status changes (the model's reason). */
  readonly fields?: Readonly<Record<string, unknown>>
  /** Extra payload fields of the state change (`reason: "manual"`). */
  readonly payload?: Readonly<Record<string, unknown>>
}

/** Runs `event` through the reflection machine from `r`'s status and applies what it emits, stamped at `ts`. */
export const moveReflection = (
  r: Reflection,
  event: ReflectionEvent,
  t: Tunables,
  ts: string,
  options: MoveOptions = {}
): ReflectionMove => {
  const at = reflectionAt(t, r.status)
  // `can` evaluates the machine's own guards; `transition` would also build an inert actor, which costs more.
  const [next, actions] = at.can(event) ? transition(reflectionMachine, at, event) : [at, []]
  const base = options.base ?? r
  let stamps: Record<string, unknown> = {}
  let reason: string | undefined
  let promote: ReflectionMove["promote"]
  for (const c of actions.flatMap((a) => Option.toArray(decodeReflectionCommand(a)))) {
    switch (c.type) {
      case "markConfirmed":
        stamps = { ...stamps, confirmed_at: ts, auto_confirmed: c.params.auto }
        break
      case "markBlocked":
        stamps = { ...stamps, promote_blocked_at: ts, promote_blocked_reason: c.params.reason }
        reason = c.params.reason
        break
      case "markPromoted":
        stamps = { ...stamps, promoted_at: ts }
        break
      case "markMerged":
        stamps = { ...stamps, merged_at: ts, absorbed_into: c.params.into }
        break
      case "markDenied":
        stamps = { ...stamps, denied_at: ts, denied_reason: c.params.reason }
        reason = c.params.reason
        break
      case "applyFeedback": {
        const delta =
          c.params.verdict === "confirmed"
            ? { reinforcement: t.user_confirm_delta, source: "user_confirm" as const }
            : c.params.verdict === "denied"
              ? { disputation: t.user_rebut_delta, source: "user_rebut" as const }
              : { reinforcement: t.ignored_reinforcement_delta, source: "user_ignore" as const }
        stamps = { ...stamps, ...applySignal(base, delta, ts, t), feedback: c.params.verdict }
        break
      }
      case "archive":
        stamps = { ...stamps, archived_at: ts, archive_reason: c.params.reason }
        reason = c.params.reason
        break
      case "markSuppressed":
        stamps = { ...stamps, suppress: true, suppressed_at: ts }
        break
      case "liftSuppression":
        stamps = { ...stamps, suppress: false, suppressed_at: null, recent_mentions: [] }
        break
      case "requestPromotion":
        promote = "score"
        break
      case "promoteTimeDriven":
        promote = "time"
        break
    }
  }
  const to = String(next.value)
  const moved = to !== r.status
  const record: Reflection = { ...base, ...stamps, ...(moved ? options.fields : {}), status: moved ? to : r.status }
  if (moved) {
    const payload = {
      ...stamps,
      ...options.fields,
      ...(reason === undefined ? {} : { reason }),
      ...options.payload
    }
    const line = stateChangedLine(
      randomUUID(),
      { ...payload, reflection_id: r.id, from: r.status, to, ts, entry_snapshot: record },
      ts
    )
    return { from: r.status, to, record, lines: [line], promote }
  }
  const lines =
    Object.keys(stamps).length > 0 ? [reflectionLine(randomUUID(), { reflection: record }, ts, REFLECTION_UPDATED)] : []
  return { from: r.status, to, record: lines.length > 0 ? record : base, lines, promote }
}
