/**
 * An incremental in-memory inverted index scored with Okapi BM25 (neko-compat §4.10): documents are added,
 * replaced and removed by id with their token multiset, and the corpus statistics (N, total length, per-term
 * document frequency) move with every change, so a query never rescans or re-tokenizes the corpus. Scoring
 * follows N.E.K.O.: idf = ln((N − n + 0.5) / (n + 0.5) + 1), terms with idf ≤ 0 skipped, only documents
 * with a positive score returned (the search is Bm25Search.ts). Concept terms (`§…`, Concepts.ts) annotate a
 * document without lengthening it. A search reads indexes through `Bm25View`, which the on-disk recall index
 * also offers (index/RecallIndex.ts); `terms` / `termsOf` let it copy an in-memory index.
 *
 * Documents are numbered by slot; a term's postings are parallel typed arrays (slot, frequency) in the order
 * they were added, which a search reads without a callback or a string key per posting. A removed document's
 * slot is not reused: its postings stay behind as dead entries until dead slots outnumber live ones, when
 * every list is compacted and the slots renumbered.
 */
import { CONCEPT_MARK } from "../Concepts.js"

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
