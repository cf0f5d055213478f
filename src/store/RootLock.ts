/**
 * One writer per memory root across processes. The lock is an exclusive SQLite transaction held on
 * `<root>/.kioku.lock` for the life of the process: the kernel drops it when the process dies (even by
 * SIGKILL), so a stale lock never blocks a restart. `.kioku.lock.pid` names the holder for the error message;
 * every process that takes the lock rewrites it, so its stamp before and after this process took the lock
 * (`RootHolder`) tells derived files such as the due-work index whether another process held the root since.
 */
import Database from "better-sqlite3"
import { Context, Effect, Layer, Schema, type Scope } from "effect"
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import * as path from "node:path"

export class RootLocked extends Schema.TaggedError<RootLocked>()("RootLocked", {
  root: Schema.String,
  message: Schema.String
}) {}

const holder = (file: string): string => {
  try {
    return readFileSync(file, "utf8").trim()
  } catch {
    return "unknown"
  }
}

/**
 * Opens `file` as an SQLite database holding an exclusive transaction (the lock); throws when another
 * process holds it. `release` lets it go.
 */
/** An open lock file (its transaction is the lock). */
export type LockDb = Database.Database

export const lockFile = (file: string): Database.Database => {
  const db = new Database(file, { timeout: 0 })
  try {
    db.pragma("locking_mode = EXCLUSIVE")
    db.exec("CREATE TABLE IF NOT EXISTS holder (pid INTEGER); BEGIN EXCLUSIVE; INSERT INTO holder VALUES (0);")
  } catch (e) {
    db.close()
    throw e
  }
  return db
}

export const release = (db: Database.Database) => {
  try {
    db.exec("ROLLBACK")
  } finally {
    db.close()
  }
}

/** A `RootLocked` naming the holder's pid when the lock is taken, else the failure itself. */
const lockError = (root: string, taken: (pid: string) => string, verb: string) => (e: unknown) =>
  new RootLocked({
    root,
    message:
      e instanceof Error && /locked|busy/i.test(e.message)
        ? taken(holder(path.join(root, ".kioku.lock.pid")))
        : `cannot ${verb} the memory root ${root}: ${e instanceof Error ? e.message : String(e)}`
  })

/** The pid file's identity: content and modification time (ns); empty when it does not exist. */
const pidStamp = (root: string): string => {
  const file = path.join(root, ".kioku.lock.pid")
  try {
    const st = statSync(file, { bigint: true })
    return `${st.ino}:${st.mtimeNs}:${holder(file)}`
  } catch {
    return ""
  }
}

/** The pid file's stamp as the previous holder left it, and as this process wrote it. */
export class RootHolder extends Context.Tag("app/store/RootHolder")<
  RootHolder,
  { readonly previous: string; readonly current: string }
>() {
  /** Takes the root lock for the layer's life (as `acquire`) and notes both stamps. */
  static readonly layer = (root: string) =>
    Layer.scoped(
      RootHolder,
      Effect.gen(function* () {
        const previous = yield* Effect.sync(() => pidStamp(root))
        yield* acquire(root)
        return { previous, current: pidStamp(root) }
      })
    )
}

export const acquire = (root: string): Effect.Effect<Database.Database, RootLocked, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.try({
      try: () => {
        mkdirSync(root, { recursive: true })
        const db = lockFile(path.join(root, ".kioku.lock"))
        writeFileSync(path.join(root, ".kioku.lock.pid"), `${process.pid}\n`)
        return db
      },
      catch: lockError(root, (pid) => `another kioku process (pid ${pid}) is using the memory root ${root}`, "lock")
    }),
    (db) => Effect.sync(() => release(db))
  )

/**
 * Cluster mode's hold on the root: a shared lock (an open read transaction) on the same file, which any
 * number of runners hold together and which keeps a single-process kioku (which needs it exclusively) out.
 * The root must exist: a runner whose shared volume is not mounted must not start writing to a local directory.
 */
export const share = (root: string): Effect.Effect<Database.Database, RootLocked, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.try({
      try: () => {
        if (!existsSync(root))
          throw new Error("it does not exist (a shared root is mounted, never created, by a runner)")
        const db = new Database(path.join(root, ".kioku.lock"), { timeout: 2000 })
        try {
          db.exec("CREATE TABLE IF NOT EXISTS holder (pid INTEGER); BEGIN")
          db.prepare("SELECT count(*) FROM holder").get()
        } catch (e) {
          db.close()
          throw e
        }
        return db
      },
      catch: lockError(root, (pid) => `a single-process kioku (pid ${pid}) holds the memory root ${root}`, "share")
    }),
    (db) => Effect.sync(() => release(db))
  )
