import { assert, describe, it } from "@effect/vitest"
import { Either } from "effect"
import { validateCharacterName } from "../../src/domain/CharacterName.js"
import { formatElapsed, normaliseLanguage } from "../../src/domain/Locale.js"
import { englishClock, localIso, parseLocal, sqliteTimestamp } from "../../src/domain/LocalTime.js"
import { contentText, normaliseMessage } from "../../src/domain/Message.js"
import { gapHint, stripBrackets } from "../../src/dialog/Render.js"

describe("character names", () => {
  const detail = (name: string) =>
    Either.match(validateCharacterName(name), { onLeft: (e) => e.detail, onRight: () => "ok" })
  it("accepts names N.E.K.O. accepts", () => {
    for (const name of [
      "Tian",
      "小天 Tian",
      "1·2·121·2",
      "Тянь",
      "legacy.name",
      "O'Neil",
      "a-b_c (2)",
      "x".repeat(50)
    ]) {
      assert.strictEqual(detail(name), "ok", name)
    }
  })
  it("rejects unsafe names with N.E.K.O.'s messages", () => {
    assert.strictEqual(detail(""), "Invalid lanlan_name length")
    assert.strictEqual(detail("   "), "Invalid lanlan_name length")
    assert.strictEqual(detail("x".repeat(51)), "Invalid lanlan_name length")
    for (const name of [
      "..",
      ".",
      "a/b",
      "a\\b",
      "CON",
      "con",
      "LPT1",
      "nul.txt",
      "end.",
      "Bad:Name",
      "a*b",
      "health"
    ]) {
      assert.strictEqual(detail(name), "Invalid characters in lanlan_name", name)
    }
  })
  it("trims surrounding whitespace", () => {
    assert.deepStrictEqual(Either.map(validateCharacterName("  Tian "), String), Either.right("Tian"))
  })
})

describe("languages and elapsed time", () => {
  it("normalises request language codes", () => {
    assert.strictEqual(normaliseLanguage("zh-CN"), "zh")
    assert.strictEqual(normaliseLanguage("zh_TW"), "zh-TW")
    assert.strictEqual(normaliseLanguage("zh-Hant-HK"), "zh-TW")
    assert.strictEqual(normaliseLanguage("en-US"), "en")
    assert.strictEqual(normaliseLanguage("fr"), undefined)
    assert.strictEqual(normaliseLanguage(""), undefined)
  })
  it("formats elapsed time as N.E.K.O. does", () => {
    assert.strictEqual(formatElapsed(45 * 60, "en"), "45 minutes")
    assert.strictEqual(formatElapsed(2 * 3600 + 5 * 60, "en"), "2 hours and 5 minutes")
    assert.strictEqual(formatElapsed(4 * 3600 + 5 * 60, "en"), "4 hours")
    assert.strictEqual(formatElapsed(3 * 86400 + 2 * 3600 + 9 * 60, "en"), "3 days and 2 hours")
    assert.strictEqual(formatElapsed(86400, "en"), "1 days")
    assert.strictEqual(formatElapsed(2 * 3600 + 5 * 60, "zh"), "2小时5分钟")
    assert.strictEqual(formatElapsed(3 * 86400 + 7200, "ja"), "3日2時間")
  })
  it("builds the gap hint with its thresholds", () => {
    const s = { character: "Tian", master: "Alex" }
    const now = new Date(2026, 10, 30, 9, 5).getTime()
    assert.strictEqual(gapHint(29 * 60, now, s, "en"), "")
    assert.strictEqual(
      gapHint(40 * 60, now, s, "en"),
      "It has been 40 minutes since the last conversation with Alex.\n"
    )
    assert.strictEqual(
      gapHint(6 * 3600, now, s, "en"),
      "The current time is 2026-11-30 09:05.It has been 6 hours since the last conversation with Alex." +
        "Tian realizes it has been quite a while since talking to Alex. What happened during this time? Tian is curious about how Alex has been.\n"
    )
  })
})

describe("local timestamps", () => {
  const t = new Date(2026, 10, 30, 5, 4, 3, 21).getTime()
  it("formats and parses naive local time", () => {
    assert.strictEqual(localIso(t), "2026-11-30T05:04:03.021000")
    assert.strictEqual(sqliteTimestamp(t), "2026-11-30 05:04:03.021000")
    assert.strictEqual(parseLocal("2026-11-30 05:04:03.021000"), t)
    assert.strictEqual(parseLocal("2026-11-30T05:04:03.021"), t)
    assert.strictEqual(parseLocal("yesterday"), undefined)
    assert.strictEqual(englishClock(t), "Monday, November 30, 2026 at 05:04 AM")
  })
})

describe("messages", () => {
  it("normalises every request shape to N.E.K.O.'s on-disk shape", () => {
    assert.deepStrictEqual(normaliseMessage({ role: "user", content: "hi" }), {
      type: "human",
      data: { content: "hi" }
    })
    assert.deepStrictEqual(normaliseMessage({ role: "assistant", content: "yo" }), {
      type: "ai",
      data: { content: "yo" }
    })
    assert.deepStrictEqual(normaliseMessage({ role: "system", content: "memo" }), {
      type: "system",
      data: { content: "memo" }
    })
    assert.deepStrictEqual(normaliseMessage({ type: "ai", data: { content: "x", extra: 1 } }), {
      type: "ai",
      data: { content: "x" }
    })
    assert.deepStrictEqual(normaliseMessage({ role: "tool", content: "t" }), { type: "human", data: { content: "t" } })
    assert.deepStrictEqual(normaliseMessage(42), { type: "human", data: { content: "42" } })
  })
  it("joins text parts and strips bracketed asides", () => {
    assert.strictEqual(
      contentText([{ type: "text", text: "a" }, { type: "image_url" }, { type: "text", text: "b" }]),
      "a\nb"
    )
    assert.strictEqual(stripBrackets("hi [smile] there (waves) 【note】 <b>x</b> {json} （括弧）"), "hi  there   x")
  })
})
