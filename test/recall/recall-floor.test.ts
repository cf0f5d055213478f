import { assert, describe, it } from "@effect/vitest"
import { hybridRecall, type Vectors } from "../../src/recall/Hybrid.js"
import { corpusOf, fact, NOW, t } from "../support/recall.js"

const unit = (...xs: ReadonlyArray<number>) => {
  const n = Math.hypot(...xs)
  return Float32Array.from(xs.map((x) => x / n))
}

const facts = [
  fact("f_cat", "Master has a cat named Mochi who naps all day"),
  fact("f_ex", "Master does not want to talk about the ex anymore"),
  fact("f_kyoto", "Master lives in Kyoto near the river")
]
const corpus = corpusOf({ facts })
const vectorsOf: Readonly<Record<string, Float32Array>> = {
  f_cat: unit(1, 0.1, 0),
  f_ex: unit(0.6, 0.8, 0),
  f_kyoto: unit(0, 0.2, 1)
}
const vectors = (query: Float32Array): Vectors => ({ modelId: "m", query, vectorOf: (id) => vectorsOf[id] })

const ask = (query: string, floors: { bm25: number; cosine: number }, v?: Vectors) =>
  hybridRecall(
    corpus,
    { partitions: ["legacy_private"], nowMillis: NOW, tokens: corpus.tokenize(query), vectors: v },
    { ...t, recall_bm25_relative_floor: floors.bm25, recall_cosine_relative_floor: floors.cosine }
  ).rows.map((r) => r.id)

describe("relative floors of the recall lists", () => {
  it("drops a cosine hit far below the best of its list, and keeps N.E.K.O.'s list at floor 0", () => {
    const near = vectors(unit(1, 0, 0))
    assert.deepStrictEqual(ask("pet", { bm25: 0, cosine: 0 }, near), ["f_cat", "f_ex"])
    assert.deepStrictEqual(ask("pet", { bm25: 0, cosine: 0.9 }, near), ["f_cat"])
  })

  it("drops a BM25 hit far below the best of its list", () => {
    const all = ask("Mochi naps all day near the river", { bm25: 0, cosine: 0 })
    assert.deepStrictEqual(all, ["f_cat", "f_kyoto", "f_ex"])
    assert.deepStrictEqual(ask("Mochi naps all day near the river", { bm25: 0.5, cosine: 0 }), ["f_cat", "f_kyoto"])
    assert.deepStrictEqual(ask("Mochi naps all day near the river", { bm25: 0.9, cosine: 0 }), ["f_cat"])
  })

  it("lets a list give more than its budget when the answer would fall short of the total (recall_fill_budget)", () => {
    const recall = (fill: boolean) =>
      hybridRecall(
        corpus,
        {
          partitions: ["legacy_private"],
          nowMillis: NOW,
          tokens: corpus.tokenize("Mochi naps all day near the river")
        },
        {
          ...t,
          recall_bm25_relative_floor: 0,
          hybrid_recall_budget_each: 1,
          hybrid_recall_budget_total: 3,
          recall_fill_budget: fill
        }
      ).rows.map((r) => r.id)
    assert.deepStrictEqual(recall(false), ["f_cat"], "N.E.K.O.'s budgets: one row per list")
    assert.deepStrictEqual(recall(true), ["f_cat", "f_kyoto", "f_ex"])
  })
})
