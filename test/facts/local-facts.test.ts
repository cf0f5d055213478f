import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { eventWhenOf } from "../../src/facts/local/EventCues.js"
import { extract } from "../support/extraction.js"
import { clampImportance, eventWindow, factId, textHash } from "../../src/facts/Fact.js"

describe("local fact extraction", () => {
  it.effect("turns first-person statements into facts about the speaker, with importance and dates", () =>
    Effect.gen(function* () {
      const facts = yield* extract([
        { speaker: "human", text: "Hi! My name is Alex Kim. I moved to Osaka last week. I love spicy ramen." },
        { speaker: "human", text: "I work at Nintendo. I'm 29 years old. Please don't mention my ex." },
        { speaker: "human", text: "My sister is a nurse. I adopted a kitten named Mochi 3 days ago." },
        { speaker: "ai", text: "I love rainy days." }
      ])
      const byText = new Map(facts.map((f) => [f.text, f]))
      assert.strictEqual(byText.get("Master's name is Alex Kim")?.importance, 10)
      assert.deepStrictEqual(byText.get("Master moved to Osaka last week")?.event_when, {
        start: { offset: -1, unit: "week" },
        end: null
      })
      assert.strictEqual(byText.get("Master loves spicy ramen")?.importance, 6)
      assert.strictEqual(byText.get("Master works at Nintendo")?.importance, 8)
      assert.strictEqual(byText.get("Master is 29 years old")?.importance, 10)
      assert.strictEqual(byText.get("Master does not want to talk about Master's ex")?.importance, 9)
      assert.isTrue(byText.has("Master's sister is a nurse"))
      assert.deepStrictEqual(byText.get("Master adopted a kitten named Mochi 3 days ago")?.event_when, {
        start: { offset: -3, unit: "day" },
        end: null
      })
      const ai = byText.get("Tian loves rainy days")
      assert.deepStrictEqual([ai?.entity, ai?.source], ["neko", "ai_disclosure"])
      assert.strictEqual(facts.length, 9)
    })
  )

  it.effect("returns a fact said twice in one call once", () =>
    Effect.gen(function* () {
      const facts = yield* extract([
        { speaker: "human", text: "I live in Kyoto." },
        { speaker: "human", text: "I live in Kyoto!" }
      ])
      assert.deepStrictEqual(
        facts.map((f) => f.text),
        ["Master lives in Kyoto"]
      )
    })
  )

  it("reads relative time cues in seven languages", () => {
    assert.deepStrictEqual(eventWhenOf("two weeks ago we met"), { start: { offset: -2, unit: "week" }, end: null })
    assert.deepStrictEqual(eventWhenOf("3天前"), { start: { offset: -3, unit: "day" }, end: null })
    assert.deepStrictEqual(eventWhenOf("先週の金曜日"), { start: { offset: -1, unit: "week" }, end: null })
    assert.deepStrictEqual(eventWhenOf("明年"), { start: { offset: 1, unit: "year" }, end: null })
    assert.deepStrictEqual(eventWhenOf("一昨日行った"), { start: { offset: -2, unit: "day" }, end: null })
    assert.deepStrictEqual(eventWhenOf("어제 영화를 봤어요"), { start: { offset: -1, unit: "day" }, end: null })
    assert.deepStrictEqual(eventWhenOf("Mañana voy a Madrid"), { start: { offset: 1, unit: "day" }, end: null })
    assert.isNull(eventWhenOf("Fui al parque por la mañana"))
    assert.deepStrictEqual(eventWhenOf("hace 3 días"), { start: { offset: -3, unit: "day" }, end: null })
    assert.deepStrictEqual(eventWhenOf("há dois meses"), { start: { offset: -2, unit: "month" }, end: null })
    assert.deepStrictEqual(eventWhenOf("3 дня назад"), { start: { offset: -3, unit: "day" }, end: null })
    assert.deepStrictEqual(eventWhenOf("на следующей неделе"), { start: { offset: 1, unit: "week" }, end: null })
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
