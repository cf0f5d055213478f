/**
 * An incremental in-memory inverted index scored with Okapi BM25 (neko-compat §4.10): documents are added,
 * replaced and removed by id with their token multiset, and the corpus statistics (N, total length, per-term
 * document frequency) move with every change, so a query never rescans or re-tokenizes the corpus. Scoring
 * follows N.E.K.O.: idf = ln((N − n + 0.5) / (n + 0.5) + 1), terms with idf ≤ 0 skipped, only documents
 * with a positive score returned. `search` may combine several indexes (one per subject partition) and
 * restrict the corpus (`Except` a few ids, or `Only` those a predicate keeps); the statistics are then those
 * of the restricted union, as if the pool had been filtered before scoring. Concept terms (`§…`, Concepts.ts)
 * annotate a document without lengthening it. `search` reads indexes through `Bm25View`, which the on-disk
 * recall index also offers (RecallIndex.ts); `terms` / `termsOf` let it copy an in-memory index.
 */
import { CONCEPT_MARK } from "./Concepts.js"

interface Term {
  readonly term: string
  /** Document slot → term frequency. */
  readonly postings: Map<number, number>
}

interface Doc {
  readonly id: string
  readonly length: number
  readonly terms: ReadonlyArray<Term>
}

export interface Bm25Params {
  readonly k1: number
  readonly b: number
}

export interface Hit {
  readonly id: string
  readonly score: number
}

/** What a search reads of an index (an in-memory index, or a lazy view of the on-disk one). */
export interface Bm25View {
  /** Number of documents (including those without any token). */
  readonly size: () => number
  readonly totalLength: () => number
  readonly has: (id: string) => boolean
  readonly lengthOf: (id: string) => number | undefined
  readonly df: (term: string) => number
  readonly tf: (id: string, term: string) => number
  readonly forEachPosting: (term: string, f: (id: string, tf: number, length: number) => void) => void
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

export const make = (): Bm25Index => {
  const vocab = new Map<string, Term>()
  const slots = new Map<string, number>()
  const docs: Array<Doc | undefined> = []
  const free: Array<number> = []
  let total = 0

  const remove = (id: string) => {
    const slot = slots.get(id)
    if (slot === undefined) return
    const doc = docs[slot]
    if (doc) {
      for (const term of doc.terms) {
        term.postings.delete(slot)
        if (term.postings.size === 0) vocab.delete(term.term)
      }
      total -= doc.length
    }
    docs[slot] = undefined
    slots.delete(id)
    free.push(slot)
  }

  const upsert = (id: string, tokens: ReadonlyArray<string>) => {
    const counts = new Map<string, number>()
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1)
    upsertWeights(id, counts)
  }

  const upsertWeights = (id: string, counts: ReadonlyMap<string, number>) => {
    remove(id)
    const slot = free.pop() ?? docs.length
    let length = 0
    const terms: Array<Term> = []
    for (const [t, n] of counts) {
      let term = vocab.get(t)
      if (term === undefined) {
        term = { term: t, postings: new Map() }
        vocab.set(t, term)
      }
      term.postings.set(slot, n)
      terms.push(term)
      if (!t.startsWith(CONCEPT_MARK)) length += n
    }
    docs[slot] = { id, length, terms }
    slots.set(id, slot)
    total += length
  }

  const docOf = (id: string) => {
    const slot = slots.get(id)
    return slot === undefined ? undefined : docs[slot]
  }

  return {
    size: () => slots.size,
    totalLength: () => total,
    has: (id) => slots.has(id),
    lengthOf: (id) => docOf(id)?.length,
    upsert,
    upsertWeights,
    remove,
    df: (term) => vocab.get(term)?.postings.size ?? 0,
    tf: (id, term) => {
      const slot = slots.get(id)
      return slot === undefined ? 0 : (vocab.get(term)?.postings.get(slot) ?? 0)
    },
    forEachPosting: (term, f) => {
      const postings = vocab.get(term)?.postings
      if (postings === undefined) return
      for (const [slot, n] of postings) {
        const doc = docs[slot]
        if (doc) f(doc.id, n, doc.length)
      }
    },
    terms: () => vocab.keys(),
    termsOf: (id) => {
      const slot = slots.get(id)
      const doc = slot === undefined ? undefined : docs[slot]
      if (slot === undefined || doc === undefined) return []
      return doc.terms.map((t) => [t.term, t.postings.get(slot) ?? 0] as const)
    }
  }
}

/**
 * Which documents of the indexes form the pool: all but a (small) set of ids, or those `keep` accepts — the
 * caller, who found them, also gives their number and total length.
 */
export type Restriction =
  | { readonly _tag: "Except"; readonly ids: ReadonlySet<string> }
  | {
      readonly _tag: "Only"
      readonly keep: (id: string) => boolean
      readonly size: number
      readonly totalLength: number
    }

const everything: Restriction = { _tag: "Except", ids: new Set() }

const uniqueInOrder = (tokens: ReadonlyArray<string>): Array<string> => [...new Set(tokens)]

/**
 * BM25 scores of the pool's documents for `query` (tokens, multiplicity ignored), unsorted; only documents
 * with a score above zero. An empty pool, an empty query or a pool without any token yields nothing.
 */
export const search = (
  indexes: ReadonlyArray<Bm25View>,
  query: ReadonlyArray<string>,
  params: Bm25Params,
  restriction: Restriction = everything
): Array<Hit> => {
  const terms = uniqueInOrder(query)
  if (terms.length === 0 || indexes.length === 0) return []
  const inPool = restriction._tag === "Only" ? restriction.keep : (id: string) => !restriction.ids.has(id)
  let n = 0
  let totalLength = 0
  if (restriction._tag === "Only") {
    n = restriction.size
    totalLength = restriction.totalLength
  } else {
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
  }
  if (n <= 0 || totalLength <= 0) return []
  const avgdl = totalLength / n
  const documentFrequency = (term: string): number => {
    if (restriction._tag === "Except") {
      let df = indexes.reduce((sum, i) => sum + i.df(term), 0)
      for (const id of restriction.ids) if (indexes.some((i) => i.tf(id, term) > 0)) df--
      return df
    }
    let df = 0
    for (const index of indexes)
      index.forEachPosting(term, (id) => {
        if (restriction.keep(id)) df++
      })
    return df
  }
  const { k1, b } = params
  const scores = new Map<string, number>()
  for (const term of terms) {
    const df = documentFrequency(term)
    if (df <= 0) continue
    const idf = Math.log((n - df + 0.5) / (df + 0.5) + 1)
    if (idf <= 0) continue
    for (const index of indexes)
      index.forEachPosting(term, (id, tf, length) => {
        if (!inPool(id)) return
        const norm = 1 - b + (b * length) / avgdl
        scores.set(id, (scores.get(id) ?? 0) + (idf * (tf * (k1 + 1))) / (tf + k1 * norm))
      })
  }
  const hits: Array<Hit> = []
  for (const [id, score] of scores) if (score > 0) hits.push({ id, score })
  return hits
}
