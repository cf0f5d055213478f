/**
 * Evidence of reflections and persona entries (neko-compat §4.5), as pure functions of the stored snapshot
 * and the current time: read-time decay with separate half-lives (reinforcement 30 d, disputation 180 d),
 * the score, its tier, applying a signal (with the `user_fact` combo bonus), the daily sub-zero tally and
 * the reinforcement seed of a new reflection. Each application yields a whole new snapshot, so the caller
 * can journal it as one event that replays on its own.
 */
import { parseLocal } from "../../domain/LocalTime.js"
import { withFields } from "../../domain/Shapes.js"

export interface Evidence {
  readonly reinforcement: number
  readonly disputation: number
  readonly rein_last_signal_at: string | null
  readonly disp_last_signal_at: string | null
  readonly sub_zero_days: number
  readonly sub_zero_last_increment_date: string | null
  readonly user_fact_reinforce_count: number
}

export interface EvidenceTunables {
  readonly evidence_rein_half_life_days: number
  readonly evidence_disp_half_life_days: number
  readonly evidence_confirmed_threshold: number
  readonly evidence_promoted_threshold: number
  readonly evidence_archive_threshold: number
  readonly user_fact_reinforce_combo_threshold: number
  readonly user_fact_reinforce_combo_bonus: number
}

export const emptyEvidence: Evidence = {
  reinforcement: 0,
  disputation: 0,
  rein_last_signal_at: null,
  disp_last_signal_at: null,
  sub_zero_days: 0,
  sub_zero_last_increment_date: null,
  user_fact_reinforce_count: 0
}

const DAY = 86_400_000

/** `value × 0.5^(age / halfLife)`; an age at or below zero, or a zero value, does not decay. */
export const decayed = (value: number, ageMillis: number, halfLifeDays: number): number =>
  ageMillis <= 0 || value === 0 ? value : value * Math.pow(0.5, ageMillis / (halfLifeDays * DAY))

/** The signal times of an evidence record, parsed (undefined: missing, invalid). */
export interface SignalTimes {
  readonly rein: number | undefined
  readonly disp: number | undefined
}

export const signalTimes = (e: Evidence): SignalTimes => ({
  rein: e.rein_last_signal_at === null ? undefined : parseLocal(e.rein_last_signal_at),
  disp: e.disp_last_signal_at === null ? undefined : parseLocal(e.disp_last_signal_at)
})

/** Age of a signal; a missing, invalid or future time means no decay. */
const ageOf = (at: number | undefined, nowMillis: number): number =>
  at === undefined ? 0 : Math.max(0, nowMillis - at)

/** The decayed values, from signal times already parsed (`signalTimes`). */
export const effectiveAt = (e: Evidence, at: SignalTimes, nowMillis: number, t: EvidenceTunables) => ({
  reinforcement: decayed(e.reinforcement, ageOf(at.rein, nowMillis), t.evidence_rein_half_life_days),
  disputation: decayed(e.disputation, ageOf(at.disp, nowMillis), t.evidence_disp_half_life_days)
})

export const effective = (e: Evidence, nowMillis: number, t: EvidenceTunables) =>
  effectiveAt(e, signalTimes(e), nowMillis, t)

/** Effective reinforcement minus effective disputation, from signal times already parsed. */
export const scoreAt = (e: Evidence, at: SignalTimes, nowMillis: number, t: EvidenceTunables): number => {
  const eff = effectiveAt(e, at, nowMillis, t)
  return eff.reinforcement - eff.disputation
}

/** Effective reinforcement minus effective disputation; a protected entry scores +∞. */
export const score = (e: Evidence, nowMillis: number, t: EvidenceTunables, isProtected = false): number =>
  isProtected ? Number.POSITIVE_INFINITY : scoreAt(e, signalTimes(e), nowMillis, t)

export type Tier = "promoted" | "confirmed" | "archive_candidate" | "pending"

export const tier = (s: number, t: EvidenceTunables): Tier =>
  s >= t.evidence_promoted_threshold
    ? "promoted"
    : s >= t.evidence_confirmed_threshold
      ? "confirmed"
      : s <= t.evidence_archive_threshold
        ? "archive_candidate"
        : "pending"

export type SignalSource =
  | "user_fact"
  | "user_confirm"
  | "user_rebut"
  | "user_ignore"
  | "user_keyword_rebut"
  | "migration_seed"
  | "promote_merge"

/**
 * Adds a signal to the raw values: disputation never goes below 0 (reinforcement may), only the touched
 * side's clock is reset, and from the third lifetime `user_fact` reinforcement on, the combo bonus is added.
 */
export const applySignal = (
  e: Evidence,
  delta: { readonly reinforcement?: number; readonly disputation?: number; readonly source: SignalSource },
  nowIso: string,
  t: EvidenceTunables
): Evidence => {
  const rein = delta.reinforcement ?? 0
  const disp = delta.disputation ?? 0
  const combo = delta.source === "user_fact" && rein > 0
  const count = combo ? e.user_fact_reinforce_count + 1 : e.user_fact_reinforce_count
  const bonus = combo && count > t.user_fact_reinforce_combo_threshold ? t.user_fact_reinforce_combo_bonus : 0
  return {
    ...e,
    reinforcement: e.reinforcement + rein + bonus,
    disputation: Math.max(0, e.disputation + disp),
    rein_last_signal_at: rein !== 0 ? nowIso : e.rein_last_signal_at,
    disp_last_signal_at: disp !== 0 ? nowIso : e.disp_last_signal_at,
    user_fact_reinforce_count: count
  }
}

/** One more sub-zero day, at most once per calendar day (`YYYY-MM-DD`), while the score is below zero. */
export const tallySubZero = (e: Evidence, currentScore: number, today: string): Evidence =>
  currentScore < 0 && e.sub_zero_last_increment_date !== today
    ? withFields(e, { sub_zero_days: e.sub_zero_days + 1, sub_zero_last_increment_date: today })
    : e

/** The initial reinforcement of a new reflection from the highest importance of its facts. */
export const reinforcementSeed = (maxImportance: number): number =>
  maxImportance >= 10 ? 0.8 : maxImportance === 9 ? 0.6 : maxImportance === 8 ? 0.4 : maxImportance === 7 ? 0.2 : 0
