/**
 * Hybrid recall over a character's recall corpus (neko-compat §4.10), as pure functions of the corpus, the
 * query and the clock. The pool is the union of the requested subject partitions (legacy-private when no
 * subject is given), minus disputed reflections whose evidence score is now below zero, and — when a time
 * window is given — only entries whose event interval meets the half-open window. BM25 runs over the whole
 * pool with the pool's own statistics (k1, b; keep ≥ threshold, top `budget_each`), cosine over its facts
 * and reflections when the caller supplies a query vector and a vector lookup (keep ≥ threshold, top
 * `budget_each`); each list has a relative floor (kioku's, so that one unrelated entry does not answer every
 * query; 0 keeps N.E.K.O.'s lists): BM25 drops hits below floor × its best score, cosine those below
 * mean + floor × (best − mean) of its whole list (scale-free across models). Reciprocal-rank fusion
 * Σ 1/(k + rank) merges the two lists by id (top `budget_total`, scores rounded to 6 decimals). Ties keep the pool order: active facts, reflections, archived facts.
 * Time-only recall orders the pool by (outside the window, distance in seconds, later event start first).
 */
import { score, type EvidenceTunables } from "../reflection/evidence/Evidence.js"
import { cosine } from "../reflection/evidence/Rerank.js"
import * as Bm25 from "./bm25/Bm25Index.js"
import * as Bm25Search from "./bm25/Bm25Search.js"
import type { CorpusView, Partition } from "./RecallCorpus.js"
import type { RecallEntry } from "./RecallEntry.js"
import type { RecallRow } from "./RecallTypes.js"
import type { TimeWindow } from "./TimeWindow.js"

export interface HybridTunables extends EvidenceTunables {
  readonly bm25_k1: number
  readonly bm25_b: number
  readonly hybrid_recall_budget_each: number
  readonly hybrid_recall_budget_total: number
  readonly hybrid_recall_time_budget: number
  readonly hybrid_recall_cosine_threshold: number
  readonly hybrid_recall_bm25_threshold: number
  readonly hybrid_recall_rrf_k: number
  readonly recall_bm25_relative_floor: number
  readonly recall_cosine_relative_floor: number
  readonly recall_fill_budget: boolean
}

/** The vector side of recall: the query's vector (under `modelId`) and a lookup of a memory's cached vector by id. */
export interface Vectors {
  readonly modelId: string
  readonly query: Float32Array
  readonly vectorOf: (id: string) => Float32Array | undefined
  /**
   * When given, the nonzero cosines of the query to exactly the facts and reflections of the pool of a query without
   * time window and without disputed reflections (a cold view's packed copy), computed as `cosine` does: used
   * instead of visiting every entry.
   */
  readonly pooled?: (() => Array<Bm25.Hit>) | undefined
}

export interface PoolQuery {
  /** Subject partitions to search (see `subjectMarker` in domain/Subject.ts; `legacy_private` for private memory). */
  readonly partitions: ReadonlyArray<string>
  readonly window?: TimeWindow | undefined
  readonly nowMillis: number
}

export interface HybridQuery extends PoolQuery {
  /** Recall tokens of the query (folded, names stripped). */
  readonly tokens: ReadonlyArray<string>
  readonly vectors?: Vectors | undefined
}

export interface Recalled {
  readonly rows: ReadonlyArray<RecallRow>
  readonly candidatesTotal: number
  /** The source turns (`time_indexed_original` row ids) of the rows that have them, by row id. */
  readonly sources?: ReadonlyMap<string, ReadonlyArray<number>> | undefined
}

/** Disputed reflections of the partitions whose evidence score is below zero at `nowMillis`. */
const negatives = (parts: ReadonlyArray<Partition>, nowMillis: number, t: EvidenceTunables): Set<string> => {
  const out = new Set<string>()
  for (const part of parts)
    for (const id of part.dynamic) {
      const evidence = part.members.get(id)?.evidence
      if (evidence && score(evidence, nowMillis, t) < 0) out.add(id)
    }
  return out
}

interface Pool {
  readonly parts: ReadonlyArray<Partition>
  readonly negative: ReadonlySet<string>
  readonly size: number
  readonly restriction: Bm25Search.Restriction
  readonly forEach: (f: (entry: RecallEntry) => void) => void
}

