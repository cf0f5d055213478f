import { assert, describe, it } from "@effect/vitest"
import * as Bm25 from "../../src/recall/bm25/Bm25Index.js"
import * as Bm25Search from "../../src/recall/bm25/Bm25Search.js"
import { fuse, hybridRecall } from "../../src/recall/Hybrid.js"
import * as Corpus from "../../src/recall/RecallCorpus.js"
import { recallTokens, stripNames } from "../../src/recall/Tokenize.js"
import { factEntry } from "../../src/recall/RecallEntry.js"
import { corpusOf, fact, NOW, recall, t } from "../support/recall.js"

const scoresOf = (index: Bm25.Bm25Index, query: ReadonlyArray<string>) =>
  Object.fromEntries(Bm25Search.search([index], query, { k1: 1.5, b: 0.75 }).map((h) => [h.id, h.score]))

describe("recall tokens", () => {
  it("strips the speakers' names, keeps Latin words whole and cuts CJK into 2- then 3-grams", () => {
    assert.deepStrictEqual(recallTokens(stripNames("Master loves spicy ramen, a lot!", ["Master", "Tian"])), [
      "loves",
      "spicy",
      "ramen",
      "lot"
    ])
    // "主人喜欢猫" without 主人 → "喜欢猫": 2-grams 喜欢 欢猫, then the 3-gram 喜欢猫
    assert.deepStrictEqual(recallTokens(stripNames("主人喜欢猫", ["主人"])), ["喜欢", "欢猫", "喜欢猫"])
    // multiplicity kept: "猫猫猫" → 猫猫 猫猫 猫猫猫
    assert.deepStrictEqual(recallTokens("猫猫猫"), ["猫猫", "猫猫", "猫猫猫"])
  })
})

describe("CJK words (recall_cjk_words)", () => {
  it("adds Intl.Segmenter words to N.E.K.O.'s n-grams, so a one-character word finds its fact", () => {
    const facts = {
      facts: [fact("c1", "主人对猫毛过敏"), fact("c2", "主人喜欢狗"), fact("j1", "私は辛い食べ物が苦手です")]
    }
    const neko = corpusOf(facts, Corpus.make(["主人"]))
    const words = corpusOf(facts, Corpus.make(["主人"], { cjkWords: true }))
    assert.deepStrictEqual(words.tokenize("猫"), ["猫"])
    assert.deepStrictEqual(recall(neko, "猫").rows, [])
    assert.deepStrictEqual(
      recall(words, "猫").rows.map((r) => r.id),
      ["c1"]
    )
    assert.deepStrictEqual(
      recall(words, "食べ物は何が苦手？").rows.map((r) => r.id),
      ["j1"]
    )
  })
})

