/**
 * `vectors.db`, kioku's per-character vector cache: one row per (kind, entry id) with the sha256 of the
 * embedded text, the model id, the dimension and the vector as little-endian float16 bytes. It is derived
 * data: never journaled, written with `synchronous=NORMAL`, and a file that cannot be opened is deleted and
 * recreated (every vector is recomputed by the backfill). A row is valid for an entry only while its text
 * hash, model id and dimension all match (neko-compat §4.17). Every write that changes rows also moves the
 * store's version (a random epoch, set when the `meta` table is made, and a counter), so a derived copy of the
 * vectors (the recall index's packed vectors) can tell whether it still matches the file.
 */
import Database from "better-sqlite3"
import { Effect, Option, Schema } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { StoreError } from "../store/DurableFs.js"
import { decodeHalf, encodeHalf, isValid } from "./VectorCache.js"

export const VECTORS_FILE = "vectors.db"

export const VectorKind = Schema.Literal("fact", "reflection", "persona")
export type VectorKind = typeof VectorKind.Type

export interface StoredVector {
  readonly kind: VectorKind
  readonly id: string
  readonly textSha256: string
  readonly modelId: string
  readonly vector: Float32Array
}

export interface VectorEntry {
  readonly kind: VectorKind
  readonly id: string
  readonly text: string
}

export interface VectorStore {
  /** The stored rows of `ids` (valid or not), by id. */
  readonly get: (
    kind: VectorKind,
    ids: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyMap<string, StoredVector>, StoreError>
  /** Inserts or replaces rows, in one transaction. */
  readonly put: (rows: ReadonlyArray<StoredVector>) => Effect.Effect<void, StoreError>
  /** The entries without a row valid for their current text under `modelId` with `dim` dimensions. */
  readonly missing: <E extends VectorEntry>(
    entries: ReadonlyArray<E>,
    modelId: string,
    dim: number
  ) => Effect.Effect<ReadonlyArray<E>, StoreError>
  /** Deletes the rows of `kind` whose id is not in `live`; returns how many went. */
  readonly prune: (kind: VectorKind, live: ReadonlyArray<string>) => Effect.Effect<number, StoreError>
  /** Deletes the rows of `ids` for good (forgetting): freed pages zeroed, the WAL checkpointed and truncated. */
  readonly forget: (kind: VectorKind, ids: ReadonlyArray<string>) => Effect.Effect<void, StoreError>
  /** `<epoch>:<counter>`: changes with every write that changed rows, and when the file is recreated. */
  readonly version: Effect.Effect<string, StoreError>
  readonly close: Effect.Effect<void>
}

/** A row's key without its vector: what deciding whether an entry needs a vector reads. */
const KeyRow = Schema.Struct({
  entry_id: Schema.String,
  text_sha256: Schema.String,
  model_id: Schema.String,
  dim: Schema.Int
})
const Row = Schema.Struct({ ...KeyRow.fields, kind: VectorKind, vector: Schema.Uint8ArrayFromSelf })
const decodeRows = Schema.decodeUnknownSync(Schema.Array(Row))
const decodeKeys = Schema.decodeUnknownSync(Schema.Array(KeyRow))
const decodeIds = Schema.decodeUnknownSync(Schema.Array(Schema.String))

const schema = `CREATE TABLE IF NOT EXISTS vectors (
  kind TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  text_sha256 TEXT NOT NULL,
  model_id TEXT NOT NULL,
  dim INTEGER NOT NULL,
  vector BLOB NOT NULL,
  PRIMARY KEY (kind, entry_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
INSERT OR IGNORE INTO meta (key, value) VALUES ('epoch', lower(hex(randomblob(8)))), ('version', '0');`

const CHUNK = 500
const selectRows = "SELECT kind, entry_id, text_sha256, model_id, dim, vector FROM vectors WHERE kind = ?"
/** The rows whose vector decodes to `dim` values (an even blob of 2 × dim bytes), without reading the vector. */
const selectKeys =
  "SELECT entry_id, text_sha256, model_id, dim FROM vectors WHERE kind = ? AND length(vector) = 2 * dim"

const openDb = (file: string) => {
  const db = new Database(file)
  try {
    db.pragma("journal_mode = WAL")
    db.pragma("synchronous = NORMAL")
    db.pragma("busy_timeout = 5000")
    db.pragma("secure_delete = ON")
    db.exec(schema)
    return db
  } catch (e) {
    db.close()
    throw e
  }
}

const removeFiles = (file: string) => {
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true })
}

