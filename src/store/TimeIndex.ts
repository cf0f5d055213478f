/**
 * `time_indexed.db`: the raw, time-ordered journal of every message (table `time_indexed_original`), in WAL
 * mode with `synchronous=NORMAL`: commits survive a process crash at once and power loss after the next
 * checkpoint (until then `events.ndjson` holds the turns). Rows are inserted per journal event inside one
 * transaction together with a marker in `kioku_applied_events`, so replaying an event never inserts its
 * rows twice.
 */
import Database from "better-sqlite3"
import { Effect, Schema } from "effect"
import { StoreError } from "./DurableFs.js"
import { timeIndexMigrations, type Migration } from "./Migrations.js"

export interface TurnRows {
  readonly eventId: string
  readonly sessionId: string
  readonly timestamp: string
  readonly messages: ReadonlyArray<string>
}

export interface TimeRow {
  readonly id: number
  readonly session_id: string
  readonly message: string
  readonly timestamp: string
}

const TimeRowSchema = Schema.Struct({
  id: Schema.Number,
  session_id: Schema.String,
  message: Schema.String,
  timestamp: Schema.String
})
const decodeRows = Schema.decodeUnknownSync(Schema.Array(TimeRowSchema))
const decodeMessages = Schema.decodeUnknownSync(
  Schema.Array(Schema.Struct({ id: Schema.Number, message: Schema.String }))
)
const MaxRow = Schema.Struct({ ts: Schema.NullOr(Schema.String) })
const decodeMax = Schema.decodeUnknownSync(MaxRow)
const decodeHits = Schema.decodeUnknownSync(Schema.Array(Schema.Struct({ id: Schema.String, content: Schema.String })))
const decodeEventRows = Schema.decodeUnknownSync(
  Schema.Struct({ first: Schema.NullOr(Schema.Number), count: Schema.Number })
)

export interface TimeIndex {
  readonly applyTurns: (batch: ReadonlyArray<TurnRows>) => Effect.Effect<number, StoreError>
  readonly lastTimestamp: Effect.Effect<string | null, StoreError>
  readonly rows: (limit?: number) => Effect.Effect<ReadonlyArray<TimeRow>, StoreError>
  /** The ids of the rows one journal event inserted. */
  readonly rowIdsOf: (eventId: string) => Effect.Effect<ReadonlyArray<number>, StoreError>
  /** How many human messages were stored after row `rowId`. */
  readonly humanAfter: (rowId: number) => Effect.Effect<number, StoreError>
  /** Rows with an id above `rowId`, oldest first. */
  readonly rowsAfter: (rowId: number, limit: number) => Effect.Effect<ReadonlyArray<TimeRow>, StoreError>
  /** Human messages with a timestamp after `timestamp` (SQLite text order), oldest first. */
  readonly humanSince: (timestamp: string, limit: number) => Effect.Effect<ReadonlyArray<TimeRow>, StoreError>
  /** Indexes facts' pre-tokenized text in `facts_fts_v2` (replacing an earlier entry of the same id). */
  readonly indexFacts: (
    entries: ReadonlyArray<{ readonly id: string; readonly tokens: ReadonlyArray<string> }>
  ) => Effect.Effect<void, StoreError>
  /**
   * Drops the `facts_fts_v2` rows of facts `ids` for good (forgotten facts): the index merged, freed pages
   * zeroed (`secure_delete`), the WAL checkpointed and truncated; answers how many rows went.
   */
  readonly unindexFacts: (ids: ReadonlyArray<string>) => Effect.Effect<number, StoreError>
  /** Facts whose indexed tokens share any of `tokens`, best bm25 first. */
  readonly searchFacts: (
    tokens: ReadonlyArray<string>,
    limit: number
  ) => Effect.Effect<ReadonlyArray<{ readonly id: string; readonly tokens: ReadonlyArray<string> }>, StoreError>
  /**
   * Replaces, in one transaction, the `message` of every row whose text contains `needle` and for which
   * `rewrite` returns a new text; answers how many rows changed.
   */
  readonly rewriteMessages: (
    needle: string,
    rewrite: (message: string) => string | undefined
  ) => Effect.Effect<number, StoreError>
  /** Checkpoints the WAL, which fsyncs it: every commit so far survives power loss. */
  readonly checkpoint: Effect.Effect<void, StoreError>
  readonly close: Effect.Effect<void>
}

const migrate = (db: Database.Database, migrations: ReadonlyArray<Migration>) => {
  db.exec("CREATE TABLE IF NOT EXISTS kioku_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)")
  const done = new Set(
    db
      .prepare("SELECT version FROM kioku_migrations")
      .pluck()
      .all()
      .map((v) => Number(v))
  )
  const record = db.prepare("INSERT INTO kioku_migrations (version, name) VALUES (?, ?)")
  for (const m of migrations) {
    if (done.has(m.version)) continue
    db.transaction(() => {
      db.exec(m.sql)
      record.run(m.version, m.name)
    })()
  }
}

export const open = (file: string): Effect.Effect<TimeIndex, StoreError> =>
  Effect.try({
    try: () => {
      const db = new Database(file)
      db.pragma("journal_mode = WAL")
      db.pragma("synchronous = NORMAL")
      db.pragma("busy_timeout = 5000")
      db.pragma("secure_delete = ON")
      migrate(db, timeIndexMigrations)
      return db
    },
    catch: (e) => new StoreError({ op: "open", file, message: e instanceof Error ? e.message : String(e) })
  }).pipe(Effect.map((db) => makeIndex(db, file)))

