import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import * as TurnVectorIndex from "../../src/recall/TurnVectorIndex.js"
import * as TurnVectorStore from "../../src/store/TurnVectorStore.js"

const unit = (...xs: ReadonlyArray<number>) => {
  const n = Math.hypot(...xs)
  return Float32Array.from(xs.map((x) => x / n))
}

describe("turn vector index", () => {
  it("finds the nearest turns by cosine, keeps text hashes of skipped turns, ignores other lengths", () => {
    const index = TurnVectorIndex.make("m")
    index.set(1, "a", unit(1, 0, 0))
    index.set(2, "b", unit(0.8, 0.6, 0))
    index.set(3, "c", unit(0, 0, 1))
    index.set(4, "d", new Float32Array(0))
    index.set(5, "e", unit(1, 1))
    assert.strictEqual(index.size(), 3)
    assert.strictEqual(index.dim(), 3)
    assert.strictEqual(index.shaOf(4), "d")
    const near = index.nearest(unit(1, 0.1, 0), 2)
    assert.deepStrictEqual(
      near.map((h) => h.rowId),
      [1, 2]
    )
    index.set(1, "a2", unit(0, 0, 1))
    assert.strictEqual(index.size(), 3)
    assert.deepStrictEqual(
      index.nearest(unit(0, 0, 1), 3).map((h) => [h.rowId, Math.round(h.score * 100) / 100]),
      [
        [1, 1],
        [3, 1],
        [2, 0]
      ]
    )
    assert.deepStrictEqual(index.nearest(unit(1, 0), 3), [])
    for (let i = 10; i < 1000; i++) index.set(i, "x", unit(1, 0.01, 0))
    assert.strictEqual(index.size(), 993)
    assert.strictEqual(index.nearest(unit(0, 1, 0), 1)[0]?.rowId, 2)
  })

  it("adds the cosine rescaled between the reference and the best to the lexical score, after the floor", () => {
    const lexical = [
      { rowId: 1, score: 1.5 },
      { rowId: 2, score: 0.9 },
      { rowId: 3, score: 0.2 }
    ]
    const semantic = [
      { rowId: 4, score: 0.9 },
      { rowId: 2, score: 0.8 },
      { rowId: 5, score: 0.5 }
    ]
    const fused = TurnVectorIndex.fuseTurns(lexical, semantic, { floor: 0.2, weight: 1, limit: 10 })
    assert.deepStrictEqual(
      fused.map((h) => [h.rowId, Math.round(h.score * 1e6) / 1e6]),
      [
        [2, 1.65],
        [1, 1.5],
        [4, 1]
      ]
    )
    assert.deepStrictEqual(
      TurnVectorIndex.fuseTurns(lexical, semantic, { floor: 0, weight: 0, limit: 2 }).map((h) => h.rowId),
      [1, 2]
    )
    assert.deepStrictEqual(
      TurnVectorIndex.fuseTurns([], semantic.slice(0, 1), { floor: 0.5, weight: 1, limit: 10 }),
      [],
      "one cosine alone has no reference"
    )
  })
})

describe("turn_vectors.db", () => {
  it.effect("stores vectors and markers per model, drops other models, and recreates an unreadable file", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(path.join(tmpdir(), "kioku-turnvec-"))
      const store = yield* TurnVectorStore.open(dir)
      yield* store.put([
        { rowId: 2, textSha256: "s2", modelId: "m", vector: unit(3, 4) },
        { rowId: 1, textSha256: "s1", modelId: "m", vector: new Float32Array(0) },
        { rowId: 3, textSha256: "s3", modelId: "old", vector: unit(1, 0) }
      ])
      const rows = yield* store.load("m")
      assert.deepStrictEqual(
        rows.map((r) => [r.rowId, r.textSha256, [...r.vector].map((x) => Math.round(x * 1000) / 1000)]),
        [
          [1, "s1", []],
          [2, "s2", [0.6, 0.8]]
        ]
      )
      assert.strictEqual(yield* store.pruneOtherModels("m"), 1)
      assert.deepStrictEqual(yield* store.load("old"), [])
      yield* store.close
      writeFileSync(path.join(dir, TurnVectorStore.TURN_VECTORS_FILE), "not a database ".repeat(200))
      const again = yield* TurnVectorStore.open(dir)
      assert.deepStrictEqual(yield* again.load("m"), [])
      yield* again.close
      assert.isTrue(existsSync(path.join(dir, TurnVectorStore.TURN_VECTORS_FILE)))
    })
  )
})
