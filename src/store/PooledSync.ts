/**
 * The journal append, the acknowledgement path: written synchronously (page cache) and fdatasynced on libuv's
 * thread pool, so while one character waits for its journal, the loop serves the others, and the fdatasyncs of
 * many characters' commits are in flight together (the file system folds concurrent fsyncs into one journal
 * commit). Atomic replaces of views and the fsyncs of checkpoints run on the writer threads (WriterThread.ts).
 * An append is uninterruptible until its file is closed, so an interrupted caller never leaves a descriptor
 * under an fsync still running. Failures are `StoreError`s, as in DurableFs.ts, whose synchronous primitives
 * stay the rule everywhere else.
 */
import { Effect } from "effect"
import * as fs from "node:fs"
import { StoreError } from "./DurableFs.js"

const storeError = (op: string, file: string, cause: unknown) =>
  new StoreError({ op, file, message: cause instanceof Error ? cause.message : String(cause) })

/** Fsyncs (`dataOnly`: fdatasync) an open descriptor on the thread pool. */
const syncPooled = (fd: number, dataOnly: boolean, op: string, file: string): Effect.Effect<void, StoreError> =>
  Effect.async<void, StoreError>((resume) => {
    const done = (e: NodeJS.ErrnoException | null) =>
      resume(e === null ? Effect.void : Effect.fail(storeError(op, file, e)))
    if (dataOnly) fs.fdatasync(fd, done)
    else fs.fsync(fd, done)
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
