/**
 * Snapshots of the lifecycle machines for a stored record, with the configured thresholds as the
 * machine's context, so every caller interprets the same machine with the same tunables.
 */
import { personaMachine, type PersonaLimits } from "../../machines/persona.js"
import { reflectionMachine, type ReflectionLimits } from "../../machines/reflection.js"
import type { Tunables } from "../Tunables.js"

export const reflectionLimits = (t: Tunables): ReflectionLimits => ({
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

export const personaLimits = (t: Tunables): PersonaLimits => ({
  mentions: t.suppress_mention_limit,
  cooldownHours: t.suppress_cooldown_hours,
  archiveDays: t.evidence_archive_days
})

/** The reflection machine in the state of a stored status. */
export const reflectionAt = (status: string, t: Tunables) =>
  reflectionMachine.resolveState({ value: status, context: { limits: reflectionLimits(t) } })

/** The persona machine in a given state for an entry. */
export const personaAt = (value: string, isProtected: boolean, t: Tunables) =>
  personaMachine.resolveState({ value, context: { protected: isProtected, limits: personaLimits(t) } })
