/**
 * The pure part of the internal reranker (neko-compat §4.11), used by Stage 2 to pick the observations
 * worth an LLM's attention. With query vectors, candidates are ordered by their best cosine to any query
 * vector (no usable vector of the same dimension scores 0; ties go to the higher evidence score, then to
 * the earlier candidate) and `budget × oversample` are kept; only if that is more than the budget does
 * the caller ask the LLM (`needsLlm`). Without query vectors the evidence-score order (stable) is cut to
 * the budget and no LLM is asked. `applyRerank` turns the LLM's `[{"id"}]` into the final list: its picks
 * in its order, unknown ids and repeats ignored, topped up from the coarse order, cut to the budget. A
 * failed LLM call means using the coarse order, which is `applyRerank(ordered, [], budget)`.
 */
import { withFields } from "../../domain/Shapes.js"

export interface Candidate {
  readonly id: string
  readonly text: string
  readonly score: number
  readonly vector?: Float32Array
}

export interface CoarseOrder<C extends Candidate> {
  readonly ordered: ReadonlyArray<C>
  readonly needsLlm: boolean
}

/** Cosine similarity; 0 for different or zero dimensions, a zero vector, or a non-finite result. */
export const cosine = (a: Float32Array, b: Float32Array): number => {
  if (a.length !== b.length || a.length === 0) return 0
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0
    const y = b[i] ?? 0
    dot += x * y
    na += x * x
    nb += y * y
  }
  const c = dot / Math.sqrt(na * nb)
  return Number.isFinite(c) ? c : 0
}

/** Best cosine of a candidate's vector to any query vector of the same dimension; 0 when there is none. */
const relevance = (vector: Float32Array | undefined, queries: ReadonlyArray<Float32Array>): number => {
  if (vector === undefined) return 0
  let best = 0
  let seen = false
  for (const q of queries) {
    if (q.length !== vector.length || q.length === 0) continue
    const c = cosine(vector, q)
    best = seen ? Math.max(best, c) : c
    seen = true
  }
  return best
}

const count = (n: number): number => (Number.isFinite(n) ? Math.max(0, Math.floor(n)) : 0)

const desc = (x: number, y: number): number => (y > x ? 1 : y < x ? -1 : 0)

const byScore = (a: { readonly score: number; readonly index: number }, b: typeof a): number =>
  desc(a.score, b.score) || a.index - b.index

/** The coarse order and cut; `needsLlm` when vectors ordered it and more than `budget` remain. */
export const coarseOrder = <C extends Candidate>(
  candidates: ReadonlyArray<C>,
  queryVectors: ReadonlyArray<Float32Array> | undefined,
  budget: number,
  oversample = 3
): CoarseOrder<C> => {
  const keep = count(budget)
  const indexed = candidates.map((candidate, index) => ({ candidate, index, score: candidate.score }))
  if (queryVectors === undefined || queryVectors.length === 0) {
    return {
      ordered: indexed
        .sort(byScore)
        .slice(0, keep)
        .map((e) => e.candidate),
      needsLlm: false
    }
  }
  const ordered = indexed
    .map((e) => withFields(e, { cos: relevance(e.candidate.vector, queryVectors) }))
    .sort((a, b) => desc(a.cos, b.cos) || byScore(a, b))
    .slice(0, keep * Math.max(1, count(oversample)))
    .map((e) => e.candidate)
  return { ordered, needsLlm: ordered.length > keep }
}

/** The LLM's picks (known ids, first occurrence, its order), then the rest of the coarse order, cut to budget. */
export const applyRerank = <C extends { readonly id: string }>(
  ordered: ReadonlyArray<C>,
  picked: ReadonlyArray<{ readonly id: string }>,
  budget: number
): ReadonlyArray<C> => {
  const keep = count(budget)
  const byId = new Map<string, C>()
  for (const c of ordered) if (!byId.has(c.id)) byId.set(c.id, c)
  const out: Array<C> = []
  const taken = new Set<string>()
  const add = (c: C | undefined) => {
    if (c === undefined || taken.has(c.id) || out.length >= keep) return
    taken.add(c.id)
    out.push(c)
  }
  for (const p of picked) add(byId.get(p.id))
  for (const c of ordered) add(c)
  return out
}
