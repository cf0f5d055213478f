/**
 * The cosine side of recall (neko-compat §4.10): the query embedded with the configured model, and the
 * valid cached vectors (text sha256 and model id match) of active facts and live reflections. The valid
 * map is rebuilt only when a backfill changed `vectors.db` or the facts or reflections changed. The query is
 * embedded when there is anything to compare it with: memory vectors, or turn vectors (the raw-turn tier's
 * vector side). Without a model, or on any failure, recall stays BM25 only. The in-memory path (`warm`) also
 * hands back the map with the `vectors.db` version it was read at, for the recall index's packed copy; a cold
 * query (`cold`) takes the memory vectors from that copy when it is fresh, and answers "stale" when it is not;
 * `packable` hands the map over without a query (after a backfill settled).
 */
import { Effect, Option } from "effect"
import { Embedder } from "../vectors/Embedder.js"
import type { Vectors } from "./Hybrid.js"
import type { RecallHost } from "./RecallTypes.js"
import { loaded } from "../vectors/TurnVectors.js"
import type { VectorSeam } from "./Recall.js"
import { generationOf, pool, vectorStoreOf, vectorsFor } from "../vectors/VectorBackfill.js"
import { packedCount, packedVectors } from "./index/VectorPack.js"

interface Cached {
  readonly generation: number
  readonly facts: unknown
  readonly reflections: unknown
  readonly modelId: string
  readonly map: ReadonlyMap<string, Float32Array>
  /** The `vectors.db` version read before the map's rows (undefined when it could not be read). */
  readonly version: string | undefined
}

/** `withTurns`: the raw-turn tier uses vectors, so the character's turn vectors are loaded on first use. */
export const make = (withTurns: boolean) =>
  Effect.gen(function* () {
    const embedder = yield* Embedder
    const cache = new WeakMap<RecallHost, Cached>()

    const versionOf = (state: RecallHost) =>
      state.exists()
        ? vectorStoreOf(state).pipe(
            Effect.flatMap((store) => store.version),
            Effect.provideService(Embedder, embedder)
          )
        : Effect.succeed(undefined)

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
          return hit
        }
        // Read before the rows: a write meanwhile leaves the version older than the map, so no pack claims it.
        const version = yield* versionOf(state).pipe(Effect.orElseSucceed(() => undefined))
        const map = yield* vectorsFor(state, yield* pool(state))
        const next = { generation, facts, reflections, modelId, map, version }
        cache.set(state, next)
        return next
      })

    /** The model's id when it serves the query. */
    const modelFor = (query: string) =>
      Effect.gen(function* () {
        const modelId = yield* embedder.modelId
        return Option.isSome(modelId) && (yield* embedder.serves)(query) ? modelId.value : undefined
      })

    /** The query embedded when there is anything to compare it with (`memories` vectors, or turn vectors). */
    const finish = (
      state: RecallHost,
      query: string,
      modelId: string,
      memories: number,
      to: (v: Float32Array) => Effect.Effect<Vectors>
    ) =>
      Effect.gen(function* () {
        if (withTurns && state.exists())
          yield* loaded(state, modelId).pipe(
            Effect.catchAll((e) =>
              Effect.logWarning("turn vectors unreadable; turns recalled by words alone").pipe(
                Effect.annotateLogs({ error: e.message })
              )
            )
          )
        const turns = state.turnVectors?.index
        const turnsReady = turns !== undefined && turns.modelId === modelId && turns.size() > 0
        if (memories === 0 && !turnsReady) return undefined
        const [vector] = yield* embedder.embed([query])
        return vector === undefined ? undefined : yield* to(vector)
      }).pipe(Effect.provideService(Embedder, embedder))

    /** What the index's packed copy takes, when the `vectors.db` version could be read. */
    const packOf = (modelId: string, version: string | undefined, map: ReadonlyMap<string, Float32Array>) =>
      version === undefined ? undefined : { modelId, version, map }

    const warm: VectorSeam["warm"] = ({ state, query }) =>
      Effect.gen(function* () {
        const modelId = yield* modelFor(query)
        if (modelId === undefined) return { vectors: undefined }
        const { map, version } = yield* validVectors(state, modelId)
        const vectors = yield* finish(state, query, modelId, map.size, (v) =>
          Effect.succeed<Vectors>({ modelId, query: v, vectorOf: (id) => map.get(id) })
        )
        return { vectors, pack: packOf(modelId, version, map) }
      }).pipe(
        Effect.provideService(Embedder, embedder),
        Effect.catchAll(() => Effect.succeed({ vectors: undefined }))
      )

    const packable: VectorSeam["packable"] = (state) =>
      Effect.gen(function* () {
        const modelId = yield* embedder.modelId
        if (Option.isNone(modelId)) return undefined
        const { map, version } = yield* validVectors(state, modelId.value)
        return packOf(modelId.value, version, map)
      }).pipe(
        Effect.provideService(Embedder, embedder),
        Effect.catchAll(() => Effect.succeed(undefined))
      )

    const packing: VectorSeam["packing"] = (state) =>
      Effect.gen(function* () {
        const modelId = yield* embedder.modelId
        const version = Option.isSome(modelId) ? yield* versionOf(state) : undefined
        return Option.isSome(modelId) && version !== undefined ? { modelId: modelId.value, version } : undefined
      }).pipe(Effect.catchAll(() => Effect.succeed(undefined)))

    const cold: VectorSeam["cold"] = ({ state, query, packs }) =>
      Effect.gen(function* () {
        const modelId = yield* modelFor(query)
        if (modelId === undefined) return undefined
        const version = yield* versionOf(state)
        const packed = version === undefined ? undefined : yield* packs(modelId, version)
        if (packed === undefined) return "stale" as const
        return yield* finish(state, query, modelId, packedCount(packed), (v) => packedVectors(packed, modelId, v))
      }).pipe(Effect.catchAll(() => Effect.succeed("stale" as const)))

    /** Drops the character's vectors kept for recall (an idle actor's release). */
    const release = (state: RecallHost) =>
      Effect.sync(() => {
        cache.delete(state)
      })

    const seam: VectorSeam = { warm, packable, packing, cold }
    return { seam, release }
  })
