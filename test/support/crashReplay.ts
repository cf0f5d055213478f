/**
 * Crash-repair harness for journal replay tests: plants a character directory as a crash left it (views as
 * they were before a change, the change's events past the sentinel), restarts the whole runtime over it
 * and checks that the reconciler applied the events once; then replays them again over the repaired views.
 * The planted persona carries the one-time evidence migration's marker, as a directory kioku has served
 * does, so the persona ensure of startup journals nothing of its own.
 */
import { assert } from "@effect/vitest"
import { Effect, Schema, TestClock } from "effect"
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { newEntry } from "../../src/persona/Persona.js"
import { Sentinel, type EventLine } from "../../src/store/EventLog.js"
import { boot, testSettings } from "./layers.js"

const NAME = "Mio"
export const T0 = "2026-11-29T08:00:00.000000"
export const T1 = "2026-11-30T12:00:00.000000"
/** The restart happens days later, so a stamp taken from the replay clock would show. */
const RESTART = new Date(2026, 11, 5, 9).getTime()
export const SHARD = "2026-11-30_0123abcd.json"
export const eid = (n: number) => `7f2c1a4e-0000-4000-8000-${String(n).padStart(12, "0")}`

/** The `__meta__` section of a persona the evidence migration has run on. */
export const MIGRATED = {
  facts: [newEntry({ id: "__evidence_migration_v1__", text: "", source: "migration", createdAt: T0, protected: true })]
}

export const Json = Schema.Record({ key: Schema.String, value: Schema.Unknown })
export const read = <A, I>(schema: Schema.Schema<A, I>, file: string): A =>
  Schema.decodeUnknownSync(Schema.parseJson(schema))(readFileSync(file, "utf8"))

export const shards = (dir: string, sub: string) => {
  const at = path.join(dir, sub)
  return existsSync(at)
    ? readdirSync(at)
        .filter((f) => f.endsWith(".json"))
        .sort()
        .map((name) => ({ name, entries: read(Schema.Array(Json), path.join(at, name)) }))
    : []
}
/** One shard named for `day`, holding exactly `ids`, each stamped with `archivedAt` and its shard name. */
export const assertShard = (dir: string, sub: string, day: string, ids: ReadonlyArray<string>, archivedAt: string) => {
  const [shard, ...more] = shards(dir, sub)
  assert.strictEqual(more.length, 0)
  assert.match(shard?.name ?? "", new RegExp(`^${day}_[0-9a-f]{8}\\.json$`))
  assert.deepStrictEqual(
    shard?.entries.map((e) => [e["id"], e["archived_at"], e["archive_shard_path"]]),
    ids.map((id) => [id, archivedAt, shard?.name])
  )
}

export interface Case {
  readonly name: string
  /** The views as they were before the change (path relative to the character directory → JSON). */
  readonly views: Readonly<Record<string, unknown>>
  /** Events already applied; the sentinel names the last one (null when there is none). */
  readonly applied: ReadonlyArray<EventLine>
  /** The change: events journaled whose views were never written. */
  readonly pending: ReadonlyArray<EventLine>
  readonly expect: (dir: string) => void
}

const plant = (dir: string, c: Case) => {
  mkdirSync(dir, { recursive: true })
  for (const [file, content] of Object.entries({ "persona.json": { __meta__: MIGRATED }, ...c.views })) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    writeFileSync(path.join(dir, file), JSON.stringify(content, null, 2))
  }
  const lines = [...c.applied, ...c.pending].map((l) => JSON.stringify(l) + "\n")
  writeFileSync(path.join(dir, "events.ndjson"), lines.join(""))
  resetSentinel(dir, c)
}
const resetSentinel = (dir: string, c: Case) =>
  writeFileSync(
    path.join(dir, "events_applied.json"),
    JSON.stringify({ last_applied_event_id: c.applied[c.applied.length - 1]?.event_id ?? null, ts: T0 })
  )
const sentinel = (dir: string) => read(Sentinel, path.join(dir, "events_applied.json")).last_applied_event_id
/** Every JSON view under the directory (shards included), by relative path, as raw text. */
const viewFiles = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".json") && f !== "events_applied.json")
      .sort()
      .map((f) => [f, readFileSync(path.join(dir, f), "utf8")])
  )

/** Boots the whole runtime over the root, touches the character, shuts down. */
const restart = (settings: ReturnType<typeof testSettings>, dir: string) =>
  Effect.scoped(
    Effect.gen(function* () {
      const memory = yield* boot(settings)
      const status = yield* memory.status(NAME)
      return { unapplied: status.unappliedEvents, sentinel: sentinel(dir) }
    })
  )

/** Plants the crash and restarts twice: repaired with the sentinel on the last event, then replayed without change. */
export const repairsOnce = (c: Case) =>
  Effect.gen(function* () {
    yield* TestClock.setTime(RESTART)
    const settings = testSettings()
    const dir = path.join(settings.dataDir, NAME)
    plant(dir, c)
    const last = c.pending[c.pending.length - 1]?.event_id ?? null
    const first = yield* restart(settings, dir)
    assert.deepStrictEqual(first, { unapplied: 0, sentinel: last })
    c.expect(dir)
    assert.isFalse(existsSync(path.join(dir, "events_rejected.ndjson")))
    const repaired = viewFiles(dir)
    resetSentinel(dir, c)
    const second = yield* restart(settings, dir)
    assert.deepStrictEqual(second, { unapplied: 0, sentinel: last })
    assert.deepStrictEqual(viewFiles(dir), repaired)
    c.expect(dir)
  })
