/**
 * Numbered schema migrations of `time_indexed.db`. Immutable once released: add a new entry, never edit one.
 * Tables N.E.K.O. created already are matched with `IF NOT EXISTS`, so its databases load unchanged.
 */
export interface Migration {
  readonly version: number
  readonly name: string
  readonly sql: string
}

export const timeIndexMigrations: ReadonlyArray<Migration> = [
  {
    version: 1,
    name: "time_indexed_tables",
    sql: `
      CREATE TABLE IF NOT EXISTS time_indexed_original (
        id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, message TEXT, timestamp DATETIME);
      CREATE INDEX IF NOT EXISTS idx_time_indexed_original_timestamp ON time_indexed_original (timestamp);
      CREATE TABLE IF NOT EXISTS time_indexed_compressed (
        id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, message TEXT, timestamp DATETIME);`
  },
  {
    version: 2,
    name: "kioku_applied_events",
    sql: `
      CREATE TABLE IF NOT EXISTS kioku_applied_events (
        event_id TEXT PRIMARY KEY, first_row_id INTEGER, row_count INTEGER NOT NULL);`
  },
  {
    version: 3,
    name: "facts_fts_v2",
    sql: `
      CREATE VIRTUAL TABLE IF NOT EXISTS facts_fts_v2 USING fts5(fact_id UNINDEXED, content, tokenize = 'unicode61');
      CREATE TABLE IF NOT EXISTS facts_fts_meta (key TEXT PRIMARY KEY, value TEXT);`
  }
]
