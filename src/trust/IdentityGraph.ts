/**
 * The human-triggered identity operations on a draft pool (pure): bind an account to an entity, unbind it
 * into a fresh entity (its ledger goes with it, nothing is lost), merge two entities (the survivor is the
 * smaller (created_at, entity_id), so merging is idempotent and commutative), forget an entity, and declare a
 * platform's identity scope. No code path binds automatically. An entity holds at most 8 accounts per
 * platform: a bind or merge past that is refused with 409 before anything moves.
 */
import { Either, Schema } from "effect"
import {
  accountPlatform,
  effectiveTrust,
  IDENTITY_SCOPE_VALUES,
  MAX_ACCOUNTS_PER_ENTITY_PER_PLATFORM,
  normalizeChannel,
  TIER_BASE
} from "./Identity.js"
import {
  createEntity,
  entityOf,
  freeEntityId,
  newAccountRecord,
  resolveEntity,
  type EntityRecord,
  type Pool
} from "./Pool.js"

export class TrustIdentityError extends Schema.TaggedError<TrustIdentityError>()("TrustIdentityError", {
  status: Schema.Number,
  message: Schema.String
}) {}

export interface Change<A> {
  readonly dirty: boolean
  readonly value: A
}
type Outcome<A> = Either.Either<Change<A>, TrustIdentityError>
type Answer = Record<string, unknown>

const refuse = (message: string, status = 422) => Either.left(new TrustIdentityError({ status, message }))
const changed = <A>(value: A, dirty = true): Outcome<A> => Either.right({ dirty, value })

const limitGuard = (entity: EntityRecord, platform: string, incoming: ReadonlyArray<string>) => {
  const accounts = new Set(Object.keys(entity.accounts).filter((a) => accountPlatform(a) === platform))
  for (const a of incoming) if (accountPlatform(a) === platform) accounts.add(a)
  return accounts.size > MAX_ACCOUNTS_PER_ENTITY_PER_PLATFORM
    ? refuse(
        `该实体在 ${platform} 已有 ${MAX_ACCOUNTS_PER_ENTITY_PER_PLATFORM} 个 account，无法再绑定；请先解绑一个`,
        409
      )
    : undefined
}

const orderKey = (e: EntityRecord) => [e.created_at ?? "", e.entity_id] as const
const before = (a: EntityRecord, b: EntityRecord) => {
  const [ca, ia] = orderKey(a)
  const [cb, ib] = orderKey(b)
  return ca < cb || (ca === cb && ia <= ib)
}

/** Moves every account of one entity into the other; answers the survivor's id. */
export const mergeEntities = (
  pool: Pool,
  left: string,
  right: string,
  now: string
): Either.Either<string, TrustIdentityError> => {
  const a = resolveEntity(pool, left)
  const b = resolveEntity(pool, right)
  const ra = a === undefined ? undefined : pool.entities[a]
  const rb = b === undefined ? undefined : pool.entities[b]
  if (ra === undefined || rb === undefined) return refuse("unknown entity", 404)
  if (ra === rb) return Either.right(ra.entity_id)
  const [survivor, absorbed] = before(ra, rb) ? [ra, rb] : [rb, ra]
  const moving = Object.keys(absorbed.accounts)
  for (const platform of new Set(moving.map(accountPlatform))) {
    const refused = limitGuard(survivor, platform, moving)
    if (refused !== undefined) return refused
  }
  for (const [accountId, record] of Object.entries(absorbed.accounts)) {
    if (accountId in survivor.accounts) return refuse(`merge would clobber an existing ledger for ${accountId}`, 500)
    survivor.accounts[accountId] = record
    pool.account_index[accountId] = survivor.entity_id
  }
  const canonical = (survivor.canonical_accounts ??= {})
  for (const [platform, entry] of Object.entries(absorbed.canonical_accounts ?? {})) {
    if (!(platform in canonical)) canonical[platform] = { ...entry }
    else (survivor.superseded_canonicals ??= []).push({ platform, account_id: entry.account_id, at: now })
  }
  absorbed.accounts = {}
  absorbed.canonical_accounts = {}
  absorbed.status = "merged"
  absorbed.merged_into = survivor.entity_id
  absorbed.merged_at = now
  absorbed.merged_accounts = moving
  survivor.updated_at = now
  return Either.right(survivor.entity_id)
}

const isBound = (pool: Pool, entityId: string, accountId: string) => {
  const accounts = pool.entities[entityId]?.accounts ?? {}
  return Object.keys(accounts).length > 1 || Boolean(accounts[accountId]?.bound_by)
}

export const bind = (
  pool: Pool,
  input: {
    readonly accountId: string
    readonly entityId: string
    readonly boundBy: string | null
    readonly requireUnbound: boolean
  },
  now: string
): Outcome<Answer> => {
  const target = resolveEntity(pool, input.entityId)
  const entity = target === undefined ? undefined : pool.entities[target]
  if (target === undefined || entity === undefined) return refuse("unknown entity", 404)
  const current = entityOf(pool, input.accountId)
  if (current === target) return changed({ entity_id: target, changed: false }, false)
  if (current !== undefined) {
    if (input.requireUnbound && isBound(pool, current, input.accountId))
      return refuse("account is already bound; unbind it first", 409)
    return Either.map(mergeEntities(pool, current, target, now), (merged) => {
      const record = pool.entities[merged]?.accounts[input.accountId]
      if (record !== undefined && input.boundBy) {
        record.bound_by = input.boundBy
        record.bound_at = now
      }
      return { dirty: true, value: { entity_id: merged, changed: true, merged: true, bound_by: input.boundBy } }
    })
  }
  const refused = limitGuard(entity, accountPlatform(input.accountId), [input.accountId])
  if (refused !== undefined) return refused
  entity.accounts[input.accountId] = newAccountRecord(input.accountId, now, input.boundBy || null)
  entity.updated_at = now
  pool.account_index[input.accountId] = target
  return changed({ entity_id: target, changed: true, bound_by: input.boundBy })
}

