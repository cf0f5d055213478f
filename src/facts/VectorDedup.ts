/**
 * Vector candidates for fact deduplication (neko-compat §4.3, FACT_DEDUP_COSINE_THRESHOLD): a new fact whose
 * embedding is closer than 0.85 (cosine) to an active, unabsorbed fact of the same entity is queued for
 * arbitration (at most 3 pairs per new fact, detector "vector"). Without a model, or on any failure, there
 * are no vector candidates and the FTS detector alone decides.
 */
import { Effect, Option } from "effect"
import { Embedder } from "../vectors/Embedder.js"
import type { Fact } from "./Fact.js"
import type * as DedupQueue from "./DedupQueue.js"
import { cosine } from "../reflection/evidence/Rerank.js"
import type { Tunables } from "../Tunables.js"
import type { FactsHost } from "./FactsHost.js"
import { vectorsFor } from "../vectors/VectorBackfill.js"

export const vectorPairs = (
  state: FactsHost,
  fresh: ReadonlyArray<Fact>,
  existing: ReadonlyArray<Fact>,
  queuedAt: string,
  t: Tunables
): Effect.Effect<ReadonlyArray<DedupQueue.DedupPair>, never, Embedder> =>
  Effect.gen(function* () {
    const embedder = yield* Embedder
    if (fresh.length === 0 || Option.isNone(yield* embedder.modelId)) return []
    const pool = existing.filter((f) => !f.absorbed && f.text.trim() !== "")
    const cached = yield* vectorsFor(
      state,
      pool.map((f) => ({ kind: "fact" as const, id: f.id, text: f.text }))
    )
    if (cached.size === 0) return []
    const vectors = yield* embedder.embed(fresh.map((f) => f.text))
    return fresh.flatMap((f, i) => {
      const v = vectors[i]
      if (v === undefined) return []
      return pool
        .filter((e) => e.entity === f.entity && e.id !== f.id)
        .flatMap((e) => {
          const u = cached.get(e.id)
          const c = u === undefined ? 0 : cosine(v, u)
          return c > t.fact_dedup_cosine_threshold ? [{ e, c }] : []
        })
        .sort((a, b) => b.c - a.c)
        .slice(0, t.fact_dedup_pairs_per_new)
        .map(({ e, c }) => ({
          candidate_id: f.id,
          existing_id: e.id,
          entity: f.entity,
          cosine: Number(c.toFixed(4)),
          queued_at: queuedAt,
          detector: "vector"
        }))
    })
  }).pipe(Effect.catchAll(() => Effect.succeed([])))
