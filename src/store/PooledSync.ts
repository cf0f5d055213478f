/**
 * Durable writes on the acknowledgement path whose fsyncs run on libuv's thread pool instead of the event
 * loop. The write itself (page cache) stays synchronous and ordered; only the wait for the disk is handed off,
 * so while one character waits for its journal or view to reach the disk, the loop serves the others, and the
 * fsyncs of many characters' commits are in flight together (the file system folds concurrent fsyncs into one
 * journal commit). Each call is uninterruptible from its first write until its file is closed, so an
 * interrupted caller never leaves a descriptor under an fsync still running. Failures are `StoreError`s, as in
 * DurableFs.ts, whose synchronous primitives stay the rule everywhere else.
 */
import { Effect } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { StoreError } from "./DurableFs.js"

const storeError = (op: string, file: string, cause: unknown) =>
  new StoreError({ op, file, message: cause instanceof Error ? cause.message : String(cause) })

/** Fsyncs (`dataOnly`: fdatasync) an open descriptor on the thread pool. */
export const syncPooled = (fd: number, dataOnly: boolean, op: string, file: string): Effect.Effect<void, StoreError> =>
  Effect.async<void, StoreError>((resume) => {
    const done = (e: NodeJS.ErrnoException | null) =>
      resume(e === null ? Effect.void : Effect.fail(storeError(op, file, e)))
    if (dataOnly) fs.fdatasync(fd, done)
    else fs.fsync(fd, done)
  })

/** Fsyncs a directory (a rename in it) on the thread pool. */
export const syncDirPooled = (dir: string): Effect.Effect<void, StoreError> =>
  Effect.acquireUseRelease(
    step("fsync-dir", dir, () => fs.openSync(dir, "r")),
    (fd) => syncPooled(fd, false, "fsync-dir", dir),
    (fd) => Effect.sync(() => fs.closeSync(fd)).pipe(Effect.ignore)
  )

/** Fsyncs an existing file on the thread pool; a missing file is fine. */
export const syncFilePooled = (file: string): Effect.Effect<void, StoreError> =>
  Effect.suspend(() => {
    let fd: number
    try {
      fd = fs.openSync(file, "r")
    } catch (e) {
      const code = typeof e === "object" && e !== null && "code" in e ? e.code : undefined
      return code === "ENOENT" ? Effect.void : Effect.fail(storeError("fsync", file, e))
    }
    return Effect.ensuring(
      syncPooled(fd, false, "fsync", file),
      Effect.sync(() => fs.closeSync(fd)).pipe(Effect.ignore)
    ).pipe(Effect.uninterruptible)
  })

/** Runs `f` synchronously, a throw becoming a `StoreError`. */
const step = <A>(op: string, file: string, f: () => A): Effect.Effect<A, StoreError> =>
  Effect.try({ try: f, catch: (e) => storeError(op, file, e) })

/**
 * Appends `text` and fdatasyncs it on the thread pool. A failed append (a full disk takes part of the text) is
 * cut off again, so the next append does not glue its line onto a torn one.
 */
export const appendPooled = (file: string, text: string): Effect.Effect<void, StoreError> =>
  Effect.uninterruptible(
    Effect.acquireUseRelease(
      step("append", file, () => fs.openSync(file, "a")),
      (fd) =>
        Effect.gen(function* () {
          const size = yield* step("append", file, () => fs.fstatSync(fd).size)
          yield* step("append", file, () => fs.writeFileSync(fd, text)).pipe(
            Effect.zipRight(syncPooled(fd, true, "append", file)),
            Effect.tapError(() => Effect.sync(() => fs.ftruncateSync(fd, size)).pipe(Effect.ignore))
          )
        }),
      (fd) => Effect.sync(() => fs.closeSync(fd)).pipe(Effect.ignore)
    )
  )

/** Runs one callback-style fs call on the thread pool. */
const pooled = <A>(op: string, file: string, call: (done: (e: NodeJS.ErrnoException | null, a?: A) => void) => void) =>
  Effect.async<A | undefined, StoreError>((resume) =>
    call((e, a) => resume(e === null ? Effect.succeed(a) : Effect.fail(storeError(op, file, e))))
  )

/**
 * Replaces `file` with `text` atomically as `DurableFs.writeAtomic` does (temp file, fsync, rename; `full`
 * also fsyncs the directory), every step on the thread pool (creating and renaming a file wait on the file
 * system's journal as an fsync does). The temp file is opened, written, fsynced (`flush`) and closed in one
 * pool call. The old content survives any crash before the rename.
 */
export const writeAtomicPooled = (
  file: string,
  text: string | Uint8Array,
  durability: "full" | "content" = "full"
): Effect.Effect<void, StoreError> => {
  const tmp = `${file}.${randomUUID().slice(0, 8)}.tmp`
  const written = pooled("write", file, (done) => fs.writeFile(tmp, text, { flush: true }, (e) => done(e))).pipe(
    Effect.zipRight(pooled("write", file, (done) => fs.rename(tmp, file, (e) => done(e)))),
    // Awaited: the temp file is gone by the time the failure is reported.
    Effect.tapError(() => Effect.async<void>((resume) => fs.rm(tmp, { force: true }, () => resume(Effect.void))))
  )
  return Effect.uninterruptible(
    Effect.asVoid(durability === "full" ? Effect.zipRight(written, syncDirPooled(path.dirname(file))) : written)
  )
}
