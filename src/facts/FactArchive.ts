/**
 * The sharded fact archive `facts_archive/` (see ShardArchive); the legacy single `facts_archive.json` is
 * still read first.
 */
import * as path from "node:path"
import * as ShardArchive from "../store/ShardArchive.js"
import * as ViewFile from "../store/ViewFile.js"
import { Fact, FactsFile } from "./Fact.js"
import { withFields } from "../domain/Shapes.js"

export const make = (dir: string, options: { readonly maxPerShard: number }) =>
  ShardArchive.make(Fact, path.join(dir, "facts_archive"), {
    maxPerShard: options.maxPerShard,
    legacy: ViewFile.make(FactsFile, path.join(dir, "facts_archive.json")),
    stamp: (f, archivedAt, shard) => withFields(f, { archived_at: archivedAt, archive_shard_path: shard })
  })

export type FactArchive = ReturnType<typeof make>
