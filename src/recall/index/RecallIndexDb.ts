/**
 * `recall_index.db`, the derived on-disk copy of a character's recall corpus (RecallIndex.ts decides when it
 * is read and written): per subject partition its size, total length and number of disputed reflections;
 * per recallable entry (`docs`, keyed by its pool order) its id, partition, BM25 length, term list and the
 * projected entry as JSON; per (partition, term) its postings as one blob of little-endian float64 triples
 * (pool order, term frequency, entry length) sorted by order (`postings`); per partition the packed vectors of
 * its facts and reflections in chunks (`vecs`, written by VectorPack.ts); and in `meta` the tokenizer configuration and
 * the stamps of the source files it was built from. A whole build goes to a
 * temporary file renamed into place (a reader never sees half an index); later changes are applied in one
 * transaction with `secure_delete` on and the WAL truncated afterwards, so removed text leaves the file.
 * Everything here is synchronous (better-sqlite3); callers wrap it in effects and treat any throw as "no index".
 */
import Database from "better-sqlite3"
import { Schema } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"

export const RECALL_INDEX_FILE = "recall_index.db"

const schema = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS parts (pid INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, n INTEGER NOT NULL,
  total REAL NOT NULL, dynamic INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS docs (ord INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, pid INTEGER NOT NULL,
  length REAL NOT NULL, terms TEXT NOT NULL, entry TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS postings (pid INTEGER NOT NULL, term TEXT NOT NULL, data BLOB NOT NULL,
  UNIQUE (pid, term));
CREATE TABLE IF NOT EXISTS vecs (pid INTEGER NOT NULL, chunk INTEGER NOT NULL, ords BLOB NOT NULL, data BLOB NOT NULL,
  PRIMARY KEY (pid, chunk));`

/** Term list of a doc row: terms joined by NUL (a recall term never holds one). */
const SEP = "\u0000"

export interface PartStats {
  readonly key: string
  readonly n: number
  readonly total: number
  readonly dynamic: number
}

export interface DocRow {
  readonly ord: number
  readonly id: string
  readonly partition: string
  readonly length: number
  readonly terms: ReadonlyArray<readonly [string, number]>
  /** The projected entry, JSON (RecallIndex.ts encodes and decodes it). */
  readonly entry: string
}

/** Postings of one term: (order, tf, length) triples, sorted by order. */
export type Postings = Float64Array

const toBlob = (p: Postings) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)
const fromBlob = (b: Uint8Array): Postings => {
  if (b.byteLength % 24 !== 0) throw new Error("recall index: malformed postings")
  const copy = new Uint8Array(b.byteLength)
  copy.set(b)
  return new Float64Array(copy.buffer)
}
const decodeBlob = Schema.decodeUnknownSync(Schema.Uint8ArrayFromSelf)

/** `p` without the orders of `drop`, with `add` merged in, by order. */
const merged = (
  p: Postings | undefined,
  drop: ReadonlySet<number>,
  add: ReadonlyArray<readonly [number, number, number]>
) => {
  const triples: Array<readonly [number, number, number]> = [...add]
  if (p)
    for (let i = 0; i < p.length; i += 3)
      if (!drop.has(p[i] ?? -1)) triples.push([p[i] ?? 0, p[i + 1] ?? 0, p[i + 2] ?? 0])
  triples.sort((a, b) => a[0] - b[0])
  return Float64Array.from(triples.flat())
}

const PartRow = Schema.Struct({
  pid: Schema.Number,
  key: Schema.String,
  n: Schema.Number,
  total: Schema.Number,
  dynamic: Schema.Number
})
const decodeParts = Schema.decodeUnknownSync(Schema.Array(PartRow))
const decodeMeta = Schema.decodeUnknownSync(Schema.Array(Schema.Struct({ key: Schema.String, value: Schema.String })))
const decodeDocs = Schema.decodeUnknownSync(Schema.Array(Schema.Struct({ pid: Schema.Number, length: Schema.Number })))
const decodeEntries = Schema.decodeUnknownSync(Schema.Array(Schema.String))
const decodeVecs = Schema.decodeUnknownSync(
  Schema.Array(Schema.Struct({ ords: Schema.Uint8ArrayFromSelf, data: Schema.Uint8ArrayFromSelf }))
)
const decodeOld = Schema.decodeUnknownSync(
  Schema.Array(Schema.Struct({ ord: Schema.Number, pid: Schema.Number, terms: Schema.String, entry: Schema.String }))
)

export const indexFile = (dir: string) => path.join(dir, RECALL_INDEX_FILE)

/** The `meta` table of an open index. */
export const readMeta = (db: Database.Database): ReadonlyMap<string, string> =>
  new Map(decodeMeta(db.prepare("SELECT key, value FROM meta").all()).map((r) => [r.key, r.value]))

/** Deletes the index and its WAL files (forgetting, or a file that cannot be used). */
export const removeIndex = (dir: string) => {
  for (const suffix of ["", "-wal", "-shm", ".tmp", ".tmp-wal", ".tmp-shm"])
    fs.rmSync(indexFile(dir) + suffix, { force: true })
}

export const openDb = (file: string, create: boolean): Database.Database => {
  const db = new Database(file, { fileMustExist: !create })
  try {
    // A new file is filled without a journal (it is renamed into place only once complete), then switched to WAL.
    db.pragma(create ? "journal_mode = OFF" : "journal_mode = WAL")
    db.pragma(create ? "synchronous = OFF" : "synchronous = NORMAL")
    db.pragma("secure_delete = ON")
    if (create) db.exec(schema)
    return db
  } catch (e) {
    db.close()
    throw e
  }
}

export interface StoredDoc {
  readonly ord: number
  readonly id: string
  readonly pid: number
  readonly length: number
  /** The stored entry JSON; empty when not asked for. */
  readonly entry: string
}

const decodeStoredDocs = Schema.decodeUnknownSync(
  Schema.Array(
    Schema.Struct({
      ord: Schema.Number,
      id: Schema.String,
      pid: Schema.Number,
      length: Schema.Number,
      entry: Schema.String
    })
  )
)

export interface IndexReader {
  readonly meta: ReadonlyMap<string, string>
  readonly parts: ReadonlyMap<string, PartStats & { readonly pid: number }>
  readonly postings: (pid: number, term: string) => Postings
  readonly doc: (ord: number) => { readonly pid: number; readonly length: number } | undefined
  /** One past the largest remainder of a pool order divided by `span` (the orders within each of `ranks` tiers). */
  readonly seqs: (span: number, ranks: number) => number
  readonly entry: (ord: number) => string | undefined
  readonly entries: (pid: number) => ReadonlyArray<string>
  /** Up to `limit` docs after the pool order `after`, by order (with their entries when `entries`). */
  readonly docsAfter: (after: number, limit: number, entries: boolean) => ReadonlyArray<StoredDoc>
  /** One chunk of the packed vectors of a partition, from 0 (VectorPack.ts decodes them). */
  readonly vecs: (pid: number, chunk: number) => { readonly ords: Uint8Array; readonly data: Uint8Array } | undefined
  readonly close: () => void
}

/** The meta of the index file (throws when it is missing or unreadable). */
export const readerMeta = (dir: string): ReadonlyMap<string, string> => {
  const db = openDb(indexFile(dir), false)
  try {
    return readMeta(db)
  } finally {
    db.close()
  }
}

/** Opens an existing index for reading; throws when it is missing or unreadable. */
export const openReader = (dir: string): IndexReader => {
  const db = openDb(indexFile(dir), false)
  try {
    const meta = readMeta(db)
    const parts = new Map(
      decodeParts(db.prepare("SELECT pid, key, n, total, dynamic FROM parts").all()).map((p) => [p.key, p])
    )
    const postings = db.prepare("SELECT data FROM postings WHERE pid = ? AND term = ?").pluck()
    const entry = db.prepare("SELECT entry FROM docs WHERE ord = ?").pluck()
    const doc = db.prepare("SELECT pid, length FROM docs WHERE ord = ?")
    const entries = db.prepare("SELECT entry FROM docs WHERE pid = ? ORDER BY ord").pluck()
    const vecs = db.prepare("SELECT ords, data FROM vecs WHERE pid = ? AND chunk = ?")
    const after = (entries: boolean) =>
      db.prepare(
        `SELECT ord, id, pid, length, ${entries ? "entry" : "'' AS entry"} FROM docs WHERE ord > ? ORDER BY ord LIMIT ?`
      )
    const docsAfter = [after(false), after(true)] as const
    const lastIn = db.prepare("SELECT max(ord) FROM docs WHERE ord >= ? AND ord < ?").pluck()
    return {
      meta,
      parts,
      seqs: (span, ranks) => {
        let seqs = 0
        for (let r = 0; r < ranks; r++) {
          // A range on the integer primary key: one seek per rank, not a scan.
          const last: unknown = lastIn.get(r * span, (r + 1) * span)
          if (typeof last === "number") seqs = Math.max(seqs, last - r * span + 1)
        }
        return seqs
      },
      postings: (pid, term) => {
        const blob: unknown = postings.get(pid, term)
        return blob === undefined ? new Float64Array(0) : fromBlob(decodeBlob(blob))
      },
      doc: (ord) => decodeDocs([doc.get(ord)].filter((x) => x !== undefined))[0],
      entry: (ord) => decodeEntries([entry.get(ord)].filter((x) => x !== undefined))[0],
      entries: (pid) => decodeEntries(entries.all(pid)),
      vecs: (pid, chunk) => decodeVecs([vecs.get(pid, chunk)].filter((x) => x !== undefined))[0],
      docsAfter: (from, limit, entries) => decodeStoredDocs(docsAfter[entries ? 1 : 0].all(from, limit)),
      close: () => db.close()
    }
  } catch (e) {
    db.close()
    throw e
  }
}

const writer = (db: Database.Database) => {
  const pids = new Map(
    decodeParts(db.prepare("SELECT pid, key, n, total, dynamic FROM parts").all()).map((p) => [p.key, p.pid])
  )
  const upsertPart = db
    .prepare(
      "INSERT INTO parts (key, n, total, dynamic) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET n = excluded.n, total = excluded.total, dynamic = excluded.dynamic RETURNING pid"
    )
    .pluck()
  const insertDoc = db.prepare("INSERT INTO docs (ord, id, pid, length, terms, entry) VALUES (?, ?, ?, ?, ?, ?)")
  const putPostings = db.prepare("INSERT OR REPLACE INTO postings (pid, term, data) VALUES (?, ?, ?)")
  const setMeta = db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
  const pidOf = (key: string) => {
    const pid = pids.get(key)
    if (pid === undefined) throw new Error(`recall index: unknown partition ${key}`)
    return pid
  }
  return {
    parts: (stats: ReadonlyArray<PartStats>) => {
      for (const s of stats) {
        const pid = Number(upsertPart.get(s.key, s.n, s.total, s.dynamic))
        pids.set(s.key, pid)
      }
    },
    doc: (d: DocRow) =>
      insertDoc.run(d.ord, d.id, pidOf(d.partition), d.length, d.terms.map((t) => t[0]).join(SEP), d.entry),
    pidOf,
    postings: (partition: string, term: string, p: Postings) => putPostings.run(pidOf(partition), term, toBlob(p)),
    postingsOf: (pid: number, term: string, p: Postings) => putPostings.run(pid, term, toBlob(p)),
    meta: (values: ReadonlyMap<string, string>) => {
      for (const [k, v] of values) setMeta.run(k, v)
    }
  }
}

/** A whole index written in slices to `<file>.tmp`; `commit` renames it into place. */
export const build = (dir: string) => {
  const tmp = indexFile(dir) + ".tmp"
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(tmp + suffix, { force: true })
  const db = openDb(tmp, true)
  db.pragma("cache_size = -32000")
  const w = writer(db)
  let open = true
  const close = () => {
    if (open) db.close()
    open = false
  }
  return {
    /** Runs `f` with the writer in one transaction. */
    slice: (f: (w: ReturnType<typeof writer>) => void) => db.transaction(() => f(w))(),
    commit: (meta: ReadonlyMap<string, string>) => {
      db.transaction(() => w.meta(meta))()
      db.pragma("journal_mode = WAL")
      close()
      for (const suffix of ["-wal", "-shm"]) fs.rmSync(indexFile(dir) + suffix, { force: true })
      fs.renameSync(tmp, indexFile(dir))
    },
    abort: () => {
      close()
      for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(tmp + suffix, { force: true })
    }
  }
}

/**
 * Changes in one transaction: `ids` removed (with their postings), then `docs` (re)inserted, stats and meta set.
 * When every doc of `ids` comes back with the same order, partition and entry (a source file was rewritten
 * without a change recall sees), `rekey` may carry the packed vectors over: it gets the pack's key and answers
 * its key under the new meta (or undefined to leave it).
 */
export const update = (
  dir: string,
  change: {
    readonly ids: ReadonlyArray<string>
    readonly docs: ReadonlyArray<DocRow>
    readonly parts: ReadonlyArray<PartStats>
    readonly meta: ReadonlyMap<string, string>
    /** Checked inside the transaction: when it answers false nothing is written. */
    readonly still: (meta: ReadonlyMap<string, string>) => boolean
    readonly rekey?: (key: string) => string | undefined
  }
): boolean => {
  const db = openDb(indexFile(dir), false)
  try {
    const old = db.prepare("SELECT ord, pid, terms, entry FROM docs WHERE id = ?")
    const dropDoc = db.prepare("DELETE FROM docs WHERE ord = ?")
    const readPostings = db.prepare("SELECT data FROM postings WHERE pid = ? AND term = ?").pluck()
    const dropPostings = db.prepare("DELETE FROM postings WHERE pid = ? AND term = ?")
    const done = db.transaction(() => {
      const meta = readMeta(db)
      if (!change.still(meta)) return false
      const w = writer(db)
      w.parts(change.parts)
      // Per (partition, term): the orders leaving it and the triples joining it.
      const touched = new Map<
        string,
        { pid: number; term: string; drop: Set<number>; add: Array<readonly [number, number, number]> }
      >()
      const at = (pid: number, term: string) => {
        const key = `${pid}${SEP}${term}`
        const t = touched.get(key) ?? { pid, term, drop: new Set<number>(), add: [] }
        touched.set(key, t)
        return t
      }
      const was = new Map<string, string>()
      for (const id of change.ids)
        for (const o of decodeOld(old.all(id))) {
          for (const term of o.terms === "" ? [] : o.terms.split(SEP)) at(o.pid, term).drop.add(o.ord)
          dropDoc.run(o.ord)
          was.set(id, `${o.ord}${SEP}${o.pid}${SEP}${o.entry}`)
        }
      let same = was.size === change.docs.length
      for (const d of change.docs) {
        w.doc(d)
        const pid = w.pidOf(d.partition)
        for (const [term, tf] of d.terms) at(pid, term).add.push([d.ord, tf, d.length])
        same &&= was.get(d.id) === `${d.ord}${SEP}${pid}${SEP}${d.entry}`
      }
      for (const t of touched.values()) {
        const blob: unknown = readPostings.get(t.pid, t.term)
        const next = merged(blob === undefined ? undefined : fromBlob(decodeBlob(blob)), t.drop, t.add)
        if (next.length === 0) dropPostings.run(t.pid, t.term)
        else w.postingsOf(t.pid, t.term, next)
      }
      w.meta(change.meta)
      const packed = meta.get("vectors")
      const rekeyed = same && packed !== undefined ? change.rekey?.(packed) : undefined
      if (rekeyed !== undefined) w.meta(new Map([["vectors", rekeyed]]))
      return true
    })()
    if (done) db.pragma("wal_checkpoint(TRUNCATE)")
    return done
  } finally {
    db.close()
  }
}
