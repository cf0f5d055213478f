/**
 * An incremental in-memory inverted index scored with Okapi BM25 (neko-compat §4.10): documents are added,
 * replaced and removed by id with their token multiset, and the corpus statistics (N, total length, per-term
 * document frequency) move with every change, so a query never rescans or re-tokenizes the corpus. Scoring
 * follows N.E.K.O.: idf = ln((N − n + 0.5) / (n + 0.5) + 1), terms with idf ≤ 0 skipped, only documents
 * with a positive score returned. `search` may combine several indexes (one per subject partition) and
 * restrict the corpus (`Except` a few ids, or `Only` the slots a mask marks); the statistics are then those
 * of the restricted union, as if the pool had been filtered before scoring. Concept terms (`§…`, Concepts.ts)
 * annotate a document without lengthening it. `search` reads indexes through `Bm25View`, which the on-disk
 * recall index also offers (RecallIndex.ts); `terms` / `termsOf` let it copy an in-memory index.
 *
 * Documents are numbered by slot; a term's postings are parallel typed arrays (slot, frequency) in the order
 * they were added, which a search reads without a callback or a string key per posting. A removed document's
 * slot is not reused: its postings stay behind as dead entries until dead slots outnumber live ones, when
 * every list is compacted and the slots renumbered.
 */
import { CONCEPT_MARK } from "./Concepts.js"

interface Term {
  readonly term: string
  slots: Int32Array
  tfs: Float64Array
  /** Entries used in `slots`/`tfs`, dead ones included. */
  used: number
  /** Live documents holding the term (its document frequency). */
  live: number
}

interface Doc {
  readonly id: string
  readonly length: number
  readonly terms: ReadonlyArray<readonly [Term, number]>
}

export interface Bm25Params {
  readonly k1: number
  readonly b: number
}

export interface Hit {
  readonly id: string
  readonly score: number
}

/** `into` (a larger array) with the first `used` values of `a` copied in. */
const grown = <A extends Int32Array | Float64Array>(a: A, into: A, used = a.length): A => {
  into.set(a.subarray(0, used))
  return into
}

/** Postings of one term gathered for a search: slot, frequency and document length, `n` of them. */
export class Gathered {
  slots = new Int32Array(64)
  tfs = new Float64Array(64)
  lengths = new Float64Array(64)
  n = 0
  /** Room for `more` further postings. */
  reserve(more: number): void {
    if (this.n + more <= this.slots.length) return
    const size = Math.max(this.n + more, this.slots.length * 2)
    this.slots = grown(this.slots, new Int32Array(size), this.n)
    this.tfs = grown(this.tfs, new Float64Array(size), this.n)
    this.lengths = grown(this.lengths, new Float64Array(size), this.n)
  }
}

/** What a search reads of an index (an in-memory index, or a lazy view of the on-disk one). */
export interface Bm25View {
  /** Number of documents (including those without any token). */
  readonly size: () => number
  readonly totalLength: () => number
  readonly has: (id: string) => boolean
  readonly lengthOf: (id: string) => number | undefined
  readonly df: (term: string) => number
  readonly forEachPosting: (term: string, f: (id: string, tf: number, length: number) => void) => void
  /** One past the largest slot a document of the view can have (slots number its documents from 0). */
  readonly slots: () => number
  readonly slotOf: (id: string) => number | undefined
  readonly idAt: (slot: number) => string | undefined
  /** Appends the term's postings to `out`, but those whose slot `mask` leaves unmarked or `skip` holds. */
  readonly gather: (term: string, out: Gathered, mask?: Uint8Array, skip?: ReadonlySet<number>) => void
}

export interface Bm25Index extends Bm25View {
  /** Adds the document, or replaces its tokens if the id is already indexed. */
  readonly upsert: (id: string, tokens: ReadonlyArray<string>) => void
  /** `upsert` with (possibly fractional) term weights; the length is their sum. */
  readonly upsertWeights: (id: string, weights: ReadonlyMap<string, number>) => void
  readonly remove: (id: string) => void
  /** The indexed terms (any order). */
  readonly terms: () => IterableIterator<string>
  /** The terms of a document with their frequencies (empty for an unknown id). */
  readonly termsOf: (id: string) => Array<readonly [string, number]>
}

/** Each token's frequency in a document. */
export const termCounts = (tokens: ReadonlyArray<string>): Map<string, number> => {
  const counts = new Map<string, number>()
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1)
  return counts
}

/** A document's BM25 length: the sum of its term weights, concept terms left out. */
export const weightLength = (counts: ReadonlyMap<string, number>): number => {
  let length = 0
  for (const [t, n] of counts) if (!t.startsWith(CONCEPT_MARK)) length += n
  return length
}

