/**
 * The read side of the trust pool: a frozen pool plus whether it was loaded. An unloaded snapshot (the file
 * could not be read) fails closed: no account has an entity, no trust resolves, subject folding is the
 * identity. `resolveTrust` abstains (undefined) for exactly three request reasons — a malformed account id, a
 * pending legacy barrier on the account's platform, no tier and no base — never for a missing ledger.
 */
import {
  accountPlatform,
  effectiveTrust,
  MAX_REPORTED_BASE,
  normalizeAccountId,
  TIER_BASE,
  type Tier
} from "./Identity.js"
import { barrierPending as poolBarrierPending, resolveEntity, type Pool } from "./Pool.js"

export interface TrustSnapshot {
  readonly pool: Pool
  readonly loaded: boolean
}

export const entityOf = (snap: TrustSnapshot, account: unknown): string | undefined => {
  if (!snap.loaded) return undefined
  const id = normalizeAccountId(account)
  return id === undefined ? undefined : resolveEntity(snap.pool, snap.pool.account_index[id])
}

export const canonicalAccount = (snap: TrustSnapshot, entityId: string, platform: string): string | undefined =>
  snap.pool.entities[entityId]?.canonical_accounts?.[platform.toLowerCase()]?.account_id || undefined

export const barrierPending = (snap: TrustSnapshot, platform: string): boolean =>
  poolBarrierPending(snap.pool, platform)

/** Every account of the entity owning `account` (canonical of its platform first, then by bound time and id). */
export const accountsOf = (snap: TrustSnapshot, account: unknown): ReadonlyArray<string> => {
  const id = normalizeAccountId(account)
  const entityId = entityOf(snap, account)
  if (entityId === undefined || id === undefined) return id === undefined ? [] : [id]
  const accounts = snap.pool.entities[entityId]?.accounts ?? {}
  const ordered = Object.entries(accounts)
    .map(([a, r]) => [r.bound_at ?? "", a] as const)
    .sort(([ta, a], [tb, b]) => (ta < tb ? -1 : ta > tb ? 1 : a < b ? -1 : a > b ? 1 : 0))
    .map(([, a]) => a)
  const canonical = canonicalAccount(snap, entityId, accountPlatform(id))
  return canonical !== undefined && ordered.includes(canonical)
    ? [canonical, ...ordered.filter((a) => a !== canonical)]
    : ordered
}

/** Raw (unclamped) Σadjustment and Σmessage_count over the account's entity; (0, 0) when unknown. */
export const trustInputs = (snap: TrustSnapshot, account: unknown): readonly [number, number] => {
  const entityId = entityOf(snap, account)
  if (entityId === undefined) return [0, 0]
  let adjustment = 0
  let counted = 0
  for (const r of Object.values(snap.pool.entities[entityId]?.accounts ?? {})) {
    if (Number.isFinite(r.adjustment)) adjustment += r.adjustment
    counted += Math.max(0, r.message_count)
  }
  return [adjustment, counted]
}

export const resolveTrust = (
  snap: TrustSnapshot,
  account: unknown,
  source: { readonly tier?: Tier | undefined; readonly base?: number | undefined }
): number | undefined => {
  if (!snap.loaded) return undefined
  const id = normalizeAccountId(account)
  if (id === undefined || barrierPending(snap, accountPlatform(id))) return undefined
  if (source.tier === undefined && source.base === undefined) return undefined
  const [adjustment, activity] = trustInputs(snap, id)
  if (source.tier !== undefined) return effectiveTrust(TIER_BASE[source.tier], adjustment, activity)
  const base = Math.max(0, Math.min(MAX_REPORTED_BASE, source.base ?? 0))
  return Math.min(MAX_REPORTED_BASE, effectiveTrust(base, adjustment, activity))
}

/** `GET /internal/trust/profile`: one account's diagnostics, never its event rings. */
export const profile = (snap: TrustSnapshot, account: unknown): Record<string, unknown> => {
  const id = normalizeAccountId(account)
  if (id === undefined) return { account_id: null, known: false }
  const platform = accountPlatform(id)
  const entityId = entityOf(snap, id)
  const [adjustmentSum, activitySum] = trustInputs(snap, id)
  const record = entityId === undefined ? undefined : snap.pool.entities[entityId]?.accounts[id]
  return {
    account_id: id,
    known: record !== undefined,
    entity_id: entityId ?? null,
    platform,
    barrier_pending: barrierPending(snap, platform),
    entity_accounts: entityId === undefined ? [] : accountsOf(snap, id),
    canonical_account: entityId === undefined ? null : (canonicalAccount(snap, entityId, platform) ?? null),
    adjustment_sum: adjustmentSum,
    activity_count_sum: activitySum,
    account_adjustment: record?.adjustment ?? 0,
    account_message_count: record?.message_count ?? 0,
    signal_event_count: record?.processed_signal_events.length ?? 0,
    activity_event_count: record?.processed_activity_events.length ?? 0,
    bound_at: record?.bound_at ?? null,
    bound_by: record?.bound_by ?? null,
    channels_seen: Object.keys(record?.channels_seen ?? {}).sort(),
    channel_collision: id in snap.pool.channel_collisions,
    platform_identity_scope: { ...snap.pool.platform_identity_scope[platform] },
    legacy_barriers: structuredClone(snap.pool.legacy_barriers)
  }
}
