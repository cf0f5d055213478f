/**
 * Trust evolution on a draft pool (pure, synchronous): per-segment activity, channel observations and owner
 * signals, the legacy-ledger import and its barrier, and the fold of signal events found on fact rows. Two
 * independent axes: activity counts for the speaking account, each signal event for the account it names
 * (its target). Everything is idempotent by event id, and nothing moves on a platform whose barrier is
 * pending (signals are reported deferred). Each function returns whether the draft changed.
 */
import { Predicate } from "effect"
import {
  accountPlatform,
  activityCountCap,
  ACTIVITY_RING_LIMIT,
  cleanEventIds,
  CONFIRMATION_DELTA,
  CORRECTION_DELTA,
  EVENT_ID_MAX,
  normalizeAccountId,
  normalizeChannel
} from "./Identity.js"
import { legacyProfileOf } from "./PoolFile.js"
import {
  accountRecord,
  barrierPending,
  entityMessageCount,
  entityOf,
  pendingBarrier,
  type AccountRecord,
  type Pool
} from "./Pool.js"

export interface ActivityEvent {
  readonly id: string
  readonly count: number
}

/** An owner confirmation or correction aimed at `speaker_id` (the target, not the speaker). */
export interface SignalEvent {
  readonly speaker_id?: unknown
  readonly event_id?: unknown
  readonly kind?: unknown
}

export interface TrustMutation {
  readonly speakerAccountId: string | undefined
  readonly activityEvents: ReadonlyArray<ActivityEvent>
  readonly signalEvents: ReadonlyArray<SignalEvent>
  readonly channel: string | undefined
}

export interface MutationOutcome {
  readonly activityApplied: number
  readonly signalsApplied: number
  readonly signalsDeferred: number
  readonly channelCollision: boolean
}

export interface TrustApplyResult {
  readonly persisted: boolean
  readonly activityApplied: number
  readonly signalsApplied: number
  readonly signalsDeferred: number
  readonly channelCollisions: ReadonlyArray<string>
  readonly perMutation: ReadonlyArray<MutationOutcome>
}

export const noOutcome: MutationOutcome = {
  activityApplied: 0,
  signalsApplied: 0,
  signalsDeferred: 0,
  channelCollision: false
}

const recordActivity = (record: AccountRecord, event: ActivityEvent, entityCount: number): boolean => {
  const id = event.id.trim().slice(0, EVENT_ID_MAX)
  const added = Math.max(0, Math.trunc(event.count))
  const cap = activityCountCap()
  if (id === "" || added === 0 || (cap > 0 && entityCount >= cap)) return false
  if (record.processed_activity_events.includes(id)) return false
  record.processed_activity_events.push(id)
  record.processed_activity_events.splice(0, Math.max(0, record.processed_activity_events.length - ACTIVITY_RING_LIMIT))
  record.message_count = Math.min(cap, record.message_count + added)
  return true
}

export const applySignal = (record: AccountRecord, event: SignalEvent): boolean => {
  const id = (typeof event.event_id === "string" ? event.event_id : "").trim().slice(0, EVENT_ID_MAX)
  if (id === "" || (event.kind !== "confirmation" && event.kind !== "correction")) return false
  if (record.processed_signal_events.includes(id)) return false
  record.processed_signal_events.push(id)
  record.adjustment += event.kind === "confirmation" ? CONFIRMATION_DELTA : -CORRECTION_DELTA
  return true
}

/** Seals `accountId` as its entity's canonical account for its platform unless one is sealed. */
export const sealCanonical = (pool: Pool, accountId: string, now: string): boolean => {
  const entityId = entityOf(pool, accountId)
  const entity = entityId === undefined ? undefined : pool.entities[entityId]
  if (entity === undefined) return false
  const canonical = (entity.canonical_accounts ??= {})
  const platform = accountPlatform(accountId)
  if (canonical[platform]?.account_id) return false
  canonical[platform] = { account_id: accountId, sealed_at: now }
  entity.updated_at = now
  return true
}

/** Records a channel observation; true only when it is new for this account (the counters ride along). */
export const observeChannel = (pool: Pool, accountId: string, channel: string | undefined, now: string): boolean => {
  if (channel === undefined) return false
  const record = accountRecord(pool, accountId, undefined)
  if (record === undefined) return false
  const platform = accountPlatform(accountId)
  const observations = (pool.channel_observations[platform] ??= {})
  const seen = record.channels_seen[channel]
  if (seen !== undefined) {
    seen.last = now
    seen.count += 1
    const stats = (observations[channel] ??= { first_seen: now, last_seen: now, accounts: 1 })
    stats.last_seen = now
    return false
  }
  record.channels_seen[channel] = { first: now, last: now, count: 1 }
  const stats = observations[channel]
  if (stats === undefined) observations[channel] = { first_seen: now, last_seen: now, accounts: 1 }
  else {
    stats.last_seen = now
    stats.accounts += 1
  }
  const channels = Object.keys(record.channels_seen)
  if (channels.length > 1) {
    const collision = (pool.channel_collisions[accountId] ??= { channels: [], detected_at: now, hits: 0 })
    collision.channels = channels.sort()
    collision.hits += 1
  }
  return true
}

