/**
 * `reflections.json` for one character: decoded with defaults, upserted by id in one atomic write when
 * `reflection.*` journal events apply; archived rows leave for the `reflection_archive/` shards. Never overwritten when it does not decode.
 */
import { Effect, Option } from "effect"
import * as path from "node:path"
import { writeAtomic } from "../store/DurableFs.js"
import * as ViewFile from "../store/ViewFile.js"
import * as ShardArchive from "../store/ShardArchive.js"
import { Reflection, ReflectionsFile } from "./Reflection.js"
import { privateRows } from "../domain/Subject.js"
import { withFields } from "../domain/Shapes.js"

export const make = (dir: string, options: { readonly maxPerShard: number }) => {
  const view = ViewFile.make(ReflectionsFile, path.join(dir, "reflections.json"))
  /** Every row, group-chat rows included (domain/Subject.ts). */
  const loadAll = view.read.pipe(Effect.map(Option.getOrElse((): ReadonlyArray<Reflection> => [])))
  /** The private (unstamped) rows: what every private read and the private lifecycle see. */
  const load = Effect.map(loadAll, privateRows)
  /** Upserts `changed` by id (an id's last record wins), drops the `removed` ids (archived rows), in one write. */
  const upsert = (changed: ReadonlyArray<Reflection>, removed: ReadonlyArray<string> = []) =>
    Effect.gen(function* () {
      if (changed.length === 0 && removed.length === 0) return
      const current = yield* loadAll
      const byId = new Map(changed.map((r) => [r.id, r]))
      const known = new Set(current.map((r) => r.id))
      const gone = new Set(removed)
      const added = [...byId.values()].filter((r) => !known.has(r.id))
      const next = [...current.map((r) => byId.get(r.id) ?? r), ...added].filter((r) => !gone.has(r.id))
      yield* writeAtomic(view.file, ViewFile.encodeJson(next))
    })
  const archive = ShardArchive.make(Reflection, path.join(dir, "reflection_archive"), {
    maxPerShard: options.maxPerShard,
    stamp: (r, archivedAt, shard) =>
      withFields(r, { status: "archived", archived_at: archivedAt, archive_shard_path: shard })
  })
  return { file: view.file, load, loadAll, upsert, archive, release: view.release, held: view.held }
}

export type ReflectionStore = ReturnType<typeof make>
