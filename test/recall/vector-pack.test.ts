/**
 * Packed vectors in `recall_index.db` rows of a bounded size (src/recall/index/VectorPack.ts): a partition larger
 * than one row reads back whole and in order, from the cache on the next query, and not under another key.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import * as Db from "../../src/recall/index/RecallIndexDb.js"
import * as Pack from "../../src/recall/index/VectorPack.js"

const vector = (i: number) => Float32Array.from({ length: 4 }, (_, k) => (k === i % 4 ? 1 : 0.25) * (1 + (i % 3)))

describe("chunked vector packs", () => {
  it.effect("reads a partition stored over several rows back whole, in pool order", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(path.join(tmpdir(), "kioku-pack-"))
      const db = Db.openDb(Db.indexFile(dir), true)
      db.prepare(
        "INSERT INTO parts (pid, key, n, total, dynamic) VALUES (1, 'private', 7, 7, 0), (2, 'g', 2, 2, 0)"
      ).run()
      db.close()
      const groups = [
        { partition: "private", list: [0, 2, 3, 5, 8, 9, 11].map((o) => [o, vector(o)] as const) },
        { partition: "g", list: [1, 4].map((o) => [o, vector(o)] as const) }
      ]
      const key = Pack.packKey("model", "v1", "stamps")
      assert.isTrue(Pack.writePacks(dir, groups.map(Pack.encodeGroup), key, () => true, 3))
      const rows = Db.openDb(Db.indexFile(dir), false)
      assert.strictEqual(rows.prepare("SELECT count(*) FROM vecs").pluck().get(), 4, "3 + 3 + 1 rows, and 1")
      rows.close()

      const reader = Db.openReader(dir)
      const cache = Pack.emptyCache()
      const source = Pack.packSource(reader, "stamps", [1, 2], cache)
      const packs = yield* source("model", "v1")
      assert.isDefined(packs)
      assert.deepStrictEqual(
        (packs ?? []).flatMap((p) => [...p.ords]),
        [0, 2, 3, 5, 8, 9, 11, 1, 4]
      )
      assert.strictEqual(Pack.packedCount(packs ?? []), 9)
      const query = vector(5)
      const vectors = yield* Pack.packedVectors(packs ?? [], "model", query)
      const scores = new Map((vectors.pooled?.() ?? []).map((s) => [s.id, s.score]))
      assert.closeTo(scores.get("5") ?? 0, 1, 1e-3, "the vector itself, decoded from float16")
      assert.deepStrictEqual([...(vectors.vectorOf("11") ?? [])], [...vector(11)], "exact in float16")

      reader.close()
      const again = yield* source("model", "v1")
      assert.isTrue(
        again?.length === packs?.length && (again ?? []).every((p, i) => p === packs?.[i]),
        "the next query takes the decoded chunks from the cache, with the reader closed"
      )
      assert.isUndefined(yield* source("model", "v2"), "another vectors.db version")
    })
  )
})
