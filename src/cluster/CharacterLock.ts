/**
 * The per-character ownership lock of cluster mode, in place of the memory-root lock: an exclusive SQLite
 * transaction on `<root>/#cluster/<name>.lock`, held for the life of the character's actor on the runner that
 * owns its shard. The kernel drops it when the holder dies (even by SIGKILL), so a new owner takes over at
 * once; while a previous owner still closes its actor, the new one retries for `claimWait`. Every take and
 * release is appended to `<name>.owners.ndjson` with the runner's id: the audit trail of who could write. A log
 * past 256 KiB is cut to its newest 1,000 lines when the lock is next taken.
 */
import { Duration, Effect, Schedule, Schema, type Scope } from "effect"
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from "node:fs"
import * as path from "node:path"
import type { CharacterName } from "../domain/CharacterName.js"
import { StoreError, writeAtomic } from "../store/DurableFs.js"
import * as RootLock from "../store/RootLock.js"

/** `#` is not allowed in a character name, so the directory never reads as a character. */
export const locksDir = (root: string) => path.join(root, "#cluster")

export const OwnerEvent = Schema.Struct({
  runner: Schema.String,
  pid: Schema.Number,
  event: Schema.Literal("acquired", "released"),
  at: Schema.Number
})
export type OwnerEvent = typeof OwnerEvent.Type

const encodeLine = Schema.encodeSync(Schema.parseJson(OwnerEvent))

const claimWait = Duration.seconds(30)

/** An owners log past this size keeps only its newest `keepLines` lines, rewritten by the lock's holder. */
export const trimAtBytes = 256 * 1024
const keepLines = 1_000

/** Cuts `log` down to its newest lines once it is past `trimAtBytes`; only the lock's holder calls it. */
const trim = (log: string) =>
  Effect.try({
    try: () => {
      if (!existsSync(log) || statSync(log).size <= trimAtBytes) return false
      const lines = readFileSync(log, "utf8")
        .split("\n")
        .filter((l) => l !== "")
      return lines.slice(-keepLines).join("\n") + "\n"
    },
    catch: (e) => new StoreError({ op: "owners_trim", file: log, message: e instanceof Error ? e.message : String(e) })
  }).pipe(Effect.flatMap((kept) => (kept === false ? Effect.void : Effect.asVoid(writeAtomic(log, kept)))))

const record = (file: string, runner: string, event: OwnerEvent["event"]) =>
  Effect.flatMap(
    Effect.clockWith((c) => c.currentTimeMillis),
    (at) =>
      Effect.try({
        try: () => appendFileSync(file, encodeLine({ runner, pid: process.pid, event, at }) + "\n"),
        catch: (e) => new StoreError({ op: "owners_log", file, message: e instanceof Error ? e.message : String(e) })
      })
  )

const tryLock = (file: string) =>
  Effect.try({
    try: () => RootLock.lockFile(file),
    catch: (e) => new StoreError({ op: "claim", file, message: e instanceof Error ? e.message : String(e) })
  })

const ensureLocksDir = (root: string) => {
  const dir = locksDir(root)
  return Effect.try({
    try: () => mkdirSync(dir, { recursive: true }),
    catch: (e) => new StoreError({ op: "mkdir", file: dir, message: e instanceof Error ? e.message : String(e) })
  }).pipe(Effect.as(dir))
}

/**
 * The lock `#cluster/<key>.lock` of a file every runner rewrites, for one read-modify-write, held in the scope:
 * runners would otherwise overwrite each other's change.
 */
export const sharedFileLock = (root: string, key: string): Effect.Effect<RootLock.LockDb, StoreError, Scope.Scope> =>
  Effect.flatMap(ensureLocksDir(root), (dir) =>
    Effect.acquireRelease(
      tryLock(path.join(dir, `${key}.lock`)).pipe(
        Effect.retry(Schedule.spaced("50 millis").pipe(Schedule.upTo(claimWait)))
      ),
      (db) => Effect.sync(() => RootLock.release(db))
    )
  )

/** The lock of the shared `config/characters.json` for a rename. */
export const configLock = (root: string): Effect.Effect<RootLock.LockDb, StoreError, Scope.Scope> =>
  sharedFileLock(root, "characters-json")

export const claim = (root: string, runner: string) => (name: CharacterName) =>
  Effect.gen(function* () {
    const dir = yield* ensureLocksDir(root)
    const file = path.join(dir, `${name}.lock`)
    const log = path.join(dir, `${name}.owners.ndjson`)
    yield* Effect.acquireRelease(
      tryLock(file).pipe(
        Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.upTo(claimWait))),
        Effect.tap(() => trim(log).pipe(Effect.ignoreLogged)),
        Effect.tap(() => record(log, runner, "acquired"))
      ),
      (db) =>
        record(log, runner, "released").pipe(Effect.ignore, Effect.zipRight(Effect.sync(() => RootLock.release(db))))
    )
  })
