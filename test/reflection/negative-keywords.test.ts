import { assert, describe, it } from "@effect/vitest"
import { languages } from "../../src/domain/Locale.js"
import {
  hasNegativeKeyword,
  keywordListsFor,
  negativeKeywordLanguages,
  negativeKeywords,
  normaliseForKeywords
} from "../../src/reflection/evidence/NegativeKeywords.js"

describe("negative keywords", () => {
  it("detects English requests to stop mentioning something, case- and apostrophe-insensitively", () => {
    for (const text of [
      "Please stop talking about my ex.",
      "STOP MENTIONING the exam already",
      "Don't bring up my job again",
      "don’t mention that ever again",
      "I do not want to hear about it",
      "i dont want to talk about my family",
      "Can you stop bringing it up?",
      "Never mention it again, ok?",
      "Let's drop the subject."
    ]) {
      assert.isTrue(hasNegativeKeyword(text, "en"), text)
    }
  })

  it("does not fire on benign English look-alikes", () => {
    for (const text of [
      "Thanks! Don't mention it.",
      "You're welcome, don't mention it :)",
      "I can't stop talking about this game",
      "He won't stop talking about his trip",
      "You never mention your family",
      "Tell me more about your weekend",
      "nonstop mentioning of cats is fine"
    ]) {
      assert.isFalse(hasNegativeKeyword(text, "en"), text)
    }
    assert.isTrue(hasNegativeKeyword("don't mention it again", "en"))
  })

  it("detects Simplified and Traditional Chinese in either zh language", () => {
    for (const text of [
      "别再提那件事了",
      "不要再提我前任",
      "以后别提这个了好吗",
      "我不想再听这些",
      "別再提那件事了",
      "不要提這個了",
      "我不想再聽這些",
      "別聊這個"
    ]) {
      assert.isTrue(hasNegativeKeyword(text, "zh"), text)
      assert.isTrue(hasNegativeKeyword(text, "zh-TW"), text)
    }
  })

  it("does not fire on benign Chinese", () => {
    for (const text of ["别提多开心了", "別提多高興了", "记得提醒我明天开会", "我想聊聊这个话题", "这个先不要提交"]) {
      assert.isFalse(hasNegativeKeyword(text, "zh"), text)
    }
  })

  it("detects Japanese and ignores benign Japanese", () => {
    for (const text of [
      "その話はやめてください",
      "もう言わないで！",
      "そのことに触れないでほしい",
      "二度と口にしないで"
    ]) {
      assert.isTrue(hasNegativeKeyword(text, "ja"), text)
    }
    for (const text of ["誰にも言わないでね", "その話を聞かせて", "また話そうね"]) {
      assert.isFalse(hasNegativeKeyword(text, "ja"), text)
    }
  })

  it("covers the other languages, with English mixed in", () => {
    assert.isTrue(hasNegativeKeyword("그 얘기 하지 마", "ko"))
    assert.isTrue(hasNegativeKeyword("그얘기 하지마", "ko"))
    assert.isTrue(hasNegativeKeyword("Хватит говорить о работе", "ru"))
    assert.isTrue(hasNegativeKeyword("не упоминай её больше", "ru"))
    assert.isTrue(hasNegativeKeyword("No quiero oír hablar de eso", "es"))
    assert.isTrue(hasNegativeKeyword("deja de hablar de mi ex", "es"))
    assert.isTrue(hasNegativeKeyword("Não quero falar sobre isso", "pt"))
    assert.isTrue(hasNegativeKeyword("nao mencione isso", "pt"))
    assert.isTrue(hasNegativeKeyword("ok, stop talking about it", "ja"))
    assert.isTrue(hasNegativeKeyword("please stop mentioning it", "ru"))
    assert.isFalse(hasNegativeKeyword("아무한테도 말하지 마", "ko"))
    assert.isFalse(hasNegativeKeyword("Él no deja de hablar de su viaje", "es"))
    assert.isFalse(hasNegativeKeyword("Ela não para de falar do gato", "pt"))
  })

  it("falls back to Chinese for a missing language and scans only Chinese for the zh family", () => {
    assert.isTrue(hasNegativeKeyword("别再提了", undefined))
    assert.isTrue(hasNegativeKeyword("別再提了", undefined))
    assert.isFalse(hasNegativeKeyword("stop talking about it", undefined))
    assert.isFalse(hasNegativeKeyword("stop talking about it", "zh"))
    assert.isFalse(hasNegativeKeyword("别再提了", "en"))
    assert.isFalse(hasNegativeKeyword("その話はやめて", "ko"))
    assert.deepStrictEqual(keywordListsFor(undefined), ["zh-Hans", "zh-Hant"])
    assert.deepStrictEqual(keywordListsFor("zh-TW"), ["zh-Hans", "zh-Hant"])
    assert.deepStrictEqual(keywordListsFor("es"), ["es", "en"])
  })

  it("has lists of the promised sizes for every supported language", () => {
    assert.deepStrictEqual(negativeKeywordLanguages, languages)
    for (const list of ["en", "zh-Hans", "zh-Hant", "ja"] as const) assert.isAtLeast(negativeKeywords[list].length, 8)
    for (const list of ["ko", "ru", "es", "pt"] as const) assert.isAtLeast(negativeKeywords[list].length, 4)
    assert.strictEqual(normaliseForKeywords("Do  NOT ‘Mention’ Él", true), "dont mention el")
    assert.strictEqual(normaliseForKeywords("别 再 提", false), "别再提")
  })

  it("keeps the Traditional list the OpenCC conversion of the Simplified one", async () => {
    const { Converter } = await import("opencc-js")
    const toTraditional = Converter({ from: "cn", to: "tw" })
    assert.deepStrictEqual(negativeKeywords["zh-Hans"].map(toTraditional), [...negativeKeywords["zh-Hant"]])
  })
})
