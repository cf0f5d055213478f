/**
 * The due-work index `<root>/.kioku-due.db`: one SQLite row per character saying which maintenance loops still
 * have to look at it, so a pass reads one small table instead of listing and loading every directory. It is
 * derived and deletable: a missing, unreadable or foreign file is rebuilt by one directory scan with every
 * character due. A row holds `changed` (a sequence number taken when the character last got work), one
 * `seen_<loop>` per loop (the sequence at which that loop's last settled visit began) and `timer` (when the
 * time-driven loops must look again although nothing changed). A loop is due for a character while
 * `changed > seen_<loop>`. Marks are written with `synchronous = FULL`, before the journal line they announce,
 * so a crash can leave a character due without work (one wasted visit), never work without a mark; visits are
 * not synced on their own (a lost one means one more visit).
 */
import Database from "better-sqlite3"
import { Effect } from "effect"
import { rmSync } from "node:fs"
import * as path from "node:path"
import { StoreError } from "./DurableFs.js"

export const FILE = ".kioku-due.db"
/** The root-lock stamp of the last process that kept the index (lock bookkeeping, beside the pid file). */
export const HOLDER_FILE = ".kioku.lock.due-holder"
const SCHEMA = "1"

export interface DueIndex {
  /** Marks `name` changed (inserting its row); durable before it returns. */
  readonly mark: (name: string) => number
  /** A fresh sequence number, taken when a visit begins. */
  readonly next: () => number
  /** Turns every timer due at `now` into due visits of `timed` loops. */
  readonly fire: (timed: ReadonlyArray<string>, now: number) => void
  /** Characters `loop` has to visit, sorted. */
  readonly dueFor: (loop: string) => ReadonlyArray<string>
  /** Characters changed since the last settled visit of every loop (no loop has settled them since). */
  readonly unsettled: () => ReadonlyArray<string>
  /** Records a visit of `loop` that began at `seq`: settled visits advance `seen`; the timer is replaced. */
  readonly visited: (name: string, loop: string, seq: number, settled: boolean, timer: number | null) => void
  readonly remove: (name: string) => void
  /** Makes `loop` due for every character (e.g. a new embedding model) when `epoch` differs from the last one. */
  readonly epoch: (loop: string, epoch: string) => void
  /** Rows for the listed names: all due when `all`, else only the missing ones; rows of absent names dropped. */
  readonly reconcile: (names: ReadonlyArray<string>, all: boolean) => void
  readonly close: () => void
}

const fail = (op: string, file: string) => (e: unknown) =>
  new StoreError({ op, file, message: e instanceof Error ? e.message : String(e) })

const column = (loop: string) => {
  if (!/^[a-z_]+$/.test(loop)) throw new Error(`not a loop name: ${loop}`)
  return `seen_${loop}`
}

const openDb = (file: string, loops: ReadonlyArray<string>): { db: Database.Database; fresh: boolean } => {
  const db = new Database(file)
  try {
    db.pragma("journal_mode = WAL")
    db.pragma("synchronous = FULL")
    db.pragma("busy_timeout = 2000")
    db.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as { value: string } | undefined
    const wanted = `${SCHEMA}:${loops.join(",")}`
    if (row?.value === wanted) return { db, fresh: false }
    db.exec("DROP TABLE IF EXISTS due; DELETE FROM meta")
    const seen = loops.map((l) => `${column(l)} INTEGER NOT NULL DEFAULT 0`).join(", ")
    db.exec(`CREATE TABLE due (name TEXT PRIMARY KEY, changed INTEGER NOT NULL, timer INTEGER, ${seen})`)
    db.prepare("INSERT INTO meta VALUES ('schema', ?)").run(wanted)
    return { db, fresh: true }
  } catch (e) {
    db.close()
    throw e
  }
}

/** Opens (or recreates) the index under `root` for `loops`; `fresh` when it had to start empty. */
export const open = (root: string, loops: ReadonlyArray<string>) =>
  Effect.try({
    try: () => {
      const file = path.join(root, FILE)
      let opened: { db: Database.Database; fresh: boolean }
      try {
        opened = openDb(file, loops)
      } catch {
        for (const f of [file, `${file}-wal`, `${file}-shm`]) rmSync(f, { force: true })
        opened = openDb(file, loops)
      }
      return { index: make(opened.db, loops), fresh: opened.fresh }
    },
    catch: fail("open", path.join(root, FILE))
  })

const make = (db: Database.Database, loops: ReadonlyArray<string>): DueIndex => {
  const max = db.prepare(`SELECT MAX(MAX(changed, ${loops.map(column).join(", ")})) AS m FROM due`).get() as {
    m: number | null
  }
  let seq = max.m ?? 0
  const meta = (key: string) =>
    (db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined)?.value
  const setMeta = db.prepare("INSERT INTO meta VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
  const upsert = db.prepare(
    "INSERT INTO due (name, changed) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET changed = excluded.changed"
  )
  const names = (sql: string) => (db.prepare(sql).all() as ReadonlyArray<{ name: string }>).map((r) => r.name)
  const unsettled = `changed > MAX(${loops.map(column).join(", ")})`
  const remove = db.prepare("DELETE FROM due WHERE name = ?")
  const visits = new Map(
    loops.map((loop) => {
      const c = column(loop)
      return [
        loop,
        db.prepare(`UPDATE due SET ${c} = CASE WHEN ? THEN MAX(${c}, ?) ELSE ${c} END, timer = ? WHERE name = ?`)
      ]
    })
  )
  return {
    mark: (name) => {
      seq++
      upsert.run(name, seq)
      return seq
    },
    next: () => ++seq,
    fire: (timed, now) => {
      const reset = timed.map((l) => `${column(l)} = 0`).join(", ")
      db.prepare(`UPDATE due SET ${reset}, timer = NULL WHERE timer IS NOT NULL AND timer <= ?`).run(now)
    },
    dueFor: (loop) => names(`SELECT name FROM due WHERE changed > ${column(loop)} ORDER BY name`),
    unsettled: () => names(`SELECT name FROM due WHERE ${unsettled} ORDER BY name`),
    visited: (name, loop, at, settled, timer) => {
      // A lost visit costs one more visit, never work: it is not synced on its own; the next mark's sync
      // carries it (WAL frames are synced in order).
      db.pragma("synchronous = NORMAL")
      try {
        const statement = visits.get(loop)
        if (statement === undefined) throw new Error(`not a loop of this index: ${loop}`)
        statement.run(settled ? 1 : 0, at, timer, name)
      } finally {
        db.pragma("synchronous = FULL")
      }
    },
    remove: (name) => void remove.run(name),
    epoch: (loop, epoch) => {
      const key = `epoch:${loop}`
      if (meta(key) === epoch) return
      db.transaction(() => {
        db.prepare(`UPDATE due SET ${column(loop)} = 0`).run()
        setMeta.run(key, epoch)
      })()
    },
    reconcile: (listed, all) =>
      db.transaction(() => {
        const known = new Set(names("SELECT name FROM due"))
        const present = new Set(listed)
        for (const name of known) if (!present.has(name)) remove.run(name)
        if (all) db.exec(`UPDATE due SET ${loops.map((l) => `${column(l)} = 0`).join(", ")}`)
        for (const name of listed) if (all || !known.has(name)) upsert.run(name, ++seq)
      })(),
    close: () => db.close()
  }
}
