import { assert, describe, it } from "@effect/vitest"
import {
  figures,
  hitAt,
  percentile,
  recallAt,
  reciprocalRank,
  rounded,
  summarize,
  type Outcome
} from "../../src/eval/Metrics.js"

const ranked = [["D1:1"], [], ["D1:3", "D1:4"], ["D2:1"], ["D1:1"], ["D3:1"], ["D3:2"], ["D3:3"], ["D2:2"], ["D4:4"]]

describe("retrieval metrics", () => {
  it("R@k counts each evidence id once, found anywhere in the top k hits", () => {
    const evidence = ["D1:1", "D1:4", "D2:2", "D9:9"]
    assert.strictEqual(recallAt(evidence, ranked, 1), 1 / 4)
    assert.strictEqual(recallAt(evidence, ranked, 3), 2 / 4)
    assert.strictEqual(recallAt(evidence, ranked, 5), 2 / 4)
    assert.strictEqual(recallAt(evidence, ranked, 8), 2 / 4)
    assert.strictEqual(recallAt(evidence, ranked, 10), 3 / 4)
    assert.strictEqual(recallAt(["D1:1", "D1:1"], ranked, 10), 1)
    assert.strictEqual(recallAt([], ranked, 10), 0)
  })

  it("hit@k and the reciprocal rank of the first hit holding any evidence id", () => {
    assert.strictEqual(hitAt(["D2:2"], ranked, 8), 0)
    assert.strictEqual(hitAt(["D2:2"], ranked, 10), 1)
    assert.strictEqual(reciprocalRank(["D1:4"], ranked), 1 / 3)
    assert.strictEqual(reciprocalRank(["D2:1", "D1:1"], ranked), 1)
    assert.strictEqual(reciprocalRank(["D8:8"], ranked), 0)
    assert.strictEqual(reciprocalRank(["D1:1"], []), 0)
  })

  it("nearest-rank percentiles", () => {
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6]
    assert.strictEqual(percentile(values, 50), 5)
    assert.strictEqual(percentile(values, 95), 10)
    assert.strictEqual(percentile(values, 90), 9)
    assert.strictEqual(percentile([7], 95), 7)
    assert.strictEqual(percentile([], 50), 0)
  })

  it("averages per question, overall over categories 1-4, and skips questions without evidence", () => {
    const o = (category: number, evidence: ReadonlyArray<string>, hits: ReadonlyArray<ReadonlyArray<string>>) =>
      ({ category, evidence, ranked: hits, latencyMs: category }) satisfies Outcome
    const outcomes = [
      o(1, ["A", "B"], [["x"], ["A"], ["x"], ["x"], ["x"], ["x"], ["x"], ["x"], ["B"]]),
      o(2, ["C"], [["C"]]),
      o(4, ["D"], [["x"], ["x"], ["x"], ["x"], ["x"], ["D"]]),
      o(5, ["E"], [["E"]]),
      o(3, [], [["x"]])
    ]
    const s = summarize(outcomes)
    // question 1: R@5 .5, R@8 .5, R@10 1, hit 1, RR 1/2; question 2: 1, 1, 1, 1, 1; question 3: 0, 1, 1, 1, 1/6
    assert.deepStrictEqual(s.overall, {
      "R@5": 0.5,
      "R@8": 2.5 / 3,
      "R@10": 1,
      "hit@10": 1,
      MRR: (1 / 2 + 1 + 1 / 6) / 3,
      n: 3
    })
    assert.deepStrictEqual(Object.keys(s.byCategory), ["1", "2", "4", "5"])
    assert.deepStrictEqual(s.byCategory["5"], { "R@5": 1, "R@8": 1, "R@10": 1, "hit@10": 1, MRR: 1, n: 1 })
    assert.deepStrictEqual(s.latencyMs, { p50: 3, p95: 5 })
    assert.deepStrictEqual(figures([]), { "R@5": 0, "R@8": 0, "R@10": 0, "hit@10": 0, MRR: 0, n: 0 })
    assert.strictEqual(rounded(s).overall["R@8"], 0.8333)
  })
})