const DEAD = -1

export const make = (): Bm25Index => {
  const vocab = new Map<string, Term>()
  const slotById = new Map<string, number>()
  let docs: Array<Doc | undefined> = []
  /** Document length by slot, DEAD for a removed document. */
  let lengths = new Float64Array(64)
  let total = 0

  const append = (term: Term, slot: number, tf: number) => {
    if (term.used === term.slots.length) {
      term.slots = grown(term.slots, new Int32Array(term.used * 2))
      term.tfs = grown(term.tfs, new Float64Array(term.used * 2))
    }
    term.slots[term.used] = slot
    term.tfs[term.used] = tf
    term.used++
  }

  /** Renumbers the live documents from 0 and drops the dead entries of every list. */
  const compact = () => {
    const renumber = new Int32Array(docs.length).fill(DEAD)
    const kept: Array<Doc | undefined> = []
    docs.forEach((doc, slot) => {
      if (doc === undefined) return
      renumber[slot] = kept.length
      slotById.set(doc.id, kept.length)
      kept.push(doc)
    })
    for (const term of vocab.values()) {
      let w = 0
      for (let r = 0; r < term.used; r++) {
        const to = renumber[term.slots[r] ?? 0] ?? DEAD
        if (to === DEAD) continue
        term.slots[w] = to
        term.tfs[w] = term.tfs[r] ?? 0
        w++
      }
      term.used = w
    }
    docs = kept
    lengths = new Float64Array(Math.max(64, kept.length * 2))
    kept.forEach((doc, slot) => (lengths[slot] = doc?.length ?? DEAD))
  }

  const remove = (id: string) => {
    const slot = slotById.get(id)
    if (slot === undefined) return
    const doc = docs[slot]
    if (doc) {
      for (const [term] of doc.terms) if (--term.live === 0) vocab.delete(term.term)
      total -= doc.length
    }
    docs[slot] = undefined
    lengths[slot] = DEAD
    slotById.delete(id)
    if (docs.length > 1024 && docs.length > 2 * slotById.size) compact()
  }

  const upsert = (id: string, tokens: ReadonlyArray<string>) => upsertWeights(id, termCounts(tokens))

  const upsertWeights = (id: string, counts: ReadonlyMap<string, number>) => {
    remove(id)
    const slot = docs.length
    const length = weightLength(counts)
    const terms: Array<readonly [Term, number]> = []
    for (const [t, n] of counts) {
      let term = vocab.get(t)
      if (term === undefined) {
        term = { term: t, slots: new Int32Array(4), tfs: new Float64Array(4), used: 0, live: 0 }
        vocab.set(t, term)
      }
      append(term, slot, n)
      term.live++
      terms.push([term, n])
    }
    docs.push({ id, length, terms })
    if (slot >= lengths.length) lengths = grown(lengths, new Float64Array(lengths.length * 2))
    lengths[slot] = length
    slotById.set(id, slot)
    total += length
  }

  const docOf = (id: string) => {
    const slot = slotById.get(id)
    return slot === undefined ? undefined : docs[slot]
  }

  return {
    size: () => slotById.size,
    totalLength: () => total,
    has: (id) => slotById.has(id),
    lengthOf: (id) => docOf(id)?.length,
    upsert,
    upsertWeights,
    remove,
    df: (term) => vocab.get(term)?.live ?? 0,
    forEachPosting: (term, f) => {
      const t = vocab.get(term)
      if (t === undefined) return
      for (let i = 0; i < t.used; i++) {
        const doc = docs[t.slots[i] ?? 0]
        if (doc) f(doc.id, t.tfs[i] ?? 0, doc.length)
      }
    },
    slots: () => docs.length,
    slotOf: (id) => slotById.get(id),
    idAt: (slot) => docs[slot]?.id,
    gather: (term, out, mask, skip) => {
      const t = vocab.get(term)
      if (t === undefined) return
      out.reserve(t.used)
      const { slots, tfs } = t
      const withSkip = skip !== undefined && skip.size > 0 ? skip : undefined
      let n = out.n
      for (let i = 0; i < t.used; i++) {
        const slot = slots[i] ?? 0
        const length = lengths[slot] ?? DEAD
        if (length === DEAD) continue
        if (mask !== undefined ? mask[slot] !== 1 : withSkip !== undefined && withSkip.has(slot)) continue
        out.slots[n] = slot
        out.tfs[n] = tfs[i] ?? 0
        out.lengths[n] = length
        n++
      }
      out.n = n
    },
    terms: () => vocab.keys(),
    termsOf: (id) => docOf(id)?.terms.map(([t, n]) => [t.term, n] as const) ?? []
  }
}

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