/** Opens (creating) `<dir>/vectors.db`; an unreadable file is replaced by an empty one. */
export const open = (dir: string): Effect.Effect<VectorStore, StoreError> => {
  const file = path.join(dir, VECTORS_FILE)
  const fail = (op: string) => (e: unknown) =>
    new StoreError({ op, file, message: e instanceof Error ? e.message : String(e) })
  return Effect.try({ try: () => openDb(file), catch: fail("open") }).pipe(
    Effect.catchAll((e) =>
      Effect.logWarning("vectors.db unreadable; recreated").pipe(
        Effect.annotateLogs({ error: e.message }),
        Effect.zipRight(
          Effect.try({
            try: () => {
              removeFiles(file)
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

const makeStore = (db: Database.Database, fail: (op: string) => (e: unknown) => StoreError): VectorStore => {
  const wrap = <A>(op: string, f: () => A) => Effect.try({ try: f, catch: fail(op) })
  const upsert = db.prepare(
    "INSERT OR REPLACE INTO vectors (kind, entry_id, text_sha256, model_id, dim, vector) VALUES (?, ?, ?, ?, ?, ?)"
  )
  const bump = db.prepare("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'version'")
  const readVersion = db.prepare("SELECT group_concat(value, ':') FROM (SELECT value FROM meta ORDER BY key)").pluck()
  const putAll = db.transaction((rows: ReadonlyArray<StoredVector>) => {
    if (rows.length > 0) bump.run()
    for (const r of rows) {
      upsert.run(r.kind, r.id, r.textSha256, r.modelId, r.vector.length, Buffer.from(encodeHalf(r.vector)))
    }
  })
  /** The rows `sql` (filtered by kind) finds among `ids`, asked for in chunks of ids. */
  const inChunks = (sql: string, kind: VectorKind, ids: ReadonlyArray<string>) => {
    const rows: Array<unknown> = []
    for (let i = 0; i < ids.length; i += CHUNK) {
      const part = ids.slice(i, i + CHUNK)
      const marks = part.map(() => "?").join(", ")
      rows.push(...db.prepare(`${sql} AND entry_id IN (${marks})`).all(kind, ...part))
    }
    return rows
  }
  const select = (kind: VectorKind, ids: ReadonlyArray<string>) => {
    const out = new Map<string, StoredVector>()
    for (const r of decodeRows(inChunks(selectRows, kind, ids))) {
      const vector = decodeHalf(r.vector)
      if (Option.isNone(vector) || vector.value.length !== r.dim) continue
      out.set(r.entry_id, {
        kind: r.kind,
        id: r.entry_id,
        textSha256: r.text_sha256,
        modelId: r.model_id,
        vector: vector.value
      })
    }
    return out
  }
  const listIds = db.prepare("SELECT entry_id FROM vectors WHERE kind = ?").pluck()
  const remove = db.prepare("DELETE FROM vectors WHERE kind = ? AND entry_id = ?")
  const removeAll = db.transaction((kind: VectorKind, ids: ReadonlyArray<string>) => {
    if (ids.length > 0) bump.run()
    for (const id of ids) remove.run(kind, id)
  })
  return {
    get: (kind, ids) => wrap("query", () => select(kind, ids)),
    put: (rows) => wrap("insert", () => putAll(rows)),
    missing: (entries, modelId, dim) =>
      wrap("query", () => {
        // Keys only: a backfill tick asks this of every entry, and the vectors themselves are not needed.
        const stored = new Map<
          string,
          { readonly textSha256: string; readonly modelId: string; readonly dim: number }
        >()
        for (const kind of new Set(entries.map((e) => e.kind))) {
          const ids = entries.filter((e) => e.kind === kind).map((e) => e.id)
          for (const r of decodeKeys(inChunks(selectKeys, kind, ids)))
            stored.set(`${kind}\u0000${r.entry_id}`, { textSha256: r.text_sha256, modelId: r.model_id, dim: r.dim })
        }
        return entries.filter((e) => {
          const row = stored.get(`${e.kind}\u0000${e.id}`)
          return row === undefined || !isValid(row, e.text, modelId, dim)
        })
      }),
    prune: (kind, live) =>
      wrap("delete", () => {
        const keep = new Set(live)
        const gone = decodeIds(listIds.all(kind)).filter((id) => !keep.has(id))
        removeAll(kind, gone)
        return gone.length
      }),
    forget: (kind, ids) =>
      wrap("delete", () => {
        if (ids.length === 0) return
        removeAll(kind, ids)
        db.pragma("wal_checkpoint(TRUNCATE)")
      }),
    version: wrap("query", () => decodeIds([readVersion.get()])[0] ?? ""),
    close: Effect.sync(() => {
      if (db.open) db.close()
    })
  }
}
