/**
 * Reading `speaker_trust.json` back into a trustworthy `Pool`. The file must be JSON (else the read fails and
 * the pool stays closed); past that every field is taken leniently, as N.E.K.O. does with a hand-edited file:
 * a bad value falls back to its default, account ids are normalised, `account_index` is rebuilt from the
 * entities (an account held by two entities is folded into the first, ledgers added), and a canonical pointer
 * that no longer names a member is dropped (the next write seals a new one).
 */
import { Either, Predicate, Schema } from "effect"
import {
  activityCountCap,
  ACTIVITY_RING_LIMIT,
  cleanEventIds,
  normalizeAccountId,
  normalizeChannel
} from "./Identity.js"
import { emptyPool, type AccountRecord, type Barrier, type ChannelSeen, type EntityRecord, type Pool } from "./Pool.js"

const decodeJson = Schema.decodeUnknownEither(Schema.parseJson(Schema.Unknown))

type Obj = Record<string, unknown>
const obj = (v: unknown): Obj | undefined => (Predicate.isRecord(v) ? v : undefined)
const text = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null)
const num = (v: unknown): number => {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : 0
  return Number.isFinite(n) ? n : 0
}
const count = (v: unknown): number => Math.max(0, Math.trunc(num(v)))
const objects = <A>(v: unknown, f: (key: string, value: Obj) => A | undefined): Record<string, A> => {
  const out: Record<string, A> = {}
  for (const [key, value] of Object.entries(obj(v) ?? {})) {
    const o = obj(value)
    const mapped = o === undefined ? undefined : f(key, o)
    if (mapped !== undefined) out[key] = mapped
  }
  return out
}

const channelsSeen = (v: unknown): Record<string, ChannelSeen> => {
  const out: Record<string, ChannelSeen> = {}
  for (const [raw, stats] of Object.entries(obj(v) ?? {})) {
    const channel = normalizeChannel(raw)
    const s = obj(stats)
    if (channel !== undefined && s !== undefined)
      out[channel] = { first: text(s["first"]), last: text(s["last"]), count: count(s["count"]) }
  }
  return out
}

export const accountOf = (accountId: string, raw: Obj): AccountRecord => {
  const legacy = obj(raw["legacy_import"])
  return {
    account_id: accountId,
    generation: count(raw["generation"]),
    bound_at: text(raw["bound_at"]),
    bound_by: text(raw["bound_by"]),
    adjustment: num(raw["adjustment"]),
    message_count: Math.min(activityCountCap(), count(raw["message_count"])),
    processed_activity_events: cleanEventIds(raw["processed_activity_events"], ACTIVITY_RING_LIMIT),
    processed_signal_events: cleanEventIds(raw["processed_signal_events"]),
    channels_seen: channelsSeen(raw["channels_seen"]),
    ...(legacy === undefined
      ? {}
      : { legacy_import: { source: text(legacy["source"]) ?? "", at: text(legacy["at"]) ?? "" } })
  }
}

const entityOf = (entityId: string, raw: Obj): EntityRecord => {
  const status =
    String(raw["status"] ?? "active")
      .trim()
      .toLowerCase() === "merged"
      ? "merged"
      : "active"
  const record: EntityRecord = {
    entity_id: entityId,
    status,
    created_at: text(raw["created_at"]),
    updated_at: text(raw["updated_at"]),
    accounts: {}
  }
  if (status === "merged") {
    record.merged_into = text(raw["merged_into"])
    record.merged_at = text(raw["merged_at"])
    const moved = raw["merged_accounts"]
    if (Array.isArray(moved)) record.merged_accounts = moved.flatMap((a) => normalizeAccountId(a) ?? [])
  }
  for (const [key, value] of Object.entries(objects(raw["accounts"], (_, o) => o))) {
    const accountId = normalizeAccountId(key)
    if (accountId !== undefined) record.accounts[accountId] = accountOf(accountId, value)
  }
  const canonical = objects(raw["canonical_accounts"], (_, o) => o)
  const kept: Record<string, { account_id: string; sealed_at: string | null }> = {}
  for (const [platform, entry] of Object.entries(canonical)) {
    const accountId = normalizeAccountId(entry["account_id"])
    const key = platform.trim().toLowerCase()
    if (accountId !== undefined && key !== "" && accountId in record.accounts)
      kept[key] = { account_id: accountId, sealed_at: text(entry["sealed_at"]) }
  }
  if (Object.keys(kept).length > 0) record.canonical_accounts = kept
  const superseded = raw["superseded_canonicals"]
  if (Array.isArray(superseded)) {
    const items = superseded.filter(Predicate.isRecord)
    if (items.length > 0) record.superseded_canonicals = items
  }
  return record
}