const makeIndex = (db: Database.Database, file: string): TimeIndex => {
  const wrap = <A>(op: string, f: () => A) =>
    Effect.try({
      try: f,
      catch: (e) => new StoreError({ op, file, message: e instanceof Error ? e.message : String(e) })
    })
  const mark = db.prepare(
    "INSERT OR IGNORE INTO kioku_applied_events (event_id, first_row_id, row_count) VALUES (?, NULL, ?)"
  )
  const insert = db.prepare("INSERT INTO time_indexed_original (session_id, message, timestamp) VALUES (?, ?, ?)")
  const setFirst = db.prepare("UPDATE kioku_applied_events SET first_row_id = ? WHERE event_id = ?")
  const apply = db.transaction((batch: ReadonlyArray<TurnRows>) => {
    let inserted = 0
    for (const turn of batch) {
      if (mark.run(turn.eventId, turn.messages.length).changes === 0) continue
      let first: number | bigint | undefined
      for (const message of turn.messages) {
        const id = insert.run(turn.sessionId, message, turn.timestamp).lastInsertRowid
        first ??= id
      }
      if (first !== undefined) setFirst.run(first, turn.eventId)
      inserted += turn.messages.length
    }
    return inserted
  })
  const eventRows = db.prepare(
    "SELECT first_row_id AS first, row_count AS count FROM kioku_applied_events WHERE event_id = ?"
  )
  const countHuman = db.prepare(
    "SELECT COUNT(*) FROM time_indexed_original WHERE id > ? AND json_valid(message) AND json_extract(message, '$.type') = 'human'"
  )
  const after = db.prepare(
    "SELECT id, session_id, message, timestamp FROM time_indexed_original WHERE id > ? ORDER BY id LIMIT ?"
  )
  const maxTs = db.prepare("SELECT MAX(timestamp) AS ts FROM time_indexed_original")
  const humanSince = db.prepare(
    "SELECT id, session_id, message, timestamp FROM time_indexed_original WHERE timestamp > ? AND json_valid(message) AND json_extract(message, '$.type') = 'human' ORDER BY timestamp, id LIMIT ?"
  )
  const list = db.prepare(
    "SELECT id, session_id, message, timestamp FROM time_indexed_original ORDER BY timestamp, id LIMIT ?"
  )
  const ftsDelete = db.prepare("DELETE FROM facts_fts_v2 WHERE fact_id = ?")
  const ftsInsert = db.prepare("INSERT INTO facts_fts_v2 (fact_id, content) VALUES (?, ?)")
  const index = db.transaction(
    (entries: ReadonlyArray<{ readonly id: string; readonly tokens: ReadonlyArray<string> }>) => {
      for (const e of entries) {
        ftsDelete.run(e.id)
        ftsInsert.run(e.id, e.tokens.join(" "))
      }
    }
  )
  const ftsOptimize = db.prepare("INSERT INTO facts_fts_v2 (facts_fts_v2) VALUES ('optimize')")
  const unindex = db.transaction((ids: ReadonlyArray<string>) => {
    const gone = ids.reduce((n, id) => n + ftsDelete.run(id).changes, 0)
    // The index segments keep a deleted row's terms until they are merged: merge them now.
    if (gone > 0) ftsOptimize.run()
    return gone
  })
  const search = db.prepare(
    "SELECT fact_id AS id, content FROM facts_fts_v2 WHERE facts_fts_v2 MATCH ? ORDER BY bm25(facts_fts_v2) LIMIT ?"
  )
  const containing = db.prepare("SELECT id, message FROM time_indexed_original WHERE instr(message, ?) > 0")
  const setMessage = db.prepare("UPDATE time_indexed_original SET message = ? WHERE id = ?")
  const rewriteAll = db.transaction((needle: string, rewrite: (message: string) => string | undefined) => {
    let changed = 0
    for (const row of decodeMessages(containing.all(needle))) {
      const next = rewrite(row.message)
      if (next !== undefined && next !== row.message) changed += setMessage.run(next, row.id).changes
    }
    return changed
  })
  return {
    rewriteMessages: (needle, rewrite) => wrap("rewrite", () => rewriteAll(needle, rewrite)),
    indexFacts: (entries) => wrap("fts-index", () => index(entries)),
    unindexFacts: (ids) =>
      wrap("fts-unindex", () => {
        const gone = unindex(ids)
        if (gone > 0) db.pragma("wal_checkpoint(TRUNCATE)")
        return gone
      }),
    searchFacts: (tokens, limit) =>
      wrap("fts-search", () => {
        const unique = [...new Set(tokens)].filter((t) => t !== "")
        if (unique.length === 0) return []
        const query = unique.map((t) => `"${t.replace(/"/g, '""')}"`).join(" OR ")
        return decodeHits(search.all(query, limit)).map((h) => ({ id: h.id, tokens: h.content.split(" ") }))
      }),
    applyTurns: (batch) => wrap("insert", () => apply(batch)),
    lastTimestamp: wrap("query", () => decodeMax(maxTs.get()).ts),
    rows: (limit = -1) => wrap("query", () => decodeRows(list.all(limit))),
    rowIdsOf: (eventId) =>
      wrap("query", () => {
        const r = decodeEventRows(eventRows.get(eventId) ?? { first: null, count: 0 })
        return r.first === null ? [] : Array.from({ length: r.count }, (_, i) => (r.first ?? 0) + i)
      }),
    rowsAfter: (rowId, limit) => wrap("query", () => decodeRows(after.all(rowId, limit))),
    humanSince: (timestamp, limit) => wrap("query", () => decodeRows(humanSince.all(timestamp, limit))),
    humanAfter: (rowId) => wrap("query", () => Number(countHuman.pluck().get(rowId) ?? 0)),
    checkpoint: wrap("checkpoint", () => {
      db.pragma("wal_checkpoint(PASSIVE)")
    }),
    close: Effect.sync(() => {
      if (db.open) db.close()
    })
  }
}