export const applyMutations = (
  pool: Pool,
  mutations: ReadonlyArray<TrustMutation>,
  now: string
): { readonly dirty: boolean; readonly result: TrustApplyResult } => {
  let dirty = false
  const outcomes: Array<MutationOutcome> = []
  const collisions: Array<string> = []
  for (const m of mutations) {
    let activity = 0
    let signals = 0
    let deferred = 0
    let collision = false
    const speaker = normalizeAccountId(m.speakerAccountId)
    if (speaker !== undefined && !barrierPending(pool, accountPlatform(speaker))) {
      const record = accountRecord(pool, speaker, m.activityEvents.length > 0 ? { now } : undefined)
      if (record !== undefined) {
        if (sealCanonical(pool, speaker, now)) dirty = true
        for (const event of m.activityEvents) {
          if (recordActivity(record, event, entityMessageCount(pool, speaker))) {
            activity += 1
            dirty = true
          }
        }
        if (observeChannel(pool, speaker, normalizeChannel(m.channel), now)) dirty = true
        if (speaker in pool.channel_collisions) {
          collisions.push(speaker)
          collision = true
        }
      }
    }
    for (const event of m.signalEvents) {
      const target = normalizeAccountId(event.speaker_id)
      if (target === undefined) continue
      if (barrierPending(pool, accountPlatform(target))) {
        deferred += 1
        continue
      }
      const record = accountRecord(pool, target, { now })
      if (record !== undefined && applySignal(record, event)) {
        signals += 1
        dirty = true
      }
    }
    outcomes.push({
      activityApplied: activity,
      signalsApplied: signals,
      signalsDeferred: deferred,
      channelCollision: collision
    })
  }
  const sum = (f: (o: MutationOutcome) => number) => outcomes.reduce((s, o) => s + f(o), 0)
  return {
    dirty,
    result: {
      persisted: true,
      activityApplied: sum((o) => o.activityApplied),
      signalsApplied: sum((o) => o.signalsApplied),
      signalsDeferred: sum((o) => o.signalsDeferred),
      channelCollisions: [...new Set(collisions)],
      perMutation: outcomes
    }
  }
}

export interface LegacyImportAnswer {
  readonly imported: ReadonlyArray<string>
  readonly skipped: ReadonlyArray<{ readonly key: string; readonly reason: string }>
  readonly barrier: "pending" | "cleared"
}

/** Adds one chunk of a platform's legacy ledger; once per (source, account); `final` opens the barrier. */
export const importLegacy = (
  pool: Pool,
  input: { readonly platform: string; readonly source: string; readonly final: boolean },
  profiles: Readonly<Record<string, unknown>>,
  now: string
): { readonly dirty: boolean; readonly answer: LegacyImportAnswer } => {
  const imported: Array<string> = []
  const skipped: Array<{ key: string; reason: string }> = []
  let dirty = false
  const forgotten = new Set(Object.values(pool.forgotten).flatMap((f) => (Array.isArray(f.accounts) ? f.accounts : [])))
  for (const [bareKey, raw] of Object.entries(profiles)) {
    const accountId = normalizeAccountId(`${input.platform}:${bareKey.trim()}`)
    const key = bareKey.slice(0, 64)
    if (accountId === undefined || !Predicate.isRecord(raw)) {
      skipped.push({ key, reason: "invalid_account_id" })
      continue
    }
    if (forgotten.has(accountId)) {
      skipped.push({ key, reason: "forgotten" })
      continue
    }
    const record = accountRecord(pool, accountId, { now })
    if (record === undefined || record.legacy_import?.source === input.source) continue
    const legacy = legacyProfileOf(raw)
    record.adjustment += legacy.adjustment
    record.message_count = Math.min(activityCountCap(), record.message_count + legacy.message_count)
    record.processed_signal_events = cleanEventIds([
      ...record.processed_signal_events,
      ...legacy.processed_signal_events
    ])
    record.processed_activity_events = cleanEventIds(
      [...record.processed_activity_events, ...legacy.processed_activity_events],
      ACTIVITY_RING_LIMIT
    )
    record.legacy_import = { source: input.source, at: now }
    imported.push(accountId)
    dirty = true
  }
  const barrier = (pool.legacy_barriers[input.platform] ??= pendingBarrier(input.source, now))
  if (input.final && barrier.status !== "cleared") {
    barrier.status = "cleared"
    barrier.cleared_at = now
    dirty = true
  }
  if (imported.length > 0 || skipped.length > 0) dirty = true
  if (dirty) {
    barrier.accounts += imported.length
    barrier.skipped += skipped.length
    barrier.chunks += 1
  }
  return { dirty, answer: { imported, skipped, barrier: barrier.status } }
}

/** Opens a platform's barrier without an import (the escape hatch). */
export const waiveBarrier = (pool: Pool, platform: string, now: string): boolean => {
  const barrier = (pool.legacy_barriers[platform] ??= pendingBarrier("", now))
  if (barrier.status === "cleared") return false
  barrier.status = "cleared"
  barrier.cleared_at = now
  barrier.waived = true
  return true
}

/** Folds signal events found on fact rows (disaster recovery), skipping ones already applied or gated. */
export const foldSignals = (pool: Pool, events: ReadonlyArray<SignalEvent>, now: string) => {
  let applied = 0
  let gated = 0
  for (const event of events) {
    const target = normalizeAccountId(event.speaker_id)
    if (target === undefined) continue
    if (barrierPending(pool, accountPlatform(target))) {
      gated += 1
      continue
    }
    const record = accountRecord(pool, target, { now })
    if (record !== undefined && applySignal(record, event)) applied += 1
  }
  return { dirty: applied > 0, answer: { scanned: events.length, applied, gated } }
}
