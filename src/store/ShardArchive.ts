/**
 * Sharded archives (neko-compat §4.16): `<dir>/<YYYY-MM-DD>_<uuid8>.json`, each a JSON array of at most
 * `maxPerShard` entries stamped with `archived_at` and `archive_shard_path` (the shard's basename). A new
 * entry goes into the first of today's shards (lexical order) with room, else into a new shard. Adding an
 * id that is already archived does nothing, so replaying an archive event is safe. `remove` rewrites (atomically)
 * only the shards, and the legacy file, that hold one of the given ids.
 */
import { Effect, Option, Schema } from "effect"
import { existsSync, readdirSync } from "node:fs"
import { randomUUID } from "node:crypto"
import * as path from "node:path"
import { ensureDir } from "./DurableFs.js"
import * as ViewFile from "./ViewFile.js"

const shardName = /^\d{4}-\d{2}-\d{2}_[0-9a-f]{8}\.json$/

export const make = <A extends { readonly id: string }, I>(
  schema: Schema.Schema<A, I>,
  shardDir: string,
  options: {
    readonly maxPerShard: number
    readonly stamp: (entry: A, archivedAt: string, shard: string) => A
    /** Entries archived before sharding (a legacy flat file), read first. */
    readonly legacy?: ViewFile.ViewFile<ReadonlyArray<A>>
  }
) => {
  const file = Schema.Array(schema)
  const shardView = (name: string) => ViewFile.make(file, path.join(shardDir, name))
  const shards = () =>
    existsSync(shardDir)
      ? readdirSync(shardDir)
          .filter((f) => shardName.test(f))
          .sort()
      : []
  const readShard = (name: string) =>
    shardView(name).read.pipe(Effect.map(Option.getOrElse((): ReadonlyArray<A> => [])))

  const all = Effect.gen(function* () {
    const old = options.legacy ? Option.getOrElse(yield* options.legacy.read, (): ReadonlyArray<A> => []) : []
    const sharded = yield* Effect.forEach(shards(), readShard)
    return [...old, ...sharded.flat()]
  })

  const add = (entries: ReadonlyArray<A>, archivedAt: string) =>
    Effect.gen(function* () {
      if (entries.length === 0) return
      const known = new Set((yield* all).map((f) => f.id))
      let queue = entries.filter((f) => !known.has(f.id))
      if (queue.length === 0) return
      yield* ensureDir(shardDir)
      const day = archivedAt.slice(0, 10)
      for (const name of shards().filter((n) => n.startsWith(day))) {
        if (queue.length === 0) break
        const current = yield* readShard(name)
        const room = options.maxPerShard - current.length
        if (room <= 0) continue
        const take = queue.slice(0, room)
        queue = queue.slice(room)
        yield* shardView(name).write([...current, ...take.map((f) => options.stamp(f, archivedAt, name))])
      }
      while (queue.length > 0) {
        const name = `${day}_${randomUUID().replace(/-/g, "").slice(0, 8)}.json`
        const take = queue.slice(0, options.maxPerShard)
        queue = queue.slice(options.maxPerShard)
        yield* shardView(name).write(take.map((f) => options.stamp(f, archivedAt, name)))
      }
    })

  const remove = (ids: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      if (ids.length === 0) return
      const gone = new Set(ids)
      const drop = (entries: ReadonlyArray<A>) => entries.filter((e) => !gone.has(e.id))
      if (options.legacy) {
        const old = Option.getOrElse(yield* options.legacy.read, (): ReadonlyArray<A> => [])
        if (drop(old).length !== old.length) yield* options.legacy.write(drop(old))
      }
      for (const name of shards()) {
        const current = yield* readShard(name)
        if (drop(current).length !== current.length) yield* shardView(name).write(drop(current))
      }
    })

  return { shardDir, all, add, remove, shards }
}
