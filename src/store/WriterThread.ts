/**
 * Background durable writes on threads of their own. An atomic replace (temp file written, fsynced, closed,
 * renamed; the directory fsynced with `full` durability) or an fsync of a file or directory is one message to a
 * writer thread, which runs the whole sequence with synchronous calls. Through libuv's pool the same replace was
 * five or six round trips, each queued behind the fsyncs already in the pool's four threads, and the character
 * whose view it was waited for all of them (a `recent.json` write under ingest: 34 ms at the median, 7 ms on a
 * writer thread; docs/benchmarks.md). The journal's fdatasync, which acknowledges turns, stays on libuv's pool
 * (PooledSync.ts), where the fsyncs of many characters overlap.
 *
 * Two threads, started with the character registry (or on first use) and not keeping the process alive while
 * idle; a file always goes to the same thread, so two writes of one file keep their order. A thread that dies
 * fails the writes it held, and the next write starts another.
 */
import { Effect, Either, Schema } from "effect"
import { randomUUID } from "node:crypto"
import type * as Fs from "node:fs"
import * as path from "node:path"
import { Worker, type MessagePort } from "node:worker_threads"
import { StoreError } from "./DurableFs.js"

type Job =
  | {
      readonly op: "replace"
      readonly file: string
      readonly tmp: string
      readonly text: string | Uint8Array
      readonly dir?: string
    }
  | { readonly op: "fsync"; readonly file: string; readonly missingOk: boolean; readonly dir: boolean }

const Reply = Schema.Struct({
  id: Schema.Number,
  step: Schema.optional(Schema.String),
  message: Schema.optional(Schema.String)
})
type Reply = typeof Reply.Type
const decodeReply = Schema.decodeUnknownEither(Reply)

/** The thread's program, run from its source text: it may use only its parameters. */
const writerMain = (fs: typeof Fs, port: MessagePort) => {
  const syncPath = (p: string) => {
    const fd = fs.openSync(p, "r")
    try {
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
  }
  const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))
  const codeOf = (e: unknown) => (typeof e === "object" && e !== null && "code" in e ? e.code : undefined)
  port.on("message", (m: { id: number } & Job) => {
    let step = m.op === "replace" ? "write" : m.dir ? "fsync-dir" : "fsync"
    try {
      if (m.op === "replace") {
        try {
          const fd = fs.openSync(m.tmp, "w")
          try {
            fs.writeFileSync(fd, m.text)
            fs.fsyncSync(fd)
          } finally {
            fs.closeSync(fd)
          }
          fs.renameSync(m.tmp, m.file)
        } catch (e) {
          fs.rmSync(m.tmp, { force: true })
          throw e
        }
        step = "fsync-dir"
        if (m.dir !== undefined) syncPath(m.dir)
      } else {
        try {
          syncPath(m.file)
        } catch (e) {
          if (!(m.missingOk && codeOf(e) === "ENOENT")) throw e
        }
      }
      port.postMessage({ id: m.id })
    } catch (e) {
      port.postMessage({ id: m.id, step, message: errorText(e) })
    }
  })
}

// `__name`: what a transpiler that keeps function names (tsx) calls inside the function's text.
const SOURCE =
  `var __name = (f) => f; (${writerMain.toString()})` +
  `(require("node:fs"), require("node:worker_threads").parentPort)`
const THREADS = 2

interface Thread {
  readonly worker: Worker
  readonly waiting: Map<number, (reply: Reply) => void>
}

// The threads are the process's, as libuv's pool is: shared by every character, started on first use.
const threads: Array<Thread | undefined> = []
let nextId = 0

const start = (slot: number): Thread => {
  const worker = new Worker(SOURCE, { eval: true })
  worker.unref()
  const thread: Thread = { worker, waiting: new Map() }
  const failAll = (message: string) => {
    if (threads[slot] === thread) threads[slot] = undefined
    for (const [id, done] of thread.waiting) done({ id, step: "write", message })
    thread.waiting.clear()
  }
  worker.on("message", (raw: unknown) => {
    const reply = decodeReply(raw)
    if (Either.isLeft(reply)) return
    const done = thread.waiting.get(reply.right.id)
    thread.waiting.delete(reply.right.id)
    if (thread.waiting.size === 0) worker.unref()
    done?.(reply.right)
  })
  worker.on("error", (e) => failAll(`writer thread failed: ${e.message}`))
  worker.on("exit", (code) => failAll(`writer thread exited (${code})`))
  threads[slot] = thread
  return thread
}

/** The thread for `file`: one of the two, always the same for the same path. */
const threadFor = (file: string): Thread => {
  let h = 0
  for (let i = 0; i < file.length; i++) h = (h * 31 + file.charCodeAt(i)) | 0
  const slot = (h >>> 0) % THREADS
  return threads[slot] ?? start(slot)
}

/** Starts both threads now: a thread takes about 50 ms to start, which its first write would otherwise wait. */
export const startWriterThreads = () => {
  for (let slot = 0; slot < THREADS; slot++) if (threads[slot] === undefined) start(slot)
}

/** Runs `job` on its file's thread; the caller waits for it even when interrupted (no file is left half-done). */
const run = (job: Job): Effect.Effect<void, StoreError> =>
  Effect.uninterruptible(
    Effect.async<void, StoreError>((resume) => {
      const thread = threadFor(job.file)
      const id = ++nextId
      thread.waiting.set(id, (reply) =>
        resume(
          reply.message === undefined
            ? Effect.void
            : Effect.fail(new StoreError({ op: reply.step ?? "write", file: job.file, message: reply.message }))
        )
      )
      thread.worker.ref()
      thread.worker.postMessage({ id, ...job })
    })
  )

/**
 * Replaces `file` with `text` atomically as `DurableFs.writeAtomic` does (temp file, fsync, rename; `full`
 * also fsyncs the directory). A failed write removes its temp file before it is reported. The old content
 * survives any crash before the rename.
 */
export const writeAtomicOnThread = (
  file: string,
  text: string | Uint8Array,
  durability: "full" | "content" = "full"
): Effect.Effect<void, StoreError> =>
  Effect.suspend(() => {
    const tmp = `${file}.${randomUUID().slice(0, 8)}.tmp`
    return run(
      durability === "full"
        ? { op: "replace", file, tmp, text, dir: path.dirname(file) }
        : { op: "replace", file, tmp, text }
    )
  })

/** Fsyncs an existing file; a missing file is fine. */
export const syncFileOnThread = (file: string): Effect.Effect<void, StoreError> =>
  run({ op: "fsync", file, missingOk: true, dir: false })

/** Fsyncs a directory (a rename in it). */
export const syncDirOnThread = (dir: string): Effect.Effect<void, StoreError> =>
  run({ op: "fsync", file: dir, missingOk: false, dir: true })
