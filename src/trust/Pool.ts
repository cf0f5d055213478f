/**
 * The records of `<memory root>/speaker_trust.json`, in N.E.K.O.'s file schema (version 2): legacy-import
 * barriers per platform, the account → entity index, entities holding per-account ledgers, forgotten
 * entities, and the diagnostics containers (channel observations and collisions, declared identity scopes).
 * A published pool is never mutated: writers edit a clone (`clonePool`) and publish it once it is on disk.
 */
import { accountPlatform, deriveEntityId, ENTITY_RESOLVE_MAX_DEPTH, LEGACY_BARRIERS } from "./Identity.js"

export const POOL_VERSION = 2

export interface Barrier {
  source: string
  status: "pending" | "cleared"
  seeded_at: string | null
  cleared_at: string | null
  chunks: number
  accounts: number
  skipped: number
  waived?: boolean
}

export interface ChannelSeen {
  first: string | null
  last: string | null
  count: number
}

export interface AccountRecord {
  account_id: string
  generation: number
  bound_at: string | null
  bound_by: string | null
  adjustment: number
  message_count: number
  processed_activity_events: Array<string>
  processed_signal_events: Array<string>
  channels_seen: Record<string, ChannelSeen>
  legacy_import?: { source: string; at: string }
}

export interface CanonicalEntry {
  account_id: string
  sealed_at: string | null
}

export interface EntityRecord {
  entity_id: string
  status: "active" | "merged"
  created_at: string | null
  updated_at: string | null
  accounts: Record<string, AccountRecord>
  canonical_accounts?: Record<string, CanonicalEntry>
  superseded_canonicals?: Array<Record<string, unknown>>
  merged_into?: string | null
  merged_at?: string | null
  merged_accounts?: Array<string>
}

export interface Pool {
  version: number
  updated_at: string | null
  legacy_barriers: Record<string, Barrier>
  account_index: Record<string, string>
  entities: Record<string, EntityRecord>
  forgotten: Record<string, { forgotten_at?: string; accounts?: Array<string>; [key: string]: unknown }>
  channel_observations: Record<string, Record<string, { first_seen: string; last_seen: string; accounts: number }>>
  channel_collisions: Record<string, { channels: Array<string>; detected_at: string; hits: number }>
  platform_identity_scope: Record<string, Record<string, unknown>>
}

export const pendingBarrier = (source: string, now: string | null): Barrier => ({
  source,
  status: "pending",
  seeded_at: now,
  cleared_at: null,
  chunks: 0,
  accounts: 0,
  skipped: 0
})

/** A pool that abstains from everything: the configured barriers pending, no ledgers. */
export const emptyPool = (now: string | null): Pool => ({
  version: POOL_VERSION,
  updated_at: now,
  legacy_barriers: Object.fromEntries(
    Object.entries(LEGACY_BARRIERS).map(([platform, source]) => [platform, pendingBarrier(source, now)])
  ),
  account_index: {},
  entities: {},
  forgotten: {},
  channel_observations: {},
  channel_collisions: {},
  platform_identity_scope: {}
})

export const clonePool = (pool: Pool): Pool => structuredClone(pool)

export const newAccountRecord = (accountId: string, boundAt: string, boundBy: string | null = null): AccountRecord => ({
  account_id: accountId,
  generation: 0,
  bound_at: boundAt,
  bound_by: boundBy,
  adjustment: 0,
  message_count: 0,
  processed_activity_events: [],
  processed_signal_events: [],
  channels_seen: {}
})

/** Follows `merged_into` to the live entity; a chain deeper than 8, a cycle or a hole resolves to nothing. */
export const resolveEntity = (pool: Pool, entityId: string | undefined | null): string | undefined => {
  let current = entityId ?? ""
  if (current === "") return undefined
  for (let i = 0; i < ENTITY_RESOLVE_MAX_DEPTH; i++) {
    const record = pool.entities[current]
    if (record === undefined) return undefined
    if (record.status !== "merged") return current
    const next = record.merged_into ?? ""
    if (next === "" || next === current) return undefined
    current = next
  }
  return undefined
}

export const entityOf = (pool: Pool, accountId: string): string | undefined =>
  resolveEntity(pool, pool.account_index[accountId])

export const barrierPending = (pool: Pool, platform: string): boolean => {
  const entry = pool.legacy_barriers[platform.toLowerCase()]
  return entry !== undefined && entry.status !== "cleared"
}

/** The first `ent_…` id for this account not used by a live or forgotten entity. */
export const freeEntityId = (pool: Pool, accountId: string, fromGeneration = 0): [string, number] => {
  for (let generation = fromGeneration; ; generation++) {
    const candidate = deriveEntityId(accountId, generation)
    if (!(candidate in pool.entities) && !(candidate in pool.forgotten)) return [candidate, generation]
  }
}

export const createEntity = (pool: Pool, entityId: string, now: string): EntityRecord => {
  const record: EntityRecord = { entity_id: entityId, status: "active", created_at: now, updated_at: now, accounts: {} }
  pool.entities[entityId] = record
  return record
}

/** The account's ledger record, registering it (in its own seed entity) when `create` and it is unknown. */
export const accountRecord = (
  pool: Pool,
  accountId: string,
  create: { readonly now: string } | undefined
): AccountRecord | undefined => {
  const owner = entityOf(pool, accountId)
  const existing = owner === undefined ? undefined : pool.entities[owner]?.accounts[accountId]
  if (existing !== undefined || create === undefined) return existing
  const [entityId] = freeEntityId(pool, accountId)
  const entity = pool.entities[entityId] ?? createEntity(pool, entityId, create.now)
  const record = newAccountRecord(accountId, create.now)
  entity.accounts[accountId] = record
  entity.updated_at = create.now
  pool.account_index[accountId] = entityId
  return record
}

export const entityMessageCount = (pool: Pool, accountId: string): number => {
  const owner = entityOf(pool, accountId)
  const entity = owner === undefined ? undefined : pool.entities[owner]
  return Object.values(entity?.accounts ?? {}).reduce((sum, r) => sum + Math.max(0, r.message_count), 0)
}

export const platformAccounts = (entity: EntityRecord, platform: string): Array<string> =>
  Object.keys(entity.accounts).filter((a) => accountPlatform(a) === platform)
