import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import * as FlatArchive from "../../src/store/FlatArchive.js"
import * as LegacyLayout from "../../src/store/LegacyLayout.js"

const tempRoot = () => mkdtempSync(path.join(tmpdir(), "kioku-legacy-"))
const put = (file: string, text: string) => {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, text)
}

describe("legacy flat layout", () => {
  it("decodes the owner of every flat pattern, longest suffix and prefix first", () => {
    assert.strictEqual(LegacyLayout.ownerOf("recent_Mochi.json"), "Mochi")
    assert.strictEqual(LegacyLayout.ownerOf("persona_corrections_Mochi.json"), "Mochi")
    assert.strictEqual(LegacyLayout.ownerOf("facts_archive_Mochi.json"), "Mochi")
    assert.strictEqual(LegacyLayout.ownerOf("time_indexed_Mochi.db"), "Mochi")
    assert.strictEqual(LegacyLayout.ownerOf("time_indexed_Mochi"), "Mochi")
    assert.strictEqual(LegacyLayout.ownerOf("time_indexed_小天.db"), "小天")
    for (const bad of ["time_indexed_Mochi.db-wal", "recent_.json", "recent_con.json", "recent_a..b.json", "notes.txt"])
      assert.isUndefined(LegacyLayout.ownerOf(bad), bad)
  })

  it.effect("moves configured and discovered characters' files, never overwriting a per-character file", () =>
    Effect.gen(function* () {
      const root = tempRoot()
      put(path.join(root, "recent_Mochi.json"), "[]")
      put(path.join(root, "facts_Mochi.json"), '[{"id":"f1"}]')
      put(path.join(root, "persona_corrections_Mochi.json"), "[]")
      put(path.join(root, "time_indexed_Mochi.db"), "db")
      put(path.join(root, "time_indexed_Mochi.db-wal"), "wal")
      put(path.join(root, "settings_Configured.json"), "{}")
      put(path.join(root, "Taken", "recent.json"), '["kept"]')
      put(path.join(root, "recent_Taken.json"), '["flat"]')
      put(path.join(root, "speaker_trust.json"), "{}")
      const report = yield* LegacyLayout.migrate(root, ["Configured", "Absent"])
      assert.sameMembers(
        report.moved.map((m) => m.to),
        [
          "Mochi/recent.json",
          "Mochi/facts.json",
          "Mochi/persona_corrections.json",
          "Mochi/time_indexed.db",
          "Configured/settings.json"
        ]
      )
      assert.strictEqual(readFileSync(path.join(root, "Mochi", "time_indexed.db-wal"), "utf8"), "wal")
      assert.isFalse(existsSync(path.join(root, "time_indexed_Mochi.db-wal")))
      assert.strictEqual(readFileSync(path.join(root, "Taken", "recent.json"), "utf8"), '["kept"]')
      assert.strictEqual(readFileSync(path.join(root, "recent_Taken.json"), "utf8"), '["flat"]')
      assert.deepStrictEqual(report.kept, [
        { file: "recent_Taken.json", reason: "Taken/recent.json exists and is never overwritten" }
      ])
      assert.isFalse(existsSync(path.join(root, "Absent")))
      assert.isTrue(existsSync(path.join(root, "speaker_trust.json")))
      const again = yield* LegacyLayout.migrate(root, ["Configured"])
      assert.deepStrictEqual(again.moved, [])
    })
  )

  it.effect("leaves a database whose destination has a stray sidecar, and symbolic links, in place", () =>
    Effect.gen(function* () {
      const root = tempRoot()
      put(path.join(root, "time_indexed_Stray.db"), "db")
      put(path.join(root, "Stray", "time_indexed.db-wal"), "foreign")
      const outside = path.join(tempRoot(), "elsewhere.json")
      put(outside, "[]")
      symlinkSync(outside, path.join(root, "recent_Linked.json"))
      const report = yield* LegacyLayout.migrate(root, ["Linked"])
      assert.deepStrictEqual(report.moved, [])
      assert.sameMembers(
        report.kept.map((k) => k.file),
        ["time_indexed_Stray.db", "recent_Linked.json"]
      )
      assert.isTrue(existsSync(path.join(root, "time_indexed_Stray.db")))
      assert.isFalse(existsSync(path.join(root, "Stray", "time_indexed.db")))
      assert.isFalse(existsSync(path.join(root, "Linked")))
    })
  )
})

describe("flat reflection archive", () => {
  it.effect("buckets entries into dated shards, writes the sentinel, then removes the flat file", () =>
    Effect.gen(function* () {
      const dir = path.join(tempRoot(), "Mochi")
      const entries = [
        { id: "ref_a", text: "a", archived_at: "2026-01-02T10:00:00" },
        { id: "ref_b", text: "b", archived_at: "2026-01-02T11:00:00" },
        { id: "ref_c", text: "c", archived_at: "2026-03-04T09:00:00", extra: { kept: true } },
        { id: "ref_d", text: "d" }
      ]
      put(path.join(dir, FlatArchive.FLAT_FILE), JSON.stringify(entries))
      const now = new Date(2026, 10, 30, 12).getTime()
      assert.strictEqual(yield* FlatArchive.migrate(dir, { maxPerShard: 1, now }), 4)
      const shardDir = path.join(dir, FlatArchive.SHARD_DIR)
      const shards = readdirSync(shardDir).filter((f) => f.endsWith(".json"))
      assert.deepStrictEqual(shards.map((s) => s.slice(0, 10)).sort(), [
        "2026-01-02",
        "2026-01-02",
        "2026-03-04",
        "2026-11-30"
      ])
      const decodeShard = Schema.decodeUnknownSync(Schema.parseJson(Schema.Array(Schema.Unknown)))
      const all = shards.flatMap((s) => decodeShard(readFileSync(path.join(shardDir, s), "utf8")))
      assert.sameDeepMembers(all, entries)
      assert.isTrue(existsSync(path.join(shardDir, FlatArchive.SENTINEL)))
      assert.isFalse(existsSync(path.join(dir, FlatArchive.FLAT_FILE)))
      assert.strictEqual(yield* FlatArchive.migrate(dir, { maxPerShard: 1, now }), 0)
    })
  )

  it.effect("leaves a flat archive that does not decode untouched", () =>
    Effect.gen(function* () {
      const dir = path.join(tempRoot(), "Broken")
      put(path.join(dir, FlatArchive.FLAT_FILE), '{"not": "an array"}')
      assert.strictEqual(yield* FlatArchive.migrate(dir, { maxPerShard: 500, now: Date.now() }), 0)
      assert.isTrue(existsSync(path.join(dir, FlatArchive.FLAT_FILE)))
      assert.isFalse(existsSync(path.join(dir, FlatArchive.SHARD_DIR)))
    })
  )
})
