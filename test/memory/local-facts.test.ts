import { assert, describe, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { eventWhenOf } from "../../src/llm/local/EventCues.js"
import { extractFacts } from "../../src/llm/local/LocalFacts.js"
import { clampImportance, eventWindow, factId, textHash } from "../../src/memory/facts/Fact.js"

const names = { master: "Alex", character: "Tian" }
const sentences = (text: string) => text.split(/(?<=[.!?])\s+/)
const texts = (utterances: Parameters<typeof extractFacts>[0]) =>
  extractFacts(utterances, names, sentences).map((f) => f.text)

describe("local fact extraction", () => {
  it("turns English first-person statements into facts about the speaker", () => {
    const facts = extractFacts(
      [
        { speaker: "human", text: "Hi! My name is Alex Kim. I moved to Osaka last week. I love spicy ramen." },
        { speaker: "human", text: "I work at Nintendo. I'm 29 years old. Please don't mention my ex." },
        { speaker: "human", text: "My sister is a nurse. I adopted a kitten named Mochi 3 days ago." },
        { speaker: "ai", text: "I love rainy days." }
      ],
      names,
      sentences
    )
    const byText = new Map(facts.map((f) => [f.text, f]))
    assert.strictEqual(byText.get("Alex's name is Alex Kim")?.importance, 10)
    assert.deepStrictEqual(byText.get("Alex moved to Osaka last week")?.event_when, {
      start: { offset: -1, unit: "week" },
      end: null
    })
    assert.strictEqual(byText.get("Alex loves spicy ramen")?.importance, 6)
    assert.strictEqual(byText.get("Alex works at Nintendo")?.importance, 8)
    assert.strictEqual(byText.get("Alex is 29 years old")?.importance, 9)
    assert.strictEqual(byText.get("Alex does not want to talk about my ex")?.importance, 9)
    assert.isTrue(byText.has("Alex's sister is a nurse"))
    assert.deepStrictEqual(byText.get("Alex has a kitten named Mochi 3 days ago")?.event_when, {
      start: { offset: -3, unit: "day" },
      end: null
    })
    const ai = byText.get("Tian loves rainy days")
    assert.deepStrictEqual([ai?.entity, ai?.source], ["neko", "ai_disclosure"])
    assert.notInclude([...byText.keys()].join("|"), "Hi!")
  })

  it("extracts Chinese and Japanese statements", () => {
    assert.includeMembers(
      texts([{ speaker: "human", text: "我叫小林。我住在上海。我非常喜欢猫！昨天我去了动物园。" }]),
      ["Alex的名字是小林", "Alex住在上海", "Alex喜欢猫", "Alex去了动物园"]
    )
    assert.deepStrictEqual(
      extractFacts([{ speaker: "human", text: "昨天我去了动物园。" }], names, sentences)[0]?.event_when,
      { start: { offset: -1, unit: "day" }, end: null }
    )
    assert.includeMembers(
      texts([{ speaker: "human", text: "私の名前はユキです。大阪に住んでいます。猫が大好きです。" }]),
      ["Alexの名前はユキ", "Alexは大阪に住んでいる", "Alexは猫が好き"]
    )
  })

  it("reads relative time cues in three languages", () => {
    assert.deepStrictEqual(eventWhenOf("two weeks ago we met"), { start: { offset: -2, unit: "week" }, end: null })
    assert.deepStrictEqual(eventWhenOf("3天前"), { start: { offset: -3, unit: "day" }, end: null })
    assert.deepStrictEqual(eventWhenOf("先週の金曜日"), { start: { offset: -1, unit: "week" }, end: null })
    assert.deepStrictEqual(eventWhenOf("明年"), { start: { offset: 1, unit: "year" }, end: null })
    assert.isNull(eventWhenOf("I like tea"))
  })
})

describe("fact records", () => {
  it("hashes, names and clamps as N.E.K.O. does", () => {
    assert.strictEqual(
      textHash("Alex likes tea"),
      createHash("sha256").update("Alex likes tea").digest("hex").slice(0, 16)
    )
    assert.match(textHash("x"), /^[0-9a-f]{16}$/)
    assert.strictEqual(factId("2026-11-30T05:14:44.123000", "0123456789abcdef"), "fact_20261130051444_01234567")
    assert.strictEqual(clampImportance(12), 10)
    assert.strictEqual(clampImportance(0), 1)
    assert.strictEqual(clampImportance("high"), 5)
    assert.strictEqual(clampImportance(6.6), 7)
  })

  it("computes the event window from created_at and the offsets", () => {
    const created = new Date(2026, 10, 30, 12, 0, 0).getTime()
    assert.deepStrictEqual(eventWindow(null, created), {
      event_start_at: "2026-11-30T12:00:00.000000",
      event_end_at: null
    })
    assert.deepStrictEqual(
      eventWindow({ start: { offset: -1, unit: "month" }, end: { offset: -1, unit: "day" } }, created),
      {
        event_start_at: "2026-10-31T12:00:00.000000",
        event_end_at: "2026-11-29T12:00:00.000000"
      }
    )
  })
})
