import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { analyzeQuery, isShort, timestampMillis } from "../../src/recall/TurnTier.js"
import { mergeTiers } from "../../src/recall/MergeTiers.js"
import type { RecallRow } from "../../src/recall/RecallTypes.js"
import { analyze, stemWord } from "../../src/recall/TurnAnalyzer.js"
import * as TurnIndex from "../../src/recall/TurnIndex.js"
import { boot, testSettings } from "../support/layers.js"

const params: TurnIndex.TurnTierParams = {
  k1: 1.5,
  b: 0.75,
  neighbour: 0.5,
  second: 0.2,
  sessionWeight: 0.5,
  speakerBoost: 0.5,
  sessionGapMs: 30 * 60_000,
  dates: true
}

const day = Date.UTC(2023, 4, 8, 13, 0, 0)
const turns: ReadonlyArray<TurnIndex.TurnInput> = [
  { rowId: 1, speaker: "master", text: "I went to a support group yesterday.", at: day },
  { rowId: 2, speaker: "character", text: "That sounds powerful! How did it feel?", at: day + 1000 },
  { rowId: 3, speaker: "master", text: "Painting sunsets relaxes me.", at: day + 2000 },
  { rowId: 4, speaker: "character", text: "I took my kids camping in the mountains.", at: day + 86_400_000 },
  { rowId: 5, speaker: "master", text: "Camping with kids is wonderful.", at: day + 86_401_000 },
  { rowId: 6, speaker: "character", text: "我喜欢猫咪", at: day + 86_402_000 }
]

const row = (tier: RecallRow["tier"], id: string): RecallRow => ({
  id,
  text: id,
  tier,
  entity: "x",
  subject_kind: null,
  subject_id: null,
  scope: "legacy_private",
  score: null,
  created_at: null,
  event_start_at: null,
  event_end_at: null
})

