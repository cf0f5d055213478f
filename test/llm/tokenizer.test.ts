import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { detectLanguage } from "../../src/domain/Locale.js"
import { heuristic, OMISSION, Tokenizer } from "../../src/llm/Tokenizer.js"

describe("token counting", () => {
  it.effect("counts o200k_base tokens once gpt-tokenizer is loaded", () =>
    Effect.gen(function* () {
      const tokens = yield* Effect.provide(Tokenizer, Tokenizer.layer)
      assert.strictEqual(tokens.name(), "tiktoken:o200k_base")
      assert.strictEqual(tokens.count("Hello world"), 2)
      assert.strictEqual(tokens.count(""), 0)
      const long = Array.from({ length: 600 }, (_, i) => `w${i}`).join(" ")
      const cut = tokens.truncateMiddle(long, 250, 250)
      assert.include(cut, OMISSION)
      assert.isTrue(cut.startsWith("w0 w1"))
      assert.isTrue(cut.endsWith("w599"))
      assert.isAtMost(tokens.count(cut), 510)
      assert.strictEqual(tokens.truncateMiddle("short text", 250, 250), "short text")
    })
  )

  it("falls back to a heuristic", () => {
    assert.strictEqual(heuristic.name(), "heuristic:v1")
    assert.strictEqual(heuristic.count("abcdefgh"), 2)
    assert.strictEqual(heuristic.count("你好世界"), 4)
    assert.strictEqual(heuristic.truncate("abcdefghijkl", 2), "abcdefgh")
  })
})

describe("content language", () => {
  it("detects the language people wrote in", () => {
    assert.strictEqual(detectLanguage(["今日は寒いですね"], "en"), "ja")
    assert.strictEqual(detectLanguage(["我今天很累"], "en"), "zh")
    assert.strictEqual(detectLanguage(["我們這裡說什麼"], "en"), "zh-TW")
    assert.strictEqual(detectLanguage(["오늘 날씨 좋다"], "en"), "ko")
    assert.strictEqual(detectLanguage(["Привет, как дела"], "en"), "ru")
    assert.strictEqual(detectLanguage(["hello there"], "ja"), "ja")
    assert.strictEqual(detectLanguage(["123 !!"], "zh"), "zh")
  })
})
