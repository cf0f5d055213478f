/**
 * Where the process that holds a memory root serves HTTP: `<root>/.kioku.lock.server` (JSON `{pid, url}`, beside the lock's `.kioku.lock.pid`), written
 * atomically by `kioku serve` once its socket listens and removed when it stops (only while it still names
 * this process, so a successor's file survives). A process that finds the root locked (`kioku mcp`) reads it
 * to reach the holder instead; a file left by a killed server is harmless, because the reader checks that
 * the url answers as a kioku server before using it. It carries no credentials.
 */
import { Effect, Option, Schema } from "effect"
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import * as path from "node:path"

export const ServerAddress = Schema.Struct({ pid: Schema.Number, url: Schema.String })
export type ServerAddress = typeof ServerAddress.Type

const decode = Schema.decodeUnknownOption(Schema.parseJson(ServerAddress))

export const addressFile = (root: string) => path.join(root, ".kioku.lock.server")

const read = (root: string): Option.Option<ServerAddress> => {
  try {
    return decode(readFileSync(addressFile(root), "utf8"))
  } catch {
    return Option.none()
  }
}

/** The announced address of the root's holder, if a file names one. */
export const announced = (root: string) => Effect.sync(() => read(root))

/** Announces `url` for the life of the scope; failures to write are logged, never fatal. */
export const announce = (root: string, url: string) =>
  Effect.acquireRelease(
    Effect.try(() => {
      const file = addressFile(root)
      const tmp = `${file}.${process.pid}.tmp`
      writeFileSync(tmp, JSON.stringify({ pid: process.pid, url }) + "\n")
      renameSync(tmp, file)
    }).pipe(
      Effect.as(true),
      Effect.catchAll((e) =>
        Effect.logWarning("server address not announced").pipe(
          Effect.annotateLogs({ error: String(e.error) }),
          Effect.as(false)
        )
      )
    ),
    (written) =>
      written && Option.exists(read(root), (a) => a.pid === process.pid)
        ? Effect.sync(() => rmSync(addressFile(root), { force: true }))
        : Effect.void
  )
