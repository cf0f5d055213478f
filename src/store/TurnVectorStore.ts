/**
 * `turn_vectors.db`, kioku's per-character cache of raw-turn vectors (the vector side of the raw-turn tier):
 * one row per `time_indexed_original` row with the sha256 of the embedded text, the model id, the dimension
 * and the vector as little-endian float16 bytes (the codec of neko-compat §4.17). A row of dimension 0 marks
 * a turn the model does not embed (no text, or a language it does not serve). Derived data like
 * `vectors.db`: never journaled, `synchronous=NORMAL`, a file that cannot be opened is deleted and recreated.
 */
import Database from "better-sqlite3"
import { Effect, Option, Schema } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { decodeHalf, encodeHalf } from "../vectors/VectorCache.js"
import { StoreError } from "./DurableFs.js"

export const TURN_VECTORS_FILE = "turn_vectors.db"

export interface TurnVector {
  readonly rowId: number
  readonly textSha256: string
  readonly modelId: string
  /** Empty for a turn the model does not embed. */
  readonly vector: Float32Array
}

export interface TurnVectorStore {
  /** Every row stored under `modelId`, by row id. */
  readonly load: (modelId: string) => Effect.Effect<ReadonlyArray<TurnVector>, StoreError>
  /** Inserts or replaces rows, in one transaction. */
  readonly put: (rows: ReadonlyArray<TurnVector>) => Effect.Effect<void, StoreError>
  /** Deletes the rows of other models; returns how many went. */
  readonly pruneOtherModels: (modelId: string) => Effect.Effect<number, StoreError>
  readonly close: Effect.Effect<void>
}

const Row = Schema.Struct({
  row_id: Schema.Int,
  text_sha256: Schema.String,
  model_id: Schema.String,
  dim: Schema.Int,
  vector: Schema.Uint8ArrayFromSelf
})
const decodeRows = Schema.decodeUnknownSync(Schema.Array(Row))

const schema = `CREATE TABLE IF NOT EXISTS turn_vectors (
  row_id INTEGER PRIMARY KEY,
  text_sha256 TEXT NOT NULL,
  model_id TEXT NOT NULL,
  dim INTEGER NOT NULL,
  vector BLOB NOT NULL
)`

const openDb = (file: string) => {
  const db = new Database(file)
  try {
    db.pragma("journal_mode = WAL")
    db.pragma("synchronous = NORMAL")
    db.pragma("busy_timeout = 5000")
    db.exec(schema)
    return db
  } catch (e) {
    db.close()
    throw e
  }
}

/** Opens (creating) `<dir>/turn_vectors.db`; an unreadable file is replaced by an empty one. */
export const open = (dir: string): Effect.Effect<TurnVectorStore, StoreError> => {
  const file = path.join(dir, TURN_VECTORS_FILE)
  const fail = (op: string) => (e: unknown) =>
    new StoreError({ op, file, message: e instanceof Error ? e.message : String(e) })
  return Effect.try({ try: () => openDb(file), catch: fail("open") }).pipe(
    Effect.catchAll((e) =>
      Effect.logWarning("turn_vectors.db unreadable; recreated").pipe(
        Effect.annotateLogs({ error: e.message }),
        Effect.zipRight(
          Effect.try({
            try: () => {
              for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true })
              return openDb(file)
            },
            catch: fail("open")
          })
        )
      )
    ),
    Effect.map((db) => makeStore(db, fail))
  )
}

const makeStore = (db: Database.Database, fail: (op: string) => (e: unknown) => StoreError): TurnVectorStore => {
  const wrap = <A>(op: string, f: () => A) => Effect.try({ try: f, catch: fail(op) })
  const upsert = db.prepare(
    "INSERT OR REPLACE INTO turn_vectors (row_id, text_sha256, model_id, dim, vector) VALUES (?, ?, ?, ?, ?)"
  )
  const putAll = db.transaction((rows: ReadonlyArray<TurnVector>) => {
    for (const r of rows)
      upsert.run(r.rowId, r.textSha256, r.modelId, r.vector.length, Buffer.from(encodeHalf(r.vector)))
  })
  const select = db.prepare(
    "SELECT row_id, text_sha256, model_id, dim, vector FROM turn_vectors WHERE model_id = ? ORDER BY row_id"
  )
  const prune = db.prepare("DELETE FROM turn_vectors WHERE model_id != ?")
  return {
    load: (modelId) =>
      wrap("query", () =>
        decodeRows(select.all(modelId)).flatMap((r) => {
          const vector = decodeHalf(r.vector)
          return Option.isSome(vector) && vector.value.length === r.dim
            ? [{ rowId: r.row_id, textSha256: r.text_sha256, modelId: r.model_id, vector: vector.value }]
            : []
        })
      ),
    put: (rows) => wrap("insert", () => putAll(rows)),
    pruneOtherModels: (modelId) => wrap("delete", () => prune.run(modelId).changes),
    close: Effect.sync(() => {
      if (db.open) db.close()
    })
  }
}