const sums = (entity: EntityRecord) =>
  Object.values(entity.accounts).reduce(
    ([adj, count], r) => [adj + r.adjustment, count + Math.max(0, r.message_count)] as const,
    [0, 0] as readonly [number, number]
  )

export const unbind = (pool: Pool, accountId: string, requireProvenance: boolean, now: string): Outcome<Answer> => {
  const entityId = entityOf(pool, accountId)
  const entity = entityId === undefined ? undefined : pool.entities[entityId]
  if (entityId === undefined || entity === undefined) return changed({ entity_id: null, changed: false }, false)
  const record = entity.accounts[accountId]
  if (record === undefined) return changed({ entity_id: entityId, changed: false }, false)
  if (requireProvenance && !record.bound_by)
    return changed({ entity_id: entityId, changed: false, reason: "not_bound" }, false)
  const [beforeAdj, beforeCount] = sums(entity)
  delete entity.accounts[accountId]
  const platform = accountPlatform(accountId)
  if (entity.canonical_accounts?.[platform]?.account_id === accountId) delete entity.canonical_accounts[platform]
  entity.updated_at = now
  const [fresh, generation] = freeEntityId(pool, accountId, record.generation + 1)
  const created = createEntity(pool, fresh, now)
  record.generation = generation
  record.bound_at = now
  record.bound_by = null
  created.accounts[accountId] = record
  pool.account_index[accountId] = fresh
  const [afterAdj, afterCount] = sums(entity)
  const probe = TIER_BASE.normal
  return changed({
    entity_id: fresh,
    previous_entity_id: entityId,
    changed: true,
    ledger_delta: record.adjustment,
    effective_delta: effectiveTrust(probe, afterAdj, afterCount) - effectiveTrust(probe, beforeAdj, beforeCount)
  })
}

export const forget = (pool: Pool, entityId: string, now: string): Outcome<Answer> => {
  const target = resolveEntity(pool, entityId)
  const entity = target === undefined ? undefined : pool.entities[target]
  if (target === undefined || entity === undefined) return changed({ entity_id: null, changed: false }, false)
  const accounts = Object.keys(entity.accounts)
  for (const a of accounts) {
    delete pool.account_index[a]
    delete pool.channel_collisions[a]
  }
  delete pool.entities[target]
  pool.forgotten[target] = { forgotten_at: now, accounts }
  return changed({ entity_id: target, changed: true, accounts })
}

export interface ScopeDeclaration {
  readonly platform: string
  readonly channel: string
  readonly actorScope: string
  readonly conversationScope: string
  readonly assertedBy: string
}

/** Checks a declaration in N.E.K.O.'s order: platform, channel, both scopes, who asserts it (all 422). */
export const scopeDeclaration = (raw: {
  readonly platform: string
  readonly channel: string
  readonly actor_scope: string
  readonly conversation_scope: string
  readonly asserted_by: string
}): Either.Either<ScopeDeclaration, TrustIdentityError> => {
  const platform = raw.platform.trim().toLowerCase()
  if (!/^[a-z0-9_.-]+$/.test(platform)) return refuse("invalid platform")
  const channel = normalizeChannel(raw.channel)
  if (channel === undefined) return refuse("channel is required")
  const actorScope = raw.actor_scope.trim().toLowerCase()
  const conversationScope = raw.conversation_scope.trim().toLowerCase()
  const scopes: ReadonlyArray<string> = IDENTITY_SCOPE_VALUES
  if (!scopes.includes(actorScope) || !scopes.includes(conversationScope))
    return refuse(`scope must be one of ['global', 'per_conversation', 'unknown']`)
  const assertedBy = raw.asserted_by.trim()
  if (assertedBy === "") return refuse("asserted_by is required")
  return Either.right({ platform, channel, actorScope, conversationScope, assertedBy })
}

/** Records what a platform's ids mean on the wire; declaring the same tuple again changes nothing. */
export const declareScope = (pool: Pool, d: ScopeDeclaration, now: string): Outcome<Answer> => {
  const current = pool.platform_identity_scope[d.platform] ?? {}
  const entry: Answer = {
    channel: d.channel,
    actor_scope: d.actorScope,
    conversation_scope: d.conversationScope,
    asserted_at: current["asserted_at"] ?? null,
    asserted_by: d.assertedBy
  }
  const same = ["channel", "actor_scope", "conversation_scope", "asserted_by"].every((k) => current[k] === entry[k])
  if (same && current["asserted_at"]) return changed({ ...current }, false)
  entry["asserted_at"] = now
  pool.platform_identity_scope[d.platform] = entry
  return changed({ ...entry })
}
