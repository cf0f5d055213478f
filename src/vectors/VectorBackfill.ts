/**
 * The vector backfill of one character, run inside its actor: the active facts and the pending or confirmed
 * reflections (the cosine pool of neko-compat §4.10) that lack a valid vector in `vectors.db` get one —
 * copied from N.E.K.O.'s in-entry triple when that is valid for the current model, else embedded, at most
 * `limit` per call — and rows of entries that left the pool are pruned. Entries whose text the model does not
 * serve (another language) get no vector and lose any row they had. It never fails: with vectors disabled or
 * still loading it does nothing, and store or embedding failures are logged and end the tick. `vectorsFor`
 * reads the valid cached vectors of served texts back (for recall).
 */
import { Effect, Option } from "effect"
import { yieldToIo } from "../runtime/Actor.js"
import { Embedder } from "./Embedder.js"
import { dimOfModelId, entryVector, isValid, textSha256 } from "./VectorCache.js"
import * as VectorStore from "./VectorStore.js"
import type { VectorCache, VectorsHost } from "./VectorsHost.js"

export interface BackfillReport {
  /** False while vectors are disabled or the model is not loaded yet (nothing was done). */
  readonly ready: boolean
  readonly embedded: number
  /** Vectors taken over from N.E.K.O.'s in-entry `embedding` fields. */
  readonly imported: number
  /** Entries still lacking a vector after this call. */
  readonly pending: number
  readonly pruned: number
}

const noVectors: ReadonlyArray<Float32Array> = []
const idle: BackfillReport = { ready: false, embedded: 0, imported: 0, pending: 0, pruned: 0 }

interface PoolEntry extends VectorStore.VectorEntry {
  readonly raw: Readonly<Record<string, unknown>>
}

const generations = new WeakMap<VectorCache, number>()
/** Grows whenever a backfill changed the character's stored vectors (cache key for readers). */
export const generationOf = (state: VectorCache): number => generations.get(state) ?? 0

/** `vectors.db` of the character, opened on first use and closed with the state. */
export const vectorStoreOf = (state: VectorCache) =>
  state.vectors
    ? Effect.succeed(state.vectors)
    : VectorStore.open(state.dir).pipe(Effect.tap((store) => Effect.sync(() => (state.vectors = store))))

/** The entries vectors are kept for: active facts, live reflections and non-protected persona entries. */
export const pool = (state: VectorsHost) =>
  Effect.gen(function* () {
    const { all: facts } = yield* state.facts.load
    const reflections = yield* state.reflections.loadAll
    const entries: Array<PoolEntry> = [
      ...facts.map((f) => ({ kind: "fact" as const, id: f.id, text: f.text, raw: f })),
      ...reflections
        .filter((r) => r.status === "pending" || r.status === "confirmed")
        .map((r) => ({ kind: "reflection" as const, id: r.id, text: r.text, raw: r })),
      ...Object.values(yield* state.persona.load).flatMap((section) =>
        section.facts
          .filter((e) => !e.protected)
          .map((e) => ({ kind: "persona" as const, id: e.id, text: e.text, raw: e }))
      )
    ]
    return entries.filter((e) => e.text.trim() !== "")
  })

