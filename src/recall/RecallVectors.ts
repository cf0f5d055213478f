/**
 * The cosine side of recall (neko-compat §4.10): the query embedded with the configured model, and the
 * valid cached vectors (text sha256 and model id match) of active facts and live reflections. The valid
 * map is rebuilt only when a backfill changed `vectors.db` or the facts or reflections changed. The query is
 * embedded when there is anything to compare it with: memory vectors, or turn vectors (the raw-turn tier's
 * vector side). Without a model, or on any failure, recall stays BM25 only.
 */
import { Effect, Option } from "effect"
import { Embedder } from "../vectors/Embedder.js"
import type { Vectors } from "./Hybrid.js"
import type { RecallHost } from "./RecallTypes.js"
import { loaded } from "../vectors/TurnVectors.js"
import type { VectorSeam } from "./Recall.js"
import { generationOf, pool, vectorsFor } from "../vectors/VectorBackfill.js"

interface Cached {
  readonly generation: number
  readonly facts: unknown
  readonly reflections: unknown
  readonly modelId: string
  readonly map: ReadonlyMap<string, Float32Array>
}

/** `withTurns`: the raw-turn tier uses vectors, so the character's turn vectors are loaded on first use. */
export const make = (withTurns: boolean) =>
  Effect.gen(function* () {
    const embedder = yield* Embedder
    const cache = new WeakMap<RecallHost, Cached>()

    const validVectors = (state: RecallHost, modelId: string) =>
      Effect.gen(function* () {
        const facts = (yield* state.facts.load).all
        const reflections = yield* state.reflections.loadAll
        const hit = cache.get(state)
        const generation = generationOf(state)
        if (
          hit &&
          hit.generation === generation &&
          hit.facts === facts &&
          hit.reflections === reflections &&
          hit.modelId === modelId
        ) {
          return hit.map
        }
        const map = yield* vectorsFor(state, yield* pool(state))
        cache.set(state, { generation, facts, reflections, modelId, map })
        return map
      })

    const seam: VectorSeam = ({ state, query }) =>
      Effect.gen(function* () {
        const modelId = yield* embedder.modelId
        if (Option.isNone(modelId) || !(yield* embedder.serves)(query)) return undefined
        const map = yield* validVectors(state, modelId.value)
        if (withTurns && state.exists())
          yield* loaded(state, modelId.value).pipe(
            Effect.catchAll((e) =>
              Effect.logWarning("turn vectors unreadable; turns recalled by words alone").pipe(
                Effect.annotateLogs({ error: e.message })
              )
            )
          )
        const turns = state.turnVectors?.index
        const turnsReady = turns !== undefined && turns.modelId === modelId.value && turns.size() > 0
        if (map.size === 0 && !turnsReady) return undefined
        const [vector] = yield* embedder.embed([query])
        if (vector === undefined) return undefined
        const vectors: Vectors = { modelId: modelId.value, query: vector, vectorOf: (id) => map.get(id) }
        return vectors
      }).pipe(
        Effect.provideService(Embedder, embedder),
        Effect.catchAll(() => Effect.succeed(undefined))
      )

    /** Drops the character's vectors kept for recall (an idle actor's release). */
    const release = (state: RecallHost) =>
      Effect.sync(() => {
        cache.delete(state)
      })

    return { seam, release }
  })
