/**
 * The recall functions the LoCoMo harness evaluates. A `Recall` is prepared once per ingested conversation
 * (its runtime, character and raw turns) and then answers questions with ranked hits `{tier, id}`: the
 * `/query_memory` tiers (`fact`, `reflection`, `fact_archive`, ids of those records) or `turn` (id = the
 * `time_indexed_original` row id). `withTurns` fuses any recall with BM25 over the raw turns by reciprocal
 * rank fusion (k = 60), the `--tiers +turns` option.
 */
import type { MemoryRuntime } from "../lib.js"
import { makeBm25 } from "./Bm25Baseline.js"

export interface Hit {
  readonly tier: string
  readonly id: string
}

export interface IngestedTurn {
  readonly rowId: number
  readonly diaId: string
  /** The message content as stored (turn text, plus the image caption when the turn has one). */
  readonly text: string
}

export interface RecallContext {
  readonly runtime: MemoryRuntime
  readonly character: string
  readonly turns: ReadonlyArray<IngestedTurn>
  /** How many hits a question may return (the raised result cap). */
  readonly cap: number
}

export type Recall = (context: RecallContext) => (query: string) => Promise<ReadonlyArray<Hit>>

/** The recall under evaluation: kioku's `/query_memory` through the library. */
export const memoryRecall: Recall = (c) => (query) =>
  c.runtime.queryMemory(c.character, { query }).then((r) => r.results)

/** The plain BM25 floor over the raw turns, as rows of the `turn` tier. */
export const bm25Recall: Recall = (context) => {
  const index = makeBm25(context.turns.map((t) => ({ id: String(t.rowId), text: t.text })))
  return (query) => Promise.resolve(index.search(query, context.cap).map((h) => ({ tier: "turn", id: h.id })))
}

export const rrfK = 60

/** Reciprocal rank fusion of ranked lists (a hit's score is Σ 1/(k + rank)), best first, ties in list order. */
export const fuse = (lists: ReadonlyArray<ReadonlyArray<Hit>>, limit: number, k = rrfK): ReadonlyArray<Hit> => {
  const scored = new Map<string, { hit: Hit; score: number; order: number }>()
  let order = 0
  for (const list of lists) {
    list.forEach((hit, rank) => {
      const key = `${hit.tier}\u0000${hit.id}`
      const entry = scored.get(key) ?? { hit, score: 0, order: order++ }
      entry.score += 1 / (k + rank + 1)
      scored.set(key, entry)
    })
  }
  return [...scored.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map((e) => e.hit)
}

/** `recall` plus BM25 over the raw turns, fused by RRF and cut at the cap (`--tiers +turns`). */
export const withTurns =
  (recall: Recall): Recall =>
  (context) => {
    const own = recall(context)
    const turns = bm25Recall(context)
    return (query) => Promise.all([own(query), turns(query)]).then((lists) => fuse(lists, context.cap))
  }