describe("BM25 (k1 1.5, b 0.75)", () => {
  it("scores a fixed English pool as computed by hand", () => {
    const index = Bm25.make()
    index.upsert("d1", ["cat", "cat", "dog"])
    index.upsert("d2", ["dog", "bird"])
    index.upsert("d3", ["fish"])
    // N = 3, total length 6, avgdl = 2
    // idf(cat) = ln((3 − 1 + 0.5)/(1 + 0.5) + 1) = ln(8/3) = 0.980829
    // idf(dog) = ln((3 − 2 + 0.5)/(2 + 0.5) + 1) = ln(1.6) = 0.470004
    // d1: norm = 1 − 0.75 + 0.75·3/2 = 1.375
    //     cat tf 2: 0.980829 · 2·2.5/(2 + 1.5·1.375) = 0.980829 · 5/4.0625 = 1.207174
    //     dog tf 1: 0.470004 · 2.5/(1 + 2.0625) = 0.470004 · 0.816327 = 0.383677   → 1.590851
    // d2: norm = 1 − 0.75 + 0.75·2/2 = 1; dog: 0.470004 · 2.5/(1 + 1.5) = 0.470004
    // d3: no query term → not returned
    const s = scoresOf(index, ["cat", "dog"])
    assert.deepStrictEqual(Object.keys(s).sort(), ["d1", "d2"])
    assert.closeTo(s["d1"] ?? 0, 1.590851, 1e-6)
    assert.closeTo(s["d2"] ?? 0, 0.470004, 1e-6)
  })

  it("scores a fixed Chinese pool as computed by hand", () => {
    const corpus = corpusOf(
      { facts: [fact("c1", "主人喜欢猫"), fact("c2", "主人喜欢狗"), fact("c3", "今天下雨")] },
      Corpus.make(["主人"])
    )
    const bm = Bm25.make()
    for (const [id, text] of [
      ["c1", "主人喜欢猫"],
      ["c2", "主人喜欢狗"],
      ["c3", "今天下雨"]
    ] as const)
      bm.upsert(id, corpus.tokenize(text))
    // c1 = [喜欢 欢猫 喜欢猫], c2 = [喜欢 欢狗 喜欢狗], c3 = [今天 天下 下雨 今天下 天下雨]
    // N = 3, total 11, avgdl = 11/3; c1/c2 norm = 0.25 + 0.75·3/(11/3) = 0.863636
    // each tf 1: 2.5/(1 + 1.5·0.863636) = 1.089109
    // idf(喜欢) = ln(1.6) = 0.470004, idf(欢猫) = idf(喜欢猫) = ln(8/3) = 0.980829
    // c1 = 1.089109 · (0.470004 + 2·0.980829) = 2.648345; c2 = 1.089109 · 0.470004 = 0.511885
    assert.strictEqual(corpus.tokenize("今天下雨").join(" "), "今天 天下 下雨 今天下 天下雨")
    const s = scoresOf(bm, corpus.tokenize("喜欢猫"))
    assert.closeTo(s["c1"] ?? 0, 2.648345, 1e-6)
    assert.closeTo(s["c2"] ?? 0, 0.511885, 1e-6)
    assert.isUndefined(s["c3"])
    // N.E.K.O.'s list (no relative floor): both at or above the 0.1 threshold, RRF 1/61 then 1/62, 6 decimals
    const neko = { ...t, recall_bm25_relative_floor: 0 }
    const tokens = corpus.tokenize("主人喜欢猫")
    assert.deepStrictEqual(
      hybridRecall(corpus, { partitions: ["legacy_private"], nowMillis: NOW, tokens }, neko).rows.map((r) => [
        r.id,
        r.score
      ]),
      [
        ["c1", 0.016393],
        ["c2", 0.016129]
      ]
    )
    // kioku's default floor (0.3 × the best) drops c2 (0.511885 < 0.794504)
    assert.deepStrictEqual(
      recall(corpus, "主人喜欢猫").rows.map((r) => r.id),
      ["c1"]
    )
  })

  it("keeps the index equal to a rebuild after adds, updates and removes", () => {
    const live = Bm25.make()
    const docs: Record<string, Array<string>> = {
      a: ["red", "apple", "apple"],
      b: ["green", "apple"],
      c: ["red", "car"],
      d: ["blue", "sky", "blue"],
      e: []
    }
    for (const [id, tokens] of Object.entries(docs)) live.upsert(id, tokens)
    live.upsert("b", ["green", "pear", "pear"])
    live.remove("c")
    live.upsert("f", ["red", "pear"])
    live.remove("missing")
    live.upsert("a", ["red", "apple", "apple"])
    const final: Record<string, Array<string>> = {
      a: ["red", "apple", "apple"],
      b: ["green", "pear", "pear"],
      d: ["blue", "sky", "blue"],
      e: [],
      f: ["red", "pear"]
    }
    const rebuilt = Bm25.make()
    for (const [id, tokens] of Object.entries(final)) rebuilt.upsert(id, tokens)
    assert.strictEqual(live.size(), rebuilt.size())
    assert.strictEqual(live.totalLength(), rebuilt.totalLength())
    for (const term of ["red", "apple", "pear", "car", "green", "blue", "sky"])
      assert.strictEqual(live.df(term), rebuilt.df(term), term)
    for (const query of [["red"], ["pear", "apple"], ["car"], ["blue", "red", "green"]])
      assert.deepStrictEqual(scoresOf(live, query), scoresOf(rebuilt, query))
  })

  it("scores, counts and copies the same after churn that compacts its posting lists", () => {
    const live = Bm25.make()
    const tokensOf = (i: number, round: number) => ["common", `w${i % 37}`, `r${round}x${i % 5}`, `id${i}`]
    for (let i = 0; i < 3000; i++) live.upsert(`d${i}`, tokensOf(i, 0))
    // Removes and rewrites enough documents for dead slots to outnumber live ones, more than once.
    for (let round = 1; round <= 3; round++)
      for (let i = 0; i < 3000; i++) {
        if (i % 3 === 0) live.remove(`d${i}`)
        else if (i % 3 === 1) live.upsert(`d${i}`, tokensOf(i, round))
      }
    const rebuilt = Bm25.make()
    for (let i = 0; i < 3000; i++) if (i % 3 !== 0) rebuilt.upsert(`d${i}`, tokensOf(i, i % 3 === 1 ? 3 : 0))
    assert.strictEqual(live.size(), rebuilt.size())
    assert.isBelow(live.slots(), 3 * live.size())
    for (const term of ["common", "w3", "r3x1", "r0x2", "r1x1", "id3", "id4"])
      assert.strictEqual(live.df(term), rebuilt.df(term), term)
    for (const query of [["common"], ["w3", "r3x1"], ["r0x2", "id4", "w5"], ["r1x1"]])
      assert.deepStrictEqual(scoresOf(live, query), scoresOf(rebuilt, query))
    assert.deepStrictEqual(live.termsOf("d4"), rebuilt.termsOf("d4"))
    const postings = (index: Bm25.Bm25Index) => {
      const out: Array<string> = []
      index.forEachPosting("w3", (id, tf, length) => out.push(`${id}:${tf}:${length}`))
      return out.sort()
    }
    assert.deepStrictEqual(postings(live), postings(rebuilt))
  })

  it("with a limit, keeps exactly the hits scoring at least the limit-th best score, ties included", () => {
    const index = Bm25.make()
    for (let i = 0; i < 60; i++) index.upsert(`d${i}`, ["tea", ...Array.from({ length: i % 6 }, () => "green")])
    const params = { k1: 1.5, b: 0.75 }
    const all = Bm25Search.search([index], ["tea", "green"], params)
    for (const limit of [1, 5, 10, 11, 59, 60, 100]) {
      const kth = [...all].sort((a, b) => b.score - a.score)[Math.min(limit, all.length) - 1]?.score ?? 0
      assert.deepStrictEqual(
        Bm25Search.search([index], ["tea", "green"], params, undefined, limit),
        all.filter((h) => h.score >= kth),
        `limit ${limit}`
      )
    }
    // Ten documents share each score, so a limit of 11 keeps twenty.
    assert.strictEqual(Bm25Search.search([index], ["tea", "green"], params, undefined, 11).length, 20)
    assert.deepStrictEqual(Bm25Search.search([index], ["tea"], params, undefined, 0), [])
  })

  it("computes the statistics of a restricted pool as if it had been filtered first", () => {
    const all = Bm25.make()
    const kept = Bm25.make()
    for (const [id, tokens] of [
      ["a", ["tea", "green"]],
      ["b", ["tea"]],
      ["c", ["coffee", "tea", "tea"]],
      ["d", ["water"]]
    ] as const) {
      all.upsert(id, tokens)
      if (id !== "c") kept.upsert(id, tokens)
    }
    const params = { k1: 1.5, b: 0.75 }
    const expected = Bm25Search.search([kept], ["tea", "green"], params)
    assert.deepStrictEqual(
      Bm25Search.search([all], ["tea", "green"], params, { _tag: "Except", ids: new Set(["c"]) }),
      expected
    )
    assert.deepStrictEqual(
      Bm25Search.search([all], ["tea", "green"], params, {
        _tag: "Only",
        marks: [Bm25Search.marksOf(all, ["a", "b", "d"])],
        size: 3,
        totalLength: 4
      }),
      expected
    )
  })
})

