/**
 * Durable file primitives: atomic whole-file replace (temp file, fsync, rename, fsync of the directory),
 * fsynced appends, and reads that tell "missing" apart from "unreadable". Every failure is a `StoreError`
 * naming the operation and file; nothing here throws.
 */
import { Effect, Option, Schema } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs/promises"
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

export const fsyncDir = (dir: string) =>
  Effect.tryPromise({
    try: async () => {
      const handle = await fs.open(dir, "r")
      try {
        await handle.sync()
      } finally {
        await handle.close()
      }
    },
    catch: fail("fsync-dir", dir)
  })

export const ensureDir = (dir: string) =>
  Effect.tryPromise({ try: () => fs.mkdir(dir, { recursive: true }), catch: fail("mkdir", dir) }).pipe(
    Effect.flatMap((created) => (created === undefined ? Effect.void : fsyncDir(path.dirname(dir))))
  )

/** Replaces `file` with `text` atomically; the old content survives any crash before the rename. */
export const writeAtomic = (file: string, text: string | Uint8Array, options?: { readonly sync?: boolean }) =>
  Effect.tryPromise({
    try: async () => {
      const tmp = `${file}.${randomUUID().slice(0, 8)}.tmp`
      const handle = await fs.open(tmp, "w")
      try {
        await handle.writeFile(text)
        if (options?.sync !== false) await handle.sync()
      } finally {
        await handle.close()
      }
      try {
        await fs.rename(tmp, file)
      } catch (e) {
        await fs.rm(tmp, { force: true })
        throw e
      }
    },
    catch: fail("write", file)
  }).pipe(Effect.zipRight(options?.sync === false ? Effect.void : fsyncDir(path.dirname(file))))

/** Appends `text` and fsyncs the file before succeeding. */
export const appendDurable = (file: string, text: string) =>
  Effect.tryPromise({
    try: async () => {
      const handle = await fs.open(file, "a")
      try {
        await handle.writeFile(text)
        await handle.datasync()
      } finally {
        await handle.close()
      }
    },
    catch: fail("append", file)
  })

/** The file's text, `None` when it does not exist, a `StoreError` when it cannot be read. */
export const readText = (file: string) =>
  Effect.tryPromise({
    try: async () => {
      try {
        return Option.some(await fs.readFile(file, "utf8"))
      } catch (e) {
        if (isMissing(e)) return Option.none<string>()
        throw e
      }
    },
    catch: fail("read", file)
  })

export interface FileStamp {
  readonly ino: number
  readonly mtimeNs: bigint
  readonly size: number
}

export const stampOf = (file: string) =>
  Effect.tryPromise({
    try: async () => {
      try {
        const s = await fs.stat(file, { bigint: true })
        return Option.some<FileStamp>({ ino: Number(s.ino), mtimeNs: s.mtimeNs, size: Number(s.size) })
      } catch (e) {
        if (isMissing(e)) return Option.none<FileStamp>()
        throw e
      }
    },
    catch: fail("stat", file)
  })

export const sameStamp = (a: Option.Option<FileStamp>, b: Option.Option<FileStamp>): boolean =>
  Option.isNone(a)
    ? Option.isNone(b)
    : Option.isSome(b) &&
      a.value.ino === b.value.ino &&
      a.value.mtimeNs === b.value.mtimeNs &&
      a.value.size === b.value.size
