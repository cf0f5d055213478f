/**
 * Durable file primitives: atomic whole-file replace (temp file, fsync, rename, fsync of the directory),
 * fsynced appends, and reads that tell "missing" apart from "unreadable". Every failure is a `StoreError`
 * naming the operation and file; nothing here throws. Calls are synchronous: an fsync here costs ~0.1-0.4 ms,
 * less than a thread-pool round trip per step, and actors batch their writes.
 */
import { Effect, Option, Schema } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"

export class StoreError extends Schema.TaggedError<StoreError>()("StoreError", {
  op: Schema.String,
  file: Schema.String,
  message: Schema.String
}) {}

const fail = (op: string, file: string) => (cause: unknown) =>
  new StoreError({ op, file, message: cause instanceof Error ? cause.message : String(cause) })

const isMissing = (e: unknown): boolean =>
  typeof e === "object" && e !== null && "code" in e && (e.code === "ENOENT" || e.code === "ENOTDIR")

const attempt = <A>(op: string, file: string, f: () => A) => Effect.try({ try: f, catch: fail(op, file) })

const syncFd = (fd: number, dataOnly: boolean) => (dataOnly ? fs.fdatasyncSync(fd) : fs.fsyncSync(fd))

export const fsyncDir = (dir: string) =>
  attempt("fsync-dir", dir, () => {
    const fd = fs.openSync(dir, "r")
    try {
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
  })

/** Creates `dir` (and parents) if missing; a new entry is made durable with an fsync of the parent. */
export const ensureDir = (dir: string) =>
  attempt("mkdir", dir, () => fs.mkdirSync(dir, { recursive: true })).pipe(
    Effect.flatMap((created) => (created === undefined ? Effect.void : fsyncDir(path.dirname(dir))))
  )

/**
 * Runs writes into `dir` that create their file there: the directory is made (`ensureDir`) before the first,
 * and again only when a later write failed because the directory had gone, which then runs once more.
 */
export const withinDir = (dir: string) => {
  let ready = false
  return <A, E>(write: Effect.Effect<A, E>): Effect.Effect<A, E | StoreError> =>
    ready
      ? Effect.catchIf(
          write,
          () => !fs.existsSync(dir),
          () => Effect.zipRight(ensureDir(dir), write)
        )
      : Effect.zipRight(ensureDir(dir), write).pipe(
          Effect.tap(() => {
            ready = true
          })
        )
}

/**
 * Replaces `file` with `text` atomically; the old content survives any crash before the rename.
 * `full` (default) also fsyncs the directory so the rename itself survives power loss; `content` leaves that
 * to a later `fsyncDir` (journal checkpoints), which keeps one fsync off the acknowledgement path.
 */
export const writeAtomic = (file: string, text: string | Uint8Array, durability: "full" | "content" = "full") =>
  attempt("write", file, () => {
    const tmp = `${file}.${randomUUID().slice(0, 8)}.tmp`
    const fd = fs.openSync(tmp, "w")
    try {
      try {
        fs.writeFileSync(fd, text)
        syncFd(fd, false)
      } finally {
        fs.closeSync(fd)
      }
      fs.renameSync(tmp, file)
    } catch (e) {
      fs.rmSync(tmp, { force: true })
      throw e
    }
  }).pipe(Effect.zipRight(durability === "full" ? fsyncDir(path.dirname(file)) : Effect.void))

/** `writeAtomic`'s temp files, and a SQLite file built under `<name>.db.tmp` before its rename (and its WAL). */
const tempName = /(\.[0-9a-f]{8}\.tmp|\.db\.tmp(-wal|-shm|-journal)?)$/

/**
 * Removes the temp files `writeAtomic` or a derived index's build left in `dir` and its subdirectories when
 * the process died between writing and renaming one (they hold a view that never became current). Only safe while nothing writes
 * there: a character's directory as its state is loaded, under the root lock. Returns how many were removed.
 */
export const sweepTemps = (dir: string) =>
  attempt("sweep", dir, () => {
    const temps = fs
      .readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((rel) => tempName.test(rel) && rel.split(path.sep).length <= 2)
    for (const rel of temps) fs.rmSync(path.join(dir, rel), { force: true })
    return temps.length
  })

/**
 * Appends `text`; with `sync` (default) the data is fsynced before succeeding. A failed append (a full disk
 * takes part of the text) is cut off again, so the next append does not glue its line onto a torn one.
 */
export const appendDurable = (file: string, text: string, sync = true) =>
  attempt("append", file, () => {
    const fd = fs.openSync(file, "a")
    try {
      const size = fs.fstatSync(fd).size
      try {
        fs.writeFileSync(fd, text)
        if (sync) syncFd(fd, true)
      } catch (e) {
        fs.ftruncateSync(fd, size)
        throw e
      }
    } finally {
      fs.closeSync(fd)
    }
  })

/** Fsyncs an existing file; a missing file is fine. */
export const fsyncFile = (file: string) =>
  attempt("fsync", file, () => {
    let fd: number
    try {
      fd = fs.openSync(file, "r")
    } catch (e) {
      if (isMissing(e)) return
      throw e
    }
    try {
      syncFd(fd, false)
    } finally {
      fs.closeSync(fd)
    }
  })

/** The file's text, `None` when it does not exist, a `StoreError` when it cannot be read. */
export const readText = (file: string) =>
  attempt("read", file, () => {
    try {
      return Option.some(fs.readFileSync(file, "utf8"))
    } catch (e) {
      if (isMissing(e)) return Option.none<string>()
      throw e
    }
  })

export interface FileStamp {
  readonly ino: number
  readonly mtimeNs: bigint
  readonly size: number
}

/** A missing file is `None`, without an exception when it is absent (views not yet written are stat'ed on every read). */
export const stampOf = (file: string) =>
  attempt("stat", file, () => {
    try {
      const s = fs.statSync(file, { bigint: true, throwIfNoEntry: false })
      return s === undefined
        ? Option.none<FileStamp>()
        : Option.some<FileStamp>({ ino: Number(s.ino), mtimeNs: s.mtimeNs, size: Number(s.size) })
    } catch (e) {
      if (isMissing(e)) return Option.none<FileStamp>()
      throw e
    }
  })

export const sameStamp = (a: Option.Option<FileStamp>, b: Option.Option<FileStamp>): boolean =>
  Option.isNone(a)
    ? Option.isNone(b)
    : Option.isSome(b) &&
      a.value.ino === b.value.ino &&
      a.value.mtimeNs === b.value.mtimeNs &&
      a.value.size === b.value.size
