/**
 * The vector side of the raw-turn tier, pure: the turns' vectors under one model, kept in one growing
 * matrix (row ids beside it) so a query is one pass of dot products (vectors are L2-normalised, so the dot
 * product is the cosine). Each turn also remembers the sha256 of the text it was embedded from, including
 * turns the model does not embed (no vector). `fuseTurns` makes the tier's ranking: the lexical score of a
 * turn (after the relative floor) plus `weight` × its cosine rescaled between the `rank`-th best cosine
 * (0) and the best (1) — a scale-free weighted sum, so a model with other cosine ranges needs no retuning
 * of the scale; turns at or below the reference cosine get no vector part. A lexical hit keeps its `borrowed`
 * mark (a lexical property: a vector part does not give a turn words of its own).
 */
import type { TurnHit } from "./TurnIndex.js"

export interface TurnVectorIndex {
  readonly modelId: string
  /** The vector length (0 before the first vector). */
  readonly dim: () => number
  /** Turns with a vector. */
  readonly size: () => number
  /** The sha256 of the text row `rowId` was last embedded (or skipped) from. */
  readonly shaOf: (rowId: number) => string | undefined
  /** Records row `rowId`'s vector (empty: the model does not embed it); a vector of another length is ignored. */
  readonly set: (rowId: number, textSha256: string, vector: Float32Array) => void
  /** The `count` turns nearest to `query`, best first (ties: lower row id first). */
  readonly nearest: (query: Float32Array, count: number) => Array<TurnHit>
}

export const make = (modelId: string): TurnVectorIndex => {
  let dim = 0
  let matrix = new Float32Array(0)
  let rowIds = new Float64Array(0)
  let size = 0
  const shas = new Map<number, string>()
  const slots = new Map<number, number>()

  const grow = () => {
    const capacity = Math.max(256, rowIds.length * 2)
    const m = new Float32Array(capacity * dim)
    m.set(matrix)
    const r = new Float64Array(capacity)
    r.set(rowIds)
    matrix = m
    rowIds = r
  }

  const set = (rowId: number, textSha256: string, vector: Float32Array) => {
    shas.set(rowId, textSha256)
    if (vector.length === 0) return
    if (dim === 0) dim = vector.length
    if (vector.length !== dim) return
    const known = slots.get(rowId)
    if (known !== undefined) return matrix.set(vector, known * dim)
    if (size >= rowIds.length) grow()
    matrix.set(vector, size * dim)
    rowIds[size] = rowId
    slots.set(rowId, size)
    size++
  }

  const nearest = (query: Float32Array, count: number): Array<TurnHit> => {
    if (query.length !== dim || count <= 0) return []
    const best: Array<TurnHit> = []
    const before = (a: TurnHit, b: TurnHit) => a.score > b.score || (a.score === b.score && a.rowId < b.rowId)
    for (let i = 0; i < size; i++) {
      let score = 0
      const offset = i * dim
      for (let d = 0; d < dim; d++) score += (query[d] ?? 0) * (matrix[offset + d] ?? 0)
      const hit = { rowId: rowIds[i] ?? 0, score }
      const last = best[best.length - 1]
      if (best.length >= count && last !== undefined && !before(hit, last)) continue
      let j = best.length
      while (j > 0 && before(hit, best[j - 1] ?? hit)) j--
      best.splice(j, 0, hit)
      if (best.length > count) best.pop()
    }
    return best
  }

  return { modelId, dim: () => dim, size: () => size, shaOf: (rowId) => shas.get(rowId), set, nearest }
}

export interface FuseParams {
  /** Lexical hits below `floor` × the best lexical score are dropped. */
  readonly floor: number
  readonly weight: number
  readonly limit: number
}

/**
 * The tier's ranking from its lexical hits (best first) and its nearest turns by cosine (best first, the
 * last one being the reference): Σ lexical + weight × (cos − ref) / (best − ref), top `limit`.
 */
export const fuseTurns = (
  lexical: ReadonlyArray<TurnHit>,
  semantic: ReadonlyArray<TurnHit>,
  p: FuseParams
): Array<TurnHit> => {
  const scores = new Map<number, number>()
  const borrowed = new Set<number>()
  const cut = (lexical[0]?.score ?? 0) * p.floor
  for (const h of lexical)
    if (p.floor <= 0 || h.score >= cut) {
      scores.set(h.rowId, h.score)
      if (h.borrowed === true) borrowed.add(h.rowId)
    }
  const top = semantic[0]?.score
  const ref = semantic[semantic.length - 1]?.score
  if (p.weight > 0 && top !== undefined && ref !== undefined && top > ref)
    for (const h of semantic) {
      const part = (h.score - ref) / (top - ref)
      if (part > 0) scores.set(h.rowId, (scores.get(h.rowId) ?? 0) + p.weight * part)
    }
  return [...scores.entries()]
    .map(([rowId, score]) => ({ rowId, score, borrowed: borrowed.has(rowId) }))
    .sort((a, b) => b.score - a.score || a.rowId - b.rowId)
    .slice(0, Math.max(0, p.limit))
}
