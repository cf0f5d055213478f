/**
 * Retrieval metrics without an LLM (product.md §8), pure. Each question has evidence `dia_id`s and a ranked
 * list of hits, each hit carrying the `dia_id`s of the turns it came from. R@k is the share of the evidence
 * found among the dia_ids of the top k hits, hit@k whether any was, and the reciprocal rank is 1/r for the
 * first hit r (1-based) holding any evidence id, 0 if none. Questions without evidence are not scored. The
 * overall figures average categories 1–4 (5, adversarial, is reported on its own); latency percentiles
 * use the nearest-rank method over every query made, scored or not.
 */

export interface Outcome {
  readonly category: number
  readonly evidence: ReadonlyArray<string>
  /** Per hit, best first: the dia_ids of the turns it came from. */
  readonly ranked: ReadonlyArray<ReadonlyArray<string>>
  readonly latencyMs: number
}

export interface Figures {
  readonly "R@5": number
  readonly "R@8": number
  readonly "R@10": number
  readonly "hit@10": number
  readonly MRR: number
  readonly n: number
}

export interface Summary {
  readonly overall: Figures
  readonly byCategory: Readonly<Record<string, Figures>>
  readonly latencyMs: { readonly p50: number; readonly p95: number }
}

export const overallCategories: ReadonlyArray<number> = [1, 2, 3, 4]

export const recallAt = (evidence: ReadonlyArray<string>, ranked: ReadonlyArray<ReadonlyArray<string>>, k: number) => {
  const wanted = new Set(evidence)
  if (wanted.size === 0) return 0
  const found = new Set(ranked.slice(0, k).flatMap((ids) => ids.filter((id) => wanted.has(id))))
  return found.size / wanted.size
}

export const hitAt = (evidence: ReadonlyArray<string>, ranked: ReadonlyArray<ReadonlyArray<string>>, k: number) =>
  recallAt(evidence, ranked, k) > 0 ? 1 : 0

export const reciprocalRank = (evidence: ReadonlyArray<string>, ranked: ReadonlyArray<ReadonlyArray<string>>) => {
  const wanted = new Set(evidence)
  const first = ranked.findIndex((ids) => ids.some((id) => wanted.has(id)))
  return first < 0 ? 0 : 1 / (first + 1)
}

/** The nearest-rank percentile (`p` in 0..100) of `values`; 0 when empty. */
export const percentile = (values: ReadonlyArray<number>, p: number): number => {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)))
  return sorted[rank - 1] ?? 0
}

const mean = (values: ReadonlyArray<number>) =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length

export const figures = (outcomes: ReadonlyArray<Outcome>): Figures => {
  const scored = outcomes.filter((o) => o.evidence.length > 0)
  const avg = (f: (o: Outcome) => number) => mean(scored.map(f))
  return {
    "R@5": avg((o) => recallAt(o.evidence, o.ranked, 5)),
    "R@8": avg((o) => recallAt(o.evidence, o.ranked, 8)),
    "R@10": avg((o) => recallAt(o.evidence, o.ranked, 10)),
    "hit@10": avg((o) => hitAt(o.evidence, o.ranked, 10)),
    MRR: avg((o) => reciprocalRank(o.evidence, o.ranked)),
    n: scored.length
  }
}

export const summarize = (outcomes: ReadonlyArray<Outcome>): Summary => {
  const scored = outcomes.filter((o) => o.evidence.length > 0)
  const categories = [...new Set(scored.map((o) => o.category))].sort((a, b) => a - b)
  const latencies = outcomes.map((o) => o.latencyMs)
  return {
    overall: figures(scored.filter((o) => overallCategories.includes(o.category))),
    byCategory: Object.fromEntries(categories.map((c) => [String(c), figures(scored.filter((o) => o.category === c))])),
    latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95) }
  }
}

const round = (x: number, digits: number) => Number(x.toFixed(digits))

/** The summary with metrics rounded to 4 decimals and latencies to 3 (the printed form). */
export const rounded = (s: Summary): Summary => {
  const r = (f: Figures): Figures => ({
    "R@5": round(f["R@5"], 4),
    "R@8": round(f["R@8"], 4),
    "R@10": round(f["R@10"], 4),
    "hit@10": round(f["hit@10"], 4),
    MRR: round(f.MRR, 4),
    n: f.n
  })
  return {
    overall: r(s.overall),
    byCategory: Object.fromEntries(Object.entries(s.byCategory).map(([k, f]) => [k, r(f)])),
    latencyMs: { p50: round(s.latencyMs.p50, 3), p95: round(s.latencyMs.p95, 3) }
  }
}