describe("raw-turn tier", () => {
  it("analyzes English with stop words and Porter2 stems, CJK with 2/3-grams", () => {
    assert.deepStrictEqual(analyze("I have been running to the support groups!"), ["run", "support", "group"])
    assert.deepStrictEqual(analyze("She didn't paint; painted paintings"), ["paint", "paint", "paint"])
    assert.strictEqual(stemWord("generously"), "generous")
    assert.deepStrictEqual(analyze("我喜欢猫"), ["我喜", "喜欢", "欢猫", "我喜欢", "喜欢猫", "喜欢", "猫"])
    assert.deepStrictEqual(analyze("猫のミケは窓際で昼寝"), [
      ...["猫の", "のミ", "ミケ", "ケは", "は窓", "窓際", "際で", "で昼", "昼寝"],
      ...["猫のミ", "のミケ", "ミケは", "ケは窓", "は窓際", "窓際で", "際で昼", "で昼寝"],
      ...["猫", "ミ", "ケ", "窓際", "昼寝"]
    ])
    assert.deepStrictEqual(analyze("Я живу в Москве, mi gato y yo"), ["живу", "москве", "mi", "gato", "yo"])
  })

  it("gives a turn half its neighbours' text and a fifth of turns two away, within its session", () => {
    const index = TurnIndex.make({ ...params, sessionWeight: 0, dates: false })
    index.append(turns)
    const hits = index.search(analyze("support group"), new Set(), 10)
    assert.deepStrictEqual(
      hits.map((h) => h.rowId),
      [1, 2, 3]
    )
    assert.isAbove(hits[1]?.score ?? 0, hits[2]?.score ?? 0)
    assert.deepStrictEqual(
      index.search(analyze("sunsets"), new Set(), 10).map((h) => h.rowId),
      [3, 2, 1]
    )
  })

  it("boosts the named speaker's turns and finds a session by its date", () => {
    const index = TurnIndex.make(params)
    index.append(turns)
    const plain = index.search(analyze("camping kids"), new Set(), 2).map((h) => h.rowId)
    const named = index.search(analyze("camping kids"), new Set(["master"]), 2).map((h) => h.rowId)
    assert.deepStrictEqual(plain, [4, 5])
    assert.deepStrictEqual(named, [5, 4])
    assert.deepStrictEqual(
      index
        .search(analyze("May 9 2023"), new Set(), 3)
        .map((h) => h.rowId)
        .sort(),
      [4, 5, 6]
    )
  })

  it("indexes incrementally exactly as a rebuild does", () => {
    const whole = TurnIndex.make(params)
    whole.append(turns)
    const stepwise = TurnIndex.make(params)
    for (const t of turns) stepwise.append([t])
    stepwise.append([turns[0]!])
    assert.strictEqual(stepwise.size(), turns.length)
    assert.strictEqual(stepwise.lastRowId(), 6)
    for (const q of ["support group", "camping kids sunsets", "feel powerful", "喜欢猫", "may 2023"])
      assert.deepStrictEqual(stepwise.search(analyze(q), new Set(), 10), whole.search(analyze(q), new Set(), 10))
  })

  it("tells short turns (five words at most) from the others in any script", () => {
    for (const text of ["That sounds lovely", "这样啊！", "なるほど〜", "Thanks for telling me!"])
      assert.isTrue(isShort(text), text)
    for (const text of ["I adopted a greyhound named Bolt last winter.", "我养了一只柯基，名字叫可乐。"])
      assert.isFalse(isShort(text), text)
  })

  it("reads the speakers a query names and strips them", () => {
    const q = analyzeQuery("What did Caroline's friend Melanie paint?", { master: "Caroline", character: "Melanie" })
    assert.deepStrictEqual(q.terms, ["friend", "paint"])
    assert.deepStrictEqual([...q.named].sort(), ["character", "master"])
    assert.strictEqual(timestampMillis("2023-05-08 13:00:00.000000"), day)
    assert.isNaN(timestampMillis("soon"))
  })

  it("fuses memory rows and turn rows by weighted RRF up to the cap", () => {
    const merged = mergeTiers([row("fact", "f1"), row("fact", "f2")], [row("turn", "turn:1")], new Map(), {
      k: 60,
      turnWeight: 2,
      total: 2,
      memorySlots: 0
    })
    assert.deepStrictEqual(
      merged.map((r) => r.id),
      ["turn:1", "f1"]
    )
    assert.strictEqual(merged[0]?.score, Math.round((2 / 61) * 1e6) / 1e6)
  })

  for (const on of [undefined, true, false])
    it.scoped(
      `/query_memory ${on === false ? "returns no" : "returns"} turn rows with recall_turn_tier ${on ?? "by default"}`,
      () =>
        Effect.gen(function* () {
          const memory = yield* boot(testSettings(on === undefined ? {} : { recall_turn_tier: on }))
          yield* memory.write("cache", "Tt", {
            messages: [
              { role: "user", content: "My grandmother's zeppelin collection is enormous." },
              { role: "assistant", content: "Wow, tell me more!" }
            ]
          })
          const found = yield* memory.queryMemory("Tt", { query: "zeppelins" })
          const rows = found.results.filter((r) => r.tier === "turn")
          if (on === false) return assert.deepStrictEqual(rows, [])
          assert.strictEqual(rows[0]?.text, "My grandmother's zeppelin collection is enormous.")
          assert.strictEqual(rows[0]?.source_row_ids?.length, 1)
          assert.strictEqual(rows[0]?.entity, "user_said")
          const rendered = yield* memory.recallText("Tt", { query: "zeppelins", language: "en" })
          assert.include(rendered, "[conversation/the user said] My grandmother's zeppelin collection is enormous.")
          yield* memory.write("cache", "Tt", { messages: [{ role: "user", content: "Another zeppelin arrived." }] })
          const again = yield* memory.queryMemory("Tt", { query: "zeppelin" })
          // The reply matched only through its neighbour's words and is too short to add anything: left out.
          assert.sameMembers(
            again.results.filter((r) => r.tier === "turn").map((r) => r.text),
            ["My grandmother's zeppelin collection is enormous.", "Another zeppelin arrived."]
          )
        })
    )

  it.scoped("indexes turns whose content is a list of parts, and skips turns without text", () =>
    Effect.gen(function* () {
      const memory = yield* boot(testSettings())
      yield* memory.write("cache", "Parts", {
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "My hamster Biscuit" },
              { type: "text", text: "hoards sunflower seeds." }
            ]
          },
          { role: "assistant", content: [{ type: "image_url", image_url: { url: "data:," } }] },
          { role: "assistant", content: "Biscuit sounds adorable!" }
        ]
      })
      const found = yield* memory.queryMemory("Parts", { query: "sunflower seeds" })
      const turns = found.results.filter((r) => r.tier === "turn")
      assert.strictEqual(turns[0]?.text, "My hamster Biscuit\nhoards sunflower seeds.")
      assert.strictEqual(turns[0]?.entity, "user_said")
      assert.deepStrictEqual(
        turns.map((r) => r.text),
        ["My hamster Biscuit\nhoards sunflower seeds."],
        "the short reply only echoes the turn before it"
      )
      const reply = yield* memory.queryMemory("Parts", { query: "adorable" })
      assert.strictEqual(reply.results.filter((r) => r.tier === "turn")[0]?.text, "Biscuit sounds adorable!")
    })
  )
})
