/**
 * The recall functions the LoCoMo harness evaluates. A `Recall` is prepared once per ingested conversation
 * (its runtime, character and raw turns) and then answers questions with ranked hits `{tier, id}`: the
 * `/query_memory` tiers (`fact`, `reflection`, `fact_archive`, ids of those records) or `turn` (id = the
 * `time_indexed_original` row id, or the row ids in `source_row_ids`). The raw-turn tier is on by default;
 * `--tiers=-turns` evaluates the same `memoryRecall` with it off (`factsOnly`), `--tiers +turns` with it on
 * whatever a config file says (`turnTier`).
 */
import type { MemoryRuntime, Tunables } from "../lib.js"
import { makeBm25 } from "./Bm25Baseline.js"

export interface Hit {
  readonly tier: string
  readonly id: string
  readonly source_row_ids?: ReadonlyArray<number> | undefined
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

/** The tunables `--tiers +turns` sets on the evaluated runtime: kioku's raw-turn tier on. */
export const turnTier: Partial<Tunables> = { recall_turn_tier: true }

/** The tunables `--tiers -turns` sets on the evaluated runtime: facts, reflections and archive only. */
export const factsOnly: Partial<Tunables> = { recall_turn_tier: false }