const poolOf = (corpus: CorpusView, q: PoolQuery, t: EvidenceTunables): Pool => {
  const parts = corpus.partitions(q.partitions)
  const negative = negatives(parts, q.nowMillis, t)
  const w = q.window
  if (w === undefined) {
    const size = parts.reduce((sum, p) => sum + p.members.size, 0) - negative.size
    const forEach = (f: (entry: RecallEntry) => void) => {
      for (const part of parts) for (const entry of part.members.values()) if (!negative.has(entry.id)) f(entry)
    }
    return { parts, negative, size, restriction: { _tag: "Except", ids: negative }, forEach }
  }
  // Every member of a partition is a document of its index and every timeline entry a member, so the window's
  // entries are marked by slot; their entries are looked up only when the cosine side visits them.
  const ids: Array<Array<string>> = parts.map(() => [])
  let size = 0
  let totalLength = 0
  const marks = parts.map((part, v) => {
    const mask = new Uint8Array(part.index.slots())
    const inWindow = ids[v] ?? []
    part.timeline.overlapping(w.start, w.end, (id) => {
      if (negative.size > 0 && negative.has(id)) return true
      const slot = part.index.slotOf(id)
      if (slot === undefined || mask[slot] === 1) return true
      mask[slot] = 1
      inWindow.push(id)
      size++
      totalLength += part.index.lengthOf(id) ?? 0
      return true
    })
    return mask
  })
  const forEach = (f: (entry: RecallEntry) => void) =>
    parts.forEach((part, v) => {
      for (const id of ids[v] ?? []) {
        const entry = part.members.get(id)
        if (entry !== undefined) f(entry)
      }
    })
  return { parts, negative, size, restriction: { _tag: "Only", marks, size, totalLength }, forEach }
}

const entryOf = (parts: ReadonlyArray<Partition>, id: string) =>
  parts.map((p) => p.members.get(id)).find((e) => e !== undefined)

/**
 * The best `limit` of `ranked` by score (then pool order) among those at or above `threshold` and at or above
 * `floor` × the best score of the list, in one pass.
 */
const top = <R extends Bm25.Hit>(
  corpus: CorpusView,
  ranked: ReadonlyArray<R>,
  threshold: number,
  limit: number,
  floor: number
) => {
  const best: Array<R> = []
  const before = (a: R, b: R) => a.score > b.score || (a.score === b.score && corpus.order(a.id) < corpus.order(b.id))
  for (const r of ranked) {
    if (r.score < threshold || limit <= 0) continue
    const last = best[best.length - 1]
    if (best.length >= limit && last !== undefined && !before(r, last)) continue
    let i = best.length
    while (i > 0 && before(r, best[i - 1] ?? r)) i--
    best.splice(i, 0, r)
    if (best.length > limit) best.pop()
  }
  const cut = (best[0]?.score ?? 0) * floor
  return floor > 0 ? best.filter((r) => r.score >= cut) : best
}

const row = (entry: RecallEntry, s: number | null): RecallRow => ({
  id: entry.id,
  text: entry.text,
  tier: entry.tier,
  entity: entry.entity,
  subject_kind: entry.subjectKind,
  subject_id: entry.subjectId,
  scope: entry.scope ?? "legacy_private",
  score: s,
  created_at: entry.createdAt,
  event_start_at: entry.eventStartAt,
  event_end_at: entry.eventEndAt
})