describe("the corpus diff", () => {
  it("compares by identity, touching only the rows between the common head and tail", () => {
    const corpus = Corpus.make([])
    const [a, b, c, d, e] = [
      fact("a", "text a"),
      fact("b", "text b"),
      fact("c", "text c"),
      fact("d", "text d"),
      fact("e", "text e")
    ]
    const first = corpus.diff("fact", [a, b, c, d])
    assert.deepStrictEqual([first.changed.length, first.removed.length], [4, 0])
    corpus.apply(
      "fact",
      first,
      first.changed.map((r) => r.text),
      (f) => factEntry(f, "fact")
    )
    const edited = fact("c", "text c, edited")
    const next = corpus.diff("fact", [a, edited, d, e])
    assert.deepStrictEqual(
      next.changed.map((r) => r.id),
      ["c", "e"]
    )
    assert.deepStrictEqual(next.removed, ["b"])
    assert.deepStrictEqual(corpus.diff("fact", [a, b, c, d]).changed, [])
  })
})

describe("reciprocal-rank fusion", () => {
  it("sums 1/(60 + rank) per list, dedups by id and breaks ties by first appearance", () => {
    const ids = (...xs: Array<string>) => xs.map((id) => ({ id }))
    const fused = fuse([ids("a", "b"), ids("c", "a")], 60, 8)
    // a = 1/61 + 1/62 = 0.032522; c = 1/61 = 0.016393; b = 1/62 = 0.016129
    assert.deepStrictEqual(
      fused.map((f) => [f.item.id, Math.round(f.score * 1e6) / 1e6]),
      [
        ["a", 0.032522],
        ["c", 0.016393],
        ["b", 0.016129]
      ]
    )
    // an exact tie (rank 1 in each list): the BM25 list's document first
    assert.deepStrictEqual(
      fuse([ids("x"), ids("y")], 60, 8).map((f) => f.item.id),
      ["x", "y"]
    )
    assert.strictEqual(fuse([ids(..."abcdefghij".split(""))], 60, 8).length, 8)
  })
})