export const backfill = (state: VectorsHost, limit = 64): Effect.Effect<BackfillReport, never, Embedder> =>
  Effect.gen(function* () {
    if (!state.exists()) return idle
    const embedder = yield* Embedder
    const modelId = yield* embedder.modelId
    if (Option.isNone(modelId)) return idle
    const dim = Option.getOrElse(dimOfModelId(modelId.value), () => 0)
    const serves = yield* embedder.serves
    const entries = (yield* pool(state)).filter((e) => serves(e.text))
    const store = yield* vectorStoreOf(state)
    const missing = yield* store.missing(entries, modelId.value, dim)
    const row = (e: PoolEntry, vector: Float32Array): VectorStore.StoredVector => ({
      kind: e.kind,
      id: e.id,
      textSha256: textSha256(e.text),
      modelId: modelId.value,
      vector
    })
    const imported = missing.flatMap((e) =>
      Option.toArray(Option.map(entryVector(e.raw, e.text, modelId.value, dim), (v) => row(e, v)))
    )
    yield* store.put(imported)
    const copied = new Set(imported.map((r) => `${r.kind}\u0000${r.id}`))
    const todo = missing.filter((e) => !copied.has(`${e.kind}\u0000${e.id}`))
    const batch = todo.slice(0, Math.max(0, limit))
    const vectors = yield* embedder
      .embed(batch.map((e) => e.text))
      .pipe(
        Effect.catchAll((e) =>
          Effect.logWarning("vector backfill: embedding failed").pipe(
            Effect.annotateLogs({ error: e.message }),
            Effect.as(noVectors)
          )
        )
      )
    const embedded = batch.flatMap((e, i) => {
      const v = vectors[i]
      return v === undefined ? [] : [row(e, v)]
    })
    yield* store.put(embedded)
    const pruned =
      (yield* store.prune(
        "fact",
        entries.filter((e) => e.kind === "fact").map((e) => e.id)
      )) +
      (yield* store.prune(
        "reflection",
        entries.filter((e) => e.kind === "reflection").map((e) => e.id)
      )) +
      (yield* store.prune(
        "persona",
        entries.filter((e) => e.kind === "persona").map((e) => e.id)
      ))
    const report = {
      ready: true,
      embedded: embedded.length,
      imported: imported.length,
      pending: todo.length - embedded.length,
      pruned
    }
    if (report.embedded + report.imported + report.pruned > 0) {
      generations.set(state, generationOf(state) + 1)
      yield* Effect.logDebug("vector backfill").pipe(Effect.annotateLogs({ ...report }))
    }
    return report
  }).pipe(
    Effect.catchAll((e) =>
      Effect.logWarning("vector backfill failed").pipe(Effect.annotateLogs({ error: e.message }), Effect.as(idle))
    ),
    Effect.annotateLogs({ characterId: state.name })
  )

/** Entries whose vectors are read and checked between two yields to pending I/O. */
const SLICE = 500

/** The valid cached vectors of `entries` under the embedder's current model (none while it is not ready). */
export const vectorsFor = (
  state: VectorCache,
  entries: ReadonlyArray<VectorStore.VectorEntry>
): Effect.Effect<ReadonlyMap<string, Float32Array>, never, Embedder> =>
  Effect.gen(function* () {
    const embedder = yield* Embedder
    const modelId = yield* embedder.modelId
    if (Option.isNone(modelId) || !state.exists()) return new Map<string, Float32Array>()
    const dim = Option.getOrElse(dimOfModelId(modelId.value), () => 0)
    const serves = yield* embedder.serves
    const store = yield* vectorStoreOf(state)
    const out = new Map<string, Float32Array>()
    for (const kind of new Set(entries.map((e) => e.kind))) {
      const all = entries.filter((e) => e.kind === kind)
      for (let i = 0; i < all.length; i += SLICE) {
        // A cold recall reads every vector: pending I/O (other characters' requests) goes first between slices.
        if (i > 0) yield* yieldToIo
        const mine = all.slice(i, i + SLICE).filter((e) => serves(e.text))
        const rows = yield* store.get(
          kind,
          mine.map((e) => e.id)
        )
        for (const e of mine) {
          const r = rows.get(e.id)
          if (
            r &&
            isValid({ textSha256: r.textSha256, modelId: r.modelId, dim: r.vector.length }, e.text, modelId.value, dim)
          ) {
            out.set(e.id, r.vector)
          }
        }
      }
    }
    return out
  }).pipe(
    Effect.catchAll((e) =>
      Effect.logWarning("vector cache read failed").pipe(
        Effect.annotateLogs({ error: e.message }),
        Effect.as(new Map<string, Float32Array>())
      )
    )
  )