/** Reciprocal-rank fusion of ranked lists: first-seen order breaks ties, then the top `total`. */
export const fuse = <A extends { readonly id: string }>(
  lists: ReadonlyArray<ReadonlyArray<A>>,
  k: number,
  total: number
): Array<{ readonly item: A; readonly score: number }> => {
  const fused = new Map<string, { item: A; score: number }>()
  for (const list of lists)
    list.forEach((item, i) => {
      const current = fused.get(item.id)
      const add = 1 / (k + i + 1)
      if (current) current.score += add
      else fused.set(item.id, { item, score: add })
    })
  return [...fused.values()].sort((a, b) => b.score - a.score).slice(0, Math.max(0, total))
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6

/** BM25 + cosine + RRF over the pool; no query tokens and no vectors find nothing. */
export const hybridRecall = (corpus: CorpusView, q: HybridQuery, t: HybridTunables): Recalled => {
  const pool = poolOf(corpus, q, t)
  // Each list ranked once, as deep as the fill may need; its first `budget_each` hits are N.E.K.O.'s list
  // (scores descend, so the relative floor keeps a prefix and the two cuts commute).
  const each = t.hybrid_recall_budget_each
  const depth = t.recall_fill_budget ? Math.max(each, t.hybrid_recall_budget_total) : each
  const bm25 = Bm25Search.search(
    pool.parts.map((p) => p.index),
    q.tokens,
    { k1: t.bm25_k1, b: t.bm25_b },
    pool.restriction,
    depth
  )
  const lexical = top(corpus, bm25, t.hybrid_recall_bm25_threshold, depth, t.recall_bm25_relative_floor).flatMap(
    (h) => {
      const entry = entryOf(pool.parts, h.id)
      return entry ? [entry] : []
    }
  )
  const semantic = q.vectors
    ? top(
        corpus,
        aboveSpread(cosineRanked(pool, q, q.vectors), t.recall_cosine_relative_floor),
        t.hybrid_recall_cosine_threshold,
        depth,
        0
      ).flatMap((h) => {
        const entry = entryOf(pool.parts, h.id)
        return entry ? [entry] : []
      })
    : []
  const fuseAt = (budget: number) =>
    fuse([lexical.slice(0, budget), semantic.slice(0, budget)], t.hybrid_recall_rrf_k, t.hybrid_recall_budget_total)
  const fused = fuseAt(each)
  // Beyond N.E.K.O. (`recall_fill_budget`): when the per-list budgets leave the answer short of the total, each
  // list may give more of the hits that cleared its floors, so relevant rows are not left out for want of room.
  const answer = depth > each && fused.length < t.hybrid_recall_budget_total ? fuseAt(depth) : fused
  const sources = new Map<string, ReadonlyArray<number>>()
  for (const f of answer) if (f.item.sourceRowIds.length > 0) sources.set(f.item.id, f.item.sourceRowIds)
  return { rows: answer.map((f) => row(f.item, round6(f.score))), candidatesTotal: pool.size, sources }
}

/**
 * The hits at or above mean + `floor` × (best − mean) of the whole list: a floor relative to the list's own
 * spread, so it means the same for models whose cosines live in different ranges; `floor` 0 keeps all.
 */
const aboveSpread = <R extends Bm25.Hit>(ranked: ReadonlyArray<R>, floor: number): ReadonlyArray<R> => {
  if (floor <= 0 || ranked.length === 0) return ranked
  let best = -Infinity
  let sum = 0
  for (const r of ranked) {
    sum += r.score
    if (r.score > best) best = r.score
  }
  const mean = sum / ranked.length
  const cut = mean + floor * (best - mean)
  return ranked.filter((r) => r.score >= cut)
}

/** Cosine of the query vector to every fact and reflection of the pool that has a vector of its size. */
const cosineRanked = (pool: Pool, q: HybridQuery, vectors: Vectors): Array<Bm25.Hit> => {
  if (vectors.pooled && q.window === undefined && pool.negative.size === 0) return vectors.pooled()
  const out: Array<Bm25.Hit> = []
  pool.forEach((entry) => {
    if (entry.tier === "fact_archive") return
    const v = vectors.vectorOf(entry.id)
    if (v === undefined || v.length !== vectors.query.length) return
    const c = cosine(vectors.query, v)
    if (c !== 0) out.push({ id: entry.id, score: c })
  })
  return out
}

interface Near {
  readonly entry: RecallEntry
  readonly outside: number
  readonly distance: number
  readonly from: number
}

/**
 * Time-only recall: the pool entries nearest to the window — inside first (latest start first), then by
 * distance in seconds — found on each partition's timeline without visiting entries that cannot make it.
 */
export const recallByTime = (
  corpus: CorpusView,
  q: PoolQuery & { readonly window: TimeWindow },
  t: HybridTunables
): Recalled => {
  const pool = poolOf(corpus, { partitions: q.partitions, nowMillis: q.nowMillis }, t)
  const { negative } = pool
  const { start, end } = q.window
  const limit = Math.max(0, t.hybrid_recall_time_budget)
  const before = (a: Near, b: Near) =>
    a.outside - b.outside ||
    a.distance - b.distance ||
    b.from - a.from ||
    corpus.order(a.entry.id) - corpus.order(b.entry.id)
  const best: Array<Near> = []
  const worst = () => (best.length >= limit ? best[best.length - 1] : undefined)
  const offer = (near: Near) => {
    const last = worst()
    if (limit === 0 || (last !== undefined && before(near, last) >= 0)) return
    let i = best.length
    while (i > 0 && before(near, best[i - 1] ?? near) < 0) i--
    best.splice(i, 0, near)
    if (best.length > limit) best.pop()
  }
  for (const part of pool.parts) {
    const entry = (id: string) => (negative.has(id) ? undefined : part.members.get(id))
    part.timeline.overlapping(start, end, (id, s) => {
      const w = worst()
      if (w !== undefined && w.outside === 0 && s < w.from) return false
      const e = entry(id)
      if (e) offer({ entry: e, outside: 0, distance: 0, from: s })
      return true
    })
    part.timeline.startingFrom(end, (id, s) => {
      const distance = (s - end) / 1000
      const w = worst()
      if (w !== undefined && (w.outside === 0 || distance > w.distance)) return false
      const e = entry(id)
      if (e) offer({ entry: e, outside: 1, distance, from: s })
      return true
    })
    part.timeline.endingBefore(start, (id, finish, bound) => {
      const w = worst()
      if (w !== undefined && (w.outside === 0 || bound / 1000 > w.distance)) return false
      const e = entry(id)
      if (e?.window) offer({ entry: e, outside: 1, distance: (start - finish) / 1000, from: e.window[0] })
      return true
    })
  }
  return { rows: best.map((n) => row(n.entry, null)), candidatesTotal: pool.size }
}