/** One inbound legacy profile, per field lenient; neither ring is cut here (the merge cuts the activity ring). */
export const legacyProfileOf = (raw: unknown) => {
  const o = obj(raw) ?? {}
  return {
    adjustment: num(o["adjustment"]),
    message_count: count(o["message_count"]),
    processed_activity_events: cleanEventIds(o["processed_activity_events"]),
    processed_signal_events: cleanEventIds(o["processed_signal_events"])
  }
}

const foldDuplicate = (keeper: AccountRecord, loser: AccountRecord) => {
  keeper.adjustment += loser.adjustment
  keeper.message_count = Math.min(activityCountCap(), keeper.message_count + loser.message_count)
  keeper.processed_signal_events = cleanEventIds([...keeper.processed_signal_events, ...loser.processed_signal_events])
  keeper.processed_activity_events = cleanEventIds(
    [...keeper.processed_activity_events, ...loser.processed_activity_events],
    ACTIVITY_RING_LIMIT
  )
  if (keeper.legacy_import === undefined && loser.legacy_import !== undefined)
    keeper.legacy_import = { ...loser.legacy_import }
}

/** The pool a decoded JSON document describes (a document that is not an object is an empty pool). */
export const normalizePool = (data: unknown, now: string): Pool => {
  const pool = emptyPool(now)
  const raw = obj(data)
  if (raw === undefined) return pool
  for (const [platform, entry] of Object.entries(objects(raw["legacy_barriers"], (_, o) => o))) {
    const key = platform.trim().toLowerCase()
    if (key === "") continue
    const seeded = pool.legacy_barriers[key]
    const barrier: Barrier = {
      ...seeded,
      source: text(entry["source"]) ?? seeded?.source ?? "",
      status: entry["status"] === "cleared" ? "cleared" : "pending",
      seeded_at: text(entry["seeded_at"]) ?? seeded?.seeded_at ?? null,
      cleared_at: text(entry["cleared_at"]),
      chunks: count(entry["chunks"]),
      accounts: count(entry["accounts"]),
      skipped: count(entry["skipped"])
    }
    if (entry["waived"] === true) barrier.waived = true
    pool.legacy_barriers[key] = barrier
  }
  for (const [key, value] of Object.entries(objects(raw["entities"], (_, o) => o))) {
    const entityId = key.trim()
    if (entityId !== "") pool.entities[entityId] = entityOf(entityId, value)
  }
  for (const [entityId, entity] of Object.entries(pool.entities)) {
    if (entity.status === "merged") continue
    for (const [accountId, record] of Object.entries(entity.accounts)) {
      const owner = pool.account_index[accountId]
      const keeper = owner === undefined ? undefined : pool.entities[owner]?.accounts[accountId]
      if (keeper === undefined) {
        pool.account_index[accountId] = entityId
        continue
      }
      foldDuplicate(keeper, record)
      delete entity.accounts[accountId]
    }
  }
  for (const entity of Object.values(pool.entities)) {
    for (const [platform, entry] of Object.entries(entity.canonical_accounts ?? {}))
      if (!(entry.account_id in entity.accounts)) delete entity.canonical_accounts?.[platform]
  }
  pool.forgotten = objects(raw["forgotten"], (k, o) => (k.trim() === "" ? undefined : { ...o }))
  pool.channel_collisions = objects(raw["channel_collisions"], (_, o) => ({
    channels: Array.isArray(o["channels"]) ? o["channels"].filter(Predicate.isString) : [],
    detected_at: text(o["detected_at"]) ?? now,
    hits: count(o["hits"])
  }))
  pool.platform_identity_scope = objects(raw["platform_identity_scope"], (_, o) => ({ ...o }))
  pool.channel_observations = objects(raw["channel_observations"], (_, o) => {
    const cleaned = objects(o, (_, s) => ({
      first_seen: text(s["first_seen"]) ?? now,
      last_seen: text(s["last_seen"]) ?? now,
      accounts: count(s["accounts"])
    }))
    return Object.keys(cleaned).length > 0 ? cleaned : undefined
  })
  pool.updated_at = text(raw["updated_at"]) ?? now
  return pool
}

/** Decodes the file's text; `Left` when it is not JSON at all (the pool then stays closed). */
export const decodePoolText = (fileText: string, now: string): Either.Either<Pool, string> =>
  Either.map(
    Either.mapLeft(decodeJson(fileText), (e) => e.message.slice(0, 300)),
    (data) => normalizePool(data, now)
  )
