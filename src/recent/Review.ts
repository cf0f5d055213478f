/**
 * Pure rules of the recent-history review (neko-compat §4.1 item 10): its gates, its persisted bookkeeping
 * (`review_state.json`, kioku's per-character form of N.E.K.O.'s idle-maintenance entry), mapping the
 * model's roles back to stored messages, and locating the reviewed run in the current history.
 */
import { Schema } from "effect"
import { createHash } from "node:crypto"
import { contentText, type StoredMessage } from "../domain/Message.js"
import { fingerprint } from "./Compression.js"

const TailItem = Schema.Struct({ type: Schema.String, content: Schema.String, content_sha256: Schema.String })

export const ReviewState = Schema.Struct({
  review_clean: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  last_review_ts: Schema.optionalWith(Schema.NullOr(Schema.Number), { default: () => null }),
  last_reviewed_cutoff_tail: Schema.optionalWith(Schema.Array(TailItem), { default: () => [] }),
  review_fail_attempts: Schema.optionalWith(Schema.Number, { default: () => 0 }),
  review_fail_fp: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  review_output_exhaustion_attempts: Schema.optionalWith(Schema.Number, { default: () => 0 }),
  review_output_exhaustion_min_context_tokens: Schema.optionalWith(Schema.NullOr(Schema.Number), {
    default: () => null
  })
})
export type ReviewState = typeof ReviewState.Type
export const emptyReviewState: ReviewState = Schema.decodeSync(ReviewState)({})

export const tailOf = (items: ReadonlyArray<StoredMessage>): Array<typeof TailItem.Type> =>
  items.slice(-3).map((m) => {
    const text = contentText(m.data.content)
    return { type: m.type, content: text.slice(0, 50), content_sha256: createHash("sha256").update(text).digest("hex") }
  })

const sameTail = (a: typeof TailItem.Type, b: typeof TailItem.Type) =>
  a.type === b.type && a.content_sha256 === b.content_sha256

/** Human messages after the last reviewed cutoff (all of them when the cutoff is not found). */
export const newUserMessages = (items: ReadonlyArray<StoredMessage>, cutoff: ReadonlyArray<typeof TailItem.Type>) => {
  let from = 0
  if (cutoff.length > 0) {
    for (let end = items.length; end >= cutoff.length; end--) {
      const tail = tailOf(items.slice(0, end))
      if (tail.length === cutoff.length && tail.every((t, i) => sameTail(t, cutoff[i] ?? t))) {
        from = end
        break
      }
    }
  }
  return items.slice(from).filter((m) => m.type === "human").length
}

export interface GateInput {
  readonly state: ReviewState
  readonly items: ReadonlyArray<StoredMessage>
  readonly nowMillis: number
  readonly lastActivityMillis: number
  readonly enabled: boolean
  readonly inFlight: boolean
  readonly contextTokens: number
}

export interface GateTunables {
  readonly review_skip_history_len: number
  readonly review_min_interval_seconds: number
  readonly min_new_msgs_for_review: number
  readonly long_idle_review_bypass_seconds: number
  readonly memory_review_output_exhaustion_max_attempts: number
  readonly memory_liveness_max_attempts: number
}

export type Gate = "ok" | "in_flight" | "disabled" | "too_short" | "too_soon" | "not_enough_new" | "paused" | "failing"

export const reviewGate = (g: GateInput, t: GateTunables): Gate => {
  if (g.inFlight) return "in_flight"
  if (!g.enabled) return "disabled"
  if (g.items.length < t.review_skip_history_len) return "too_short"
  if (g.state.last_review_ts !== null && g.nowMillis - g.state.last_review_ts < t.review_min_interval_seconds * 1000) {
    return "too_soon"
  }
  const fresh = newUserMessages(g.items, g.state.last_reviewed_cutoff_tail)
  const longIdle = g.nowMillis - g.lastActivityMillis >= t.long_idle_review_bypass_seconds * 1000
  if (fresh < t.min_new_msgs_for_review && !(fresh >= 1 && longIdle)) return "not_enough_new"
  const minFailing = g.state.review_output_exhaustion_min_context_tokens
  if (
    g.state.review_output_exhaustion_attempts >= t.memory_review_output_exhaustion_max_attempts &&
    (minFailing === null || g.contextTokens >= minFailing)
  ) {
    return "paused"
  }
  if (g.state.review_fail_attempts >= t.memory_liveness_max_attempts && g.state.review_fail_fp === tailKey(g.items)) {
    return "failing"
  }
  return "ok"
}

export const tailKey = (items: ReadonlyArray<StoredMessage>): string =>
  createHash("sha256")
    .update(
      tailOf(items)
        .map((t) => `${t.type}:${t.content_sha256}`)
        .join("|")
    )
    .digest("hex")

/** Maps reviewed messages back to stored ones; `undefined` is a white review (nothing to write). */
export const mapReviewed = (
  corrected: ReadonlyArray<{ readonly role: string; readonly content: string }>,
  snapshotHadMemo: boolean,
  names: { readonly master: string; readonly character: string }
): Array<StoredMessage> | undefined => {
  const out: Array<StoredMessage> = []
  let memo: StoredMessage | undefined
  for (const m of corrected) {
    const role = m.role.trim().toLowerCase()
    if (role === "system") {
      if (snapshotHadMemo && memo === undefined) memo = { type: "system", data: { content: m.content } }
      continue
    }
    const ai = role === "ai" || role === "assistant" || m.role === names.character
    out.push({ type: ai ? "ai" : "human", data: { content: m.content } })
  }
  if (out.length === 0) return undefined
  return memo ? [memo, ...out] : out
}

/**
 * Where the reviewed snapshot still stands in `current`: the unique place of its last (up to 3) items, and
 * how many of its items run contiguously up to there (`capacity`).
 */
export const locateRun = (
  current: ReadonlyArray<StoredMessage>,
  snapshot: ReadonlyArray<string>
): { readonly start: number; readonly capacity: number } | undefined => {
  const anchor = snapshot.slice(-3)
  const fps = current.map(fingerprint)
  const ends: Array<number> = []
  for (let end = anchor.length - 1; end < fps.length; end++) {
    if (anchor.every((a, i) => fps[end - anchor.length + 1 + i] === a)) ends.push(end)
  }
  const end = ends.length === 1 ? ends[0] : undefined
  if (end === undefined) return undefined
  let capacity = 0
  while (
    capacity < snapshot.length &&
    end - capacity >= 0 &&
    fps[end - capacity] === snapshot[snapshot.length - 1 - capacity]
  ) {
    capacity++
  }
  return { start: end - capacity + 1, capacity }
}
