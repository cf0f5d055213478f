import { assert, describe, it } from "@effect/vitest"
import { applyRerank, type Candidate, coarseOrder, cosine } from "../../src/reflection/evidence/Rerank.js"

const v = (...xs: ReadonlyArray<number>) => Float32Array.from(xs)
const cand = (id: string, score: number, vector?: Float32Array): Candidate =>
  vector === undefined ? { id, text: `text ${id}`, score } : { id, text: `text ${id}`, score, vector }
const ids = (cs: ReadonlyArray<{ readonly id: string }>) => cs.map((c) => c.id)

// Against the queries [1,0] and [0,1]: a → 1, b = [3,4] → max(0.6, 0.8) = 0.8, c (no vector) → 0,
// d (3 dimensions) → 0, f = [0,-1] → max(0, -1) = 0, e = [-1,0] → max(-1, 0) = 0, g = [-1,-1] → -√½.
const pool = [
  cand("c", 5),
  cand("d", 1, v(1, 1, 0)),
  cand("a", 0, v(1, 0)),
  cand("f", 5, v(0, -1)),
  cand("e", 9, v(-1, 0)),
  cand("b", 2, v(3, 4)),
  cand("g", 100, v(-1, -1))
]
const queries = [v(1, 0), v(0, 1)]

describe("internal reranker", () => {
  it("computes cosine, with 0 for mismatched dimensions and zero vectors", () => {
    assert.strictEqual(cosine(v(1, 0), v(3, 4)), 0.6)
    assert.closeTo(cosine(v(1, 2, 3), v(2, 4, 6)), 1, 1e-12)
    assert.closeTo(cosine(v(1, 1), v(-1, -1)), -1, 1e-12)
    assert.strictEqual(cosine(v(1, 0), v(1, 0, 0)), 0)
    assert.strictEqual(cosine(v(0, 0), v(1, 1)), 0)
    assert.strictEqual(cosine(v(), v()), 0)
  })

  it("orders by best cosine, zero for missing or foreign vectors, ties by score then input order", () => {
    const all = coarseOrder(pool, queries, 3)
    assert.deepStrictEqual(ids(all.ordered), ["a", "b", "e", "c", "f", "d", "g"])
    assert.isTrue(all.needsLlm)
  })

  it("keeps budget × oversample and asks the LLM only when more than the budget remain", () => {
    const cut = coarseOrder(pool, queries, 1)
    assert.deepStrictEqual(ids(cut.ordered), ["a", "b", "e"])
    assert.isTrue(cut.needsLlm)
    const exact = coarseOrder(pool, queries, 3, 1)
    assert.deepStrictEqual(ids(exact.ordered), ["a", "b", "e"])
    assert.isFalse(exact.needsLlm)
    const few = coarseOrder(pool.slice(0, 2), queries, 2)
    assert.deepStrictEqual(ids(few.ordered), ["c", "d"])
    assert.isFalse(few.needsLlm)
    assert.deepStrictEqual(coarseOrder(pool, queries, 0), { ordered: [], needsLlm: false })
  })

  it("falls back to the stable evidence-score order cut to the budget without query vectors", () => {
    for (const none of [undefined, []]) {
      const r = coarseOrder(pool, none, 4)
      assert.deepStrictEqual(ids(r.ordered), ["g", "e", "c", "f"])
      assert.isFalse(r.needsLlm)
    }
    const infinite = coarseOrder([cand("x", 1), cand("p", Infinity), cand("q", Infinity)], undefined, 3)
    assert.deepStrictEqual(ids(infinite.ordered), ["p", "q", "x"])
  })

  it("applies the LLM's picks in its order, ignoring unknown and repeated ids, topped up and cut", () => {
    const ordered = coarseOrder(pool, queries, 2).ordered
    const picked = [{ id: "e" }, { id: "zzz" }, { id: "e" }, { id: "c" }]
    assert.deepStrictEqual(ids(applyRerank(ordered, picked, 4)), ["e", "c", "a", "b"])
    assert.deepStrictEqual(ids(applyRerank(ordered, picked, 1)), ["e"])
    assert.deepStrictEqual(ids(applyRerank(ordered, [{ id: "d" }, { id: "f" }, { id: "c" }], 2)), ["d", "f"])
    assert.deepStrictEqual(ids(applyRerank(ordered, [], 3)), ["a", "b", "e"])
    assert.deepStrictEqual(ids(applyRerank(ordered, picked, 0)), [])
    assert.strictEqual(applyRerank(ordered, picked, 1)[0], ordered[2])
  })
})
