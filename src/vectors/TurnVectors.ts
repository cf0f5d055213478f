/**
 * The vector backfill of a character's raw turns, run inside its actor beside the memory backfill: the rows
 * of `time_indexed_original` get a vector from the current model in `turn_vectors.db` (text sha256 + model
 * id, as memory vectors are cached), at most `limit` embedded per call. On first use under a model the
 * stored rows of that model are loaded into a TurnVectorIndex (rows of other models are deleted), then the
 * time index is scanned once from the start — rows whose stored text hash still matches are skipped, so a
 * restart re-embeds only what changed — and afterwards only rows past the cursor. A turn without text, or in
 * a language the model does not serve (`Embedder.serves`), is stored as a marker without a vector, so it is
 * not looked at again. It never fails: with vectors disabled
 * or still loading it does nothing; store or embedding failures are logged and end the call.
 */
import { Effect, Option } from "effect"
import { Embedder } from "./Embedder.js"
import { textSha256 } from "./VectorCache.js"
import * as TurnVectorIndex from "../recall/TurnVectorIndex.js"
import type { TimeRow } from "../store/TimeIndex.js"
import * as TurnVectorStore from "../store/TurnVectorStore.js"
import type { VectorsHost } from "./VectorsHost.js"
import { turnOf } from "../recall/TurnTier.js"

export interface TurnBackfillReport {
  readonly ready: boolean
  readonly embedded: number
  /** True when rows past the cursor may still lack a vector (the call stopped at `limit`). */
  readonly more: boolean
}

const idle: TurnBackfillReport = { ready: false, embedded: 0, more: false }
const PAGE = 2000
const noVectors: ReadonlyArray<Float32Array> = []

/** The loaded turn vectors of the character under `modelId` (loading them on first use or after a model change). */
export const loaded = (state: VectorsHost, modelId: string) =>
  Effect.gen(function* () {
    const current = state.turnVectors
    if (current !== undefined && current.index.modelId === modelId) return current
    const store = current?.store ?? (yield* TurnVectorStore.open(state.dir))
    const pruned = yield* store.pruneOtherModels(modelId)
    const index = TurnVectorIndex.make(modelId)
    for (const row of yield* store.load(modelId)) index.set(row.rowId, row.textSha256, row.vector)
    if (pruned > 0)
      yield* Effect.logDebug("turn vectors of another model dropped").pipe(Effect.annotateLogs({ pruned }))
    state.turnVectors = { store, index, cursor: 0 }
    return state.turnVectors
  })

interface Todo {
  readonly rowId: number
  readonly sha: string
  readonly text: string | undefined
}

export const backfillTurns = (state: VectorsHost, limit: number): Effect.Effect<TurnBackfillReport, never, Embedder> =>
  Effect.gen(function* () {
    if (!state.exists()) return idle
    const embedder = yield* Embedder
    const modelId = yield* embedder.modelId
    if (Option.isNone(modelId)) return idle
    const opened = yield* state.openTimeIndex(false)
    if (Option.isNone(opened)) return { ready: true, embedded: 0, more: false }
    const tv = yield* loaded(state, modelId.value)
    const serves = yield* embedder.serves
    const todo: Array<Todo> = []
    let cursor = tv.cursor
    let more = false
    scan: for (;;) {
      const rows: ReadonlyArray<TimeRow> = yield* opened.value.rowsAfter(cursor, PAGE)
      for (const row of rows) {
        const found = turnOf(row)
        const turn = found !== undefined && serves(found.text) ? found : undefined
        const sha = textSha256(found?.text ?? "")
        if (tv.index.shaOf(row.id) !== sha) {
          if (todo.length >= limit && turn !== undefined) {
            more = true
            break scan
          }
          todo.push({ rowId: row.id, sha, text: turn?.text })
        }
        cursor = row.id
      }
      if (rows.length < PAGE) break
    }
    const texts = todo.flatMap((t) => (t.text === undefined ? [] : [t.text]))
    const vectors = yield* embedder
      .embed(texts)
      .pipe(
        Effect.catchAll((e) =>
          Effect.logWarning("turn vector backfill: embedding failed").pipe(
            Effect.annotateLogs({ error: e.message }),
            Effect.as(noVectors)
          )
        )
      )
    if (texts.length > 0 && vectors.length !== texts.length) return { ready: true, embedded: 0, more: true }
    let next = 0
    const rows = todo.map((t): TurnVectorStore.TurnVector => {
      const vector = t.text === undefined ? new Float32Array(0) : (vectors[next++] ?? new Float32Array(0))
      return { rowId: t.rowId, textSha256: t.sha, modelId: modelId.value, vector }
    })
    yield* tv.store.put(rows)
    for (const r of rows) tv.index.set(r.rowId, r.textSha256, r.vector)
    tv.cursor = cursor
    if (texts.length > 0)
      yield* Effect.logDebug("turn vector backfill").pipe(Effect.annotateLogs({ embedded: texts.length, more }))
    return { ready: true, embedded: texts.length, more }
  }).pipe(
    Effect.catchAll((e) =>
      Effect.logWarning("turn vector backfill failed").pipe(Effect.annotateLogs({ error: e.message }), Effect.as(idle))
    ),
    Effect.annotateLogs({ characterId: state.name })
  )
