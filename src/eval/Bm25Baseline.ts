/**
 * The plain BM25 floor of product.md §8: Okapi BM25 (k1 1.2, b 0.75, idf ln(1 + (N − n + 0.5)/(n + 0.5)))
 * over lower-cased word tokens (Unicode letters, digits, `_`), no stemming, no stop words. Only documents
 * sharing a token with the query are ranked; ties keep document order. Pure and synchronous.
 */

export interface Bm25Options {
  readonly k1: number
  readonly b: number
}

export interface Bm25Hit {
  readonly id: string
  readonly score: number
}

export interface Bm25Index {
  readonly size: number
  /** The best `limit` documents for `query`, best first. */
  readonly search: (query: string, limit: number) => ReadonlyArray<Bm25Hit>
}

export const floorOptions: Bm25Options = { k1: 1.2, b: 0.75 }

/** Lower-cased word tokens: maximal runs of letters, digits and `_`. */
export const wordTokens = (text: string): Array<string> => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []

export const makeBm25 = (
  documents: ReadonlyArray<{ readonly id: string; readonly text: string }>,
  options: Bm25Options = floorOptions
): Bm25Index => {
  const lengths: Array<number> = []
  const postings = new Map<string, Array<{ readonly doc: number; readonly tf: number }>>()
  documents.forEach((d, doc) => {
    const tokens = wordTokens(d.text)
    lengths.push(tokens.length)
    const counts = new Map<string, number>()
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1)
    for (const [t, tf] of counts) {
      const list = postings.get(t)
      if (list) list.push({ doc, tf })
      else postings.set(t, [{ doc, tf }])
    }
  })
  const n = documents.length
  const avg = n === 0 ? 0 : lengths.reduce((a, b) => a + b, 0) / n
  const { k1, b } = options
  const search = (query: string, limit: number): ReadonlyArray<Bm25Hit> => {
    const scores = new Map<number, number>()
    for (const term of wordTokens(query)) {
      const list = postings.get(term)
      if (list === undefined) continue
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5))
      for (const { doc, tf } of list) {
        const norm = k1 * (1 - b + (b * (lengths[doc] ?? 0)) / (avg || 1))
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (k1 + 1)) / (tf + norm))
      }
    }
    return [...scores]
      .sort((x, y) => y[1] - x[1] || x[0] - y[0])
      .slice(0, Math.max(0, limit))
      .flatMap(([doc, score]) => {
        const d = documents[doc]
        return d === undefined ? [] : [{ id: d.id, score }]
      })
  }
  return { size: n, search }
}
