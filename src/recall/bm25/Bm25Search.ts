/**
 * The BM25 search over one or more indexes (one per subject partition, Bm25Index.ts), scored as N.E.K.O. scores
 * (neko-compat §4.10). The pool may be restricted (`Except` a few ids, or `Only` the slots a mask marks); the
 * statistics are then those of the restricted union, as if the pool had been filtered before scoring.
 */
import { Gathered, type Bm25Params, type Bm25View, type Hit } from "./Bm25Index.js"

/**
 * Which documents of the indexes form the pool: all but a (small) set of ids, or those whose slot is marked in
 * `marks` (one mask per index, in the order of the indexes searched) — the caller, who found them, also gives
 * their number and total length.
 */
export type Restriction =
  | { readonly _tag: "Except"; readonly ids: ReadonlySet<string> }
  | {
      readonly _tag: "Only"
      readonly marks: ReadonlyArray<Uint8Array>
      readonly size: number
      readonly totalLength: number
    }

const everything: Restriction = { _tag: "Except", ids: new Set() }

/** A mask of `index`'s slots with those of `ids` set (for an `Only` restriction). */
export const marksOf = (index: Bm25View, ids: Iterable<string>): Uint8Array => {
  const marks = new Uint8Array(index.slots())
  for (const id of ids) {
    const slot = index.slotOf(id)
    if (slot !== undefined && slot < marks.length) marks[slot] = 1
  }
  return marks
}

/** The pool's size and total length. */
const statistics = (indexes: ReadonlyArray<Bm25View>, restriction: Restriction) => {
  if (restriction._tag === "Only") return { n: restriction.size, totalLength: restriction.totalLength }
  let n = 0
  let totalLength = 0
  for (const index of indexes) {
    n += index.size()
    totalLength += index.totalLength()
  }
  for (const id of restriction.ids) {
    const length = indexes.map((i) => i.lengthOf(id)).find((l) => l !== undefined)
    if (length === undefined) continue
    n--
    totalLength -= length
  }
  return { n, totalLength }
}

/** The `k`-th largest of the sums at the touched slots (0 when fewer are touched). */
const kthLargest = (sums: ReadonlyArray<Float64Array>, touched: ReadonlyArray<ReadonlyArray<number>>, k: number) => {
  const best = new Float64Array(k)
  let count = 0
  sums.forEach((sum, v) => {
    for (const slot of touched[v] ?? []) {
      const score = sum[slot] ?? 0
      if (count === k && score <= (best[k - 1] ?? 0)) continue
      let i = count < k ? count++ : k - 1
      while (i > 0 && (best[i - 1] ?? 0) < score) {
        best[i] = best[i - 1] ?? 0
        i--
      }
      best[i] = score
    }
  })
  return count < k ? 0 : (best[k - 1] ?? 0)
}

/**
 * BM25 scores of the pool's documents for `query` (tokens, multiplicity ignored), unsorted; only documents
 * with a score above zero, and with `limit` only those scoring at least the `limit`-th best score (ties kept, so
 * the caller's order among equal scores decides). An empty pool, an empty query or a pool without any token
 * yields nothing. A term's postings in the pool are gathered once (their count is its document frequency), then
 * added to per-slot sums, term by term, so each document's score is summed in query order.
 */
export const search = (
  indexes: ReadonlyArray<Bm25View>,
  query: ReadonlyArray<string>,
  params: Bm25Params,
  restriction: Restriction = everything,
  limit?: number
): Array<Hit> => {
  const terms = [...new Set(query)]
  if (terms.length === 0 || indexes.length === 0 || (limit !== undefined && limit <= 0)) return []
  const { n, totalLength } = statistics(indexes, restriction)
  if (n <= 0 || totalLength <= 0) return []
  const avgdl = totalLength / n
  const skips = indexes.map((index) => {
    const out = new Set<number>()
    if (restriction._tag === "Except")
      for (const id of restriction.ids) {
        const slot = index.slotOf(id)
        if (slot !== undefined) out.add(slot)
      }
    return out
  })
  const marks = restriction._tag === "Only" ? restriction.marks : undefined
  const sums = indexes.map((index) => new Float64Array(index.slots()))
  const touched: Array<Array<number>> = indexes.map(() => [])
  const found = new Gathered()
  const { k1, b } = params
  for (const term of terms) {
    found.n = 0
    const ends = indexes.map((index, v) => {
      index.gather(term, found, marks?.[v], skips[v])
      return found.n
    })
    const df = found.n
    if (df <= 0) continue
    const idf = Math.log((n - df + 0.5) / (df + 0.5) + 1)
    if (idf <= 0) continue
    let at = 0
    ends.forEach((end, v) => {
      const sum = sums[v] ?? new Float64Array(0)
      const seen = touched[v] ?? []
      for (; at < end; at++) {
        const slot = found.slots[at] ?? 0
        const tf = found.tfs[at] ?? 0
        const norm = 1 - b + (b * (found.lengths[at] ?? 0)) / avgdl
        const before = sum[slot] ?? 0
        if (before === 0) seen.push(slot)
        sum[slot] = before + (idf * (tf * (k1 + 1))) / (tf + k1 * norm)
      }
    })
  }
  const floor = limit === undefined ? 0 : kthLargest(sums, touched, limit)
  const hits: Array<Hit> = []
  indexes.forEach((index, v) => {
    const sum = sums[v]
    for (const slot of touched[v] ?? []) {
      const score = sum?.[slot] ?? 0
      if (score <= 0 || score < floor) continue
      const id = index.idAt(slot)
      if (id !== undefined) hits.push({ id, score })
    }
  })
  return hits
}
