/**
 * The sharded fact archive: `facts_archive/<YYYY-MM-DD>_<uuid8>.json`, each a JSON array of at most
 * `archive_file_max_entries` archived facts stamped with `archived_at` and `archive_shard_path`. A new entry
 * goes into the first of today's shards (lexical order) with room, else into a new shard. The legacy single
 * `facts_archive.json` is still read. Adding an id that is already archived does nothing (replay-safe).
 */
import { Effect, Option } from "effect"
import { existsSync, readdirSync } from "node:fs"
import { randomUUID } from "node:crypto"
import * as path from "node:path"
import { ensureDir } from "../../store/DurableFs.js"
import * as ViewFile from "../../store/ViewFile.js"
import { FactsFile, type Fact } from "./Fact.js"

const shardName = /^\d{4}-\d{2}-\d{2}_[0-9a-f]{8}\.json$/

export const make = (dir: string, options: { readonly maxPerShard: number }) => {
  const shardDir = path.join(dir, "facts_archive")
  const legacy = ViewFile.make(FactsFile, path.join(dir, "facts_archive.json"))
  const shardView = (name: string) => ViewFile.make(FactsFile, path.join(shardDir, name))
  const shards = () =>
    existsSync(shardDir)
      ? readdirSync(shardDir)
          .filter((f) => shardName.test(f))
          .sort()
      : []

  const readShard = (name: string) =>
    shardView(name).read.pipe(Effect.map(Option.getOrElse((): ReadonlyArray<Fact> => [])))

  /** Every archived fact: the legacy file first, then the shards in order. */
  const all = Effect.gen(function* () {
    const old = Option.getOrElse(yield* legacy.read, (): ReadonlyArray<Fact> => [])
    const sharded = yield* Effect.forEach(shards(), readShard)
    return [...old, ...sharded.flat()]
  })

  /** Archives facts (stamped with `archivedAt` and their shard), skipping ids already archived. */
  const add = (facts: ReadonlyArray<Fact>, archivedAt: string) =>
    Effect.gen(function* () {
      if (facts.length === 0) return
      const known = new Set((yield* all).map((f) => f.id))
      const fresh = facts.filter((f) => !known.has(f.id))
      if (fresh.length === 0) return
      yield* ensureDir(shardDir)
      const day = archivedAt.slice(0, 10)
      let queue = fresh
      for (const name of shards().filter((n) => n.startsWith(day))) {
        if (queue.length === 0) break
        const current = yield* readShard(name)
        const room = options.maxPerShard - current.length
        if (room <= 0) continue
        const take = queue.slice(0, room)
        queue = queue.slice(room)
        yield* shardView(name).write([
          ...current,
          ...take.map((f) => ({ ...f, archived_at: archivedAt, archive_shard_path: name }))
        ])
      }
      while (queue.length > 0) {
        const name = `${day}_${randomUUID().replace(/-/g, "").slice(0, 8)}.json`
        const take = queue.slice(0, options.maxPerShard)
        queue = queue.slice(options.maxPerShard)
        yield* shardView(name).write(take.map((f) => ({ ...f, archived_at: archivedAt, archive_shard_path: name })))
      }
    })

  return { shardDir, all, add, shards }
}

export type FactArchive = ReturnType<typeof make>
