/**
 * The fact archive as recall reads it (src/recall/Recall.ts): the legacy `facts_archive.json` and every shard, each re-read only when
 * its file stamp (inode, mtime, size) changed; an unreadable file is skipped (as N.E.K.O. does), logged.
 */
import { Effect, Option } from "effect"
import * as path from "node:path"
import { FactsFile, type Fact } from "./Fact.js"
import type { FactArchive } from "./FactArchive.js"
import { decodeFacts } from "./FactDecode.js"
import { sameStamp, stampOf, type FileStamp } from "../store/DurableFs.js"
import * as ViewFile from "../store/ViewFile.js"

export const make = () => {
  const archive = new Map<string, { readonly stamp: Option.Option<FileStamp>; readonly rows: ReadonlyArray<Fact> }>()

  /** All archived rows when any file changed since the last call, else `None`. */
  const rows = (state: { readonly dir: string; readonly archive: FactArchive }) =>
    Effect.gen(function* () {
      const sources = [
        path.join(state.dir, "facts_archive.json"),
        ...state.archive.shards().map((n) => path.join(state.archive.shardDir, n))
      ]
      let changed = archive.size !== sources.length
      for (const file of sources) {
        const stamp = yield* stampOf(file)
        const known = archive.get(file)
        if (known && sameStamp(known.stamp, stamp)) continue
        const read = ViewFile.make(FactsFile, file, decodeFacts).read.pipe(
          Effect.catchAll((e) =>
            Effect.logWarning("fact archive unreadable; recalled without it").pipe(
              Effect.annotateLogs({ file, error: e._tag }),
              Effect.as(Option.none<ReadonlyArray<Fact>>())
            )
          )
        )
        const rows = Option.getOrElse(yield* read, (): ReadonlyArray<Fact> => [])
        archive.set(file, { stamp, rows })
        changed = true
      }
      for (const file of [...archive.keys()]) if (!sources.includes(file)) archive.delete(file)
      return changed ? Option.some(sources.flatMap((f) => archive.get(f)?.rows ?? [])) : Option.none()
    })

  return { rows, clear: () => archive.clear() }
}
