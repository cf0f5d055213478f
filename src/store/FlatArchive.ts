/**
 * The one-time migration of a legacy flat `reflections_archive.json` into `reflection_archive/` shards
 * (neko-compat §4.16), as N.E.K.O. does it: entries are bucketed by the date of their `archived_at` (today
 * when missing), written verbatim to new `<date>_<uuid8>.json` shards of at most `maxPerShard`, then the
 * sentinel `.migrated_from_flat` is written and only then the flat file removed. A flat file that does not
 * decode as an array of objects is left untouched (and reported by `kioku doctor`).
 */
import { Effect, Option, Schema } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { localIso } from "../domain/LocalTime.js"
import { ensureDir, readText, writeAtomic } from "./DurableFs.js"
import { encodeJson } from "./ViewFile.js"

export const FLAT_FILE = "reflections_archive.json"
export const SHARD_DIR = "reflection_archive"
export const SENTINEL = ".migrated_from_flat"

const Entries = Schema.parseJson(Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown })))
const decode = Schema.decodeUnknownOption(Entries)
const isoDate = /^\d{4}-\d{2}-\d{2}/

/** Whether the character directory still holds a flat archive waiting for the migration. */
export const pending = (dir: string): boolean =>
  fs.existsSync(path.join(dir, FLAT_FILE)) && !fs.existsSync(path.join(dir, SHARD_DIR, SENTINEL))

/** Migrates `dir`'s flat archive; returns how many entries moved (0 when there was nothing to do). */
export const migrate = (dir: string, options: { readonly maxPerShard: number; readonly now: number }) =>
  Effect.gen(function* () {
    if (!pending(dir)) return 0
    const flat = path.join(dir, FLAT_FILE)
    const entries = Option.flatMap(yield* readText(flat), decode)
    if (Option.isNone(entries)) {
      yield* Effect.logWarning("legacy reflection archive does not decode; left as it is").pipe(
        Effect.annotateLogs({ file: flat })
      )
      return 0
    }
    const today = localIso(options.now).slice(0, 10)
    const buckets = new Map<string, Array<Readonly<Record<string, unknown>>>>()
    for (const entry of entries.value) {
      const at = entry["archived_at"]
      const day = typeof at === "string" && isoDate.test(at) ? at.slice(0, 10) : today
      buckets.set(day, [...(buckets.get(day) ?? []), entry])
    }
    const shardDir = path.join(dir, SHARD_DIR)
    yield* ensureDir(shardDir)
    let shards = 0
    for (const [day, group] of [...buckets.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      for (let i = 0; i < group.length; i += options.maxPerShard) {
        const name = `${day}_${randomUUID().replace(/-/g, "").slice(0, 8)}.json`
        yield* writeAtomic(path.join(shardDir, name), encodeJson(group.slice(i, i + options.maxPerShard)))
        shards++
      }
    }
    yield* writeAtomic(
      path.join(shardDir, SENTINEL),
      encodeJson({ migrated_at: localIso(options.now), source: FLAT_FILE, entries: entries.value.length, shards })
    )
    yield* Effect.try(() => fs.rmSync(flat)).pipe(
      Effect.catchAll(() => Effect.logWarning("migrated legacy reflection archive could not be removed"))
    )
    return entries.value.length
  })
