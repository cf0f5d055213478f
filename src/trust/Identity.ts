/**
 * Pure identity and scoring rules of the speaker-trust pool (N.E.K.O.'s `memory/identity.py` numbers): an
 * account id is `platform:actor` exactly as the plugins send it (platform lower-cased, nothing else changed);
 * an entity id is derived from (account, generation), so the same account always seeds the same entity and a
 * lost file can be recomputed; the one trust formula clamps the summed adjustment and the activity bonus once.
 */
import { createHash } from "node:crypto"

/** Base score per permission tier (`speaker_tier`). */
export const TIER_BASE = { admin: 1.0, trusted: 0.8, normal: 0.5, none: 0.3 } as const
export type Tier = keyof typeof TIER_BASE
export const TIERS: ReadonlyArray<Tier> = ["admin", "trusted", "normal", "none"]

export const ACTIVITY_WEIGHT = 0.001
export const ACTIVITY_MAX_BONUS = 0.02
export const CONFIRMATION_DELTA = 0.04
export const CORRECTION_DELTA = 0.08
export const ADJUSTMENT_LIMIT = 0.3
/** A self-reported base (`speaker_base_trust`) never resolves above this, adjustments included. */
export const MAX_REPORTED_BASE = 0.8
export const ACTIVITY_RING_LIMIT = 256
export const LEGACY_IMPORT_CHUNK_MAX = 500
export const MAX_ACCOUNTS_PER_ENTITY_PER_PLATFORM = 8
export const ENTITY_RESOLVE_MAX_DEPTH = 8
export const EVENT_ID_MAX = 96
/** Platforms whose legacy ledger must be imported before their trust moves, and the ledger's source name. */
export const LEGACY_BARRIERS: Readonly<Record<string, string>> = {
  qq: "qq_auto_reply.business_config.speaker_trust_profiles.v1"
}
export const IDENTITY_SCOPE_VALUES = ["global", "per_conversation", "unknown"] as const

const PLATFORM = /^[A-Za-z0-9_.-]+$/
const ACTOR = /^[A-Za-z0-9_.:@-]+$/
const CHANNEL = /^[a-z0-9_]{1,16}$/

/** N.E.K.O.'s `stable_speaker_id`: `platform:actor` (≤ 96 chars, no spaces), platform lower-cased; else undefined. */
export const normalizeAccountId = (value: unknown): string | undefined => {
  if (typeof value !== "string") return undefined
  const text = value.trim()
  if (text === "" || text.length > 96 || /[\s\p{C}]/u.test(text)) return undefined
  const colon = text.indexOf(":")
  if (colon <= 0 || colon === text.length - 1) return undefined
  const platform = text.slice(0, colon)
  const actor = text.slice(colon + 1)
  if (!PLATFORM.test(platform) || !ACTOR.test(actor)) return undefined
  return `${platform.toLowerCase()}:${actor}`
}

export const accountPlatform = (accountId: string): string => accountId.split(":")[0] ?? ""

/** An observed transport token (`napcat`, `open`), or undefined: it is diagnostics, never identity. */
export const normalizeChannel = (value: unknown): string | undefined => {
  if (typeof value !== "string") return undefined
  const text = value.trim().toLowerCase()
  return CHANNEL.test(text) ? text : undefined
}

export const isPlatformToken = (value: string): boolean => PLATFORM.test(value)

/** `ent_` + the first 24 hex digits of sha256(`neko.entity.v1|<account>|<generation>`), as N.E.K.O. derives it. */
export const deriveEntityId = (accountId: string, generation: number): string =>
  "ent_" + createHash("sha256").update(`neko.entity.v1|${accountId}|${generation}`, "utf8").digest("hex").slice(0, 24)

/** The message count past which activity adds nothing: ceil(MAX_BONUS / WEIGHT). */
export const activityCountCap = (): number => Math.max(0, Math.ceil(ACTIVITY_MAX_BONUS / ACTIVITY_WEIGHT))

const clamp = (lo: number, hi: number, v: number) => Math.max(lo, Math.min(hi, v))

/** clamp01(base + clamp(Σadjustment, ±LIMIT) + min(MAX_BONUS, min(cap, Σcount)·WEIGHT)). */
export const effectiveTrust = (base: number, adjustmentSum: number, activitySum: number): number => {
  const adjustment = clamp(-ADJUSTMENT_LIMIT, ADJUSTMENT_LIMIT, Number.isFinite(adjustmentSum) ? adjustmentSum : 0)
  const counted = Math.min(activityCountCap(), Math.max(0, Math.trunc(activitySum)))
  const activity = Math.min(ACTIVITY_MAX_BONUS, counted * ACTIVITY_WEIGHT)
  return clamp(0, 1, base + adjustment + activity)
}

/** Event ids as a ring keeps them: trimmed, at most 96 chars, first occurrence kept, optionally the last `limit`. */
export const cleanEventIds = (raw: unknown, limit?: number): Array<string> => {
  if (!Array.isArray(raw)) return []
  const seen = new Set<string>()
  const out: Array<string> = []
  for (const item of raw) {
    const id = (typeof item === "string" ? item : typeof item === "number" ? String(item) : "")
      .trim()
      .slice(0, EVENT_ID_MAX)
    if (id !== "" && !seen.has(id)) {
      seen.add(id)
      out.push(id)
    }
  }
  return limit === undefined ? out : out.slice(-limit)
}
