import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { summarise } from "../../src/recent/local/LocalSummary.js"
import { heuristic } from "../../src/llm/Tokenizer.js"
import { english } from "../support/extraction.js"

const names = { master: "Alex", character: "Tian" }
const memo = (lines: ReadonlyArray<string>, budget = 900) =>
  Effect.map(english, (nlp) => summarise(lines.join("\n"), budget, heuristic.count, { names, english: nlp }))

const conversation = [
  "Alex | hi!",
  "Alex | Hi Tian, I'm back from work.",
  "Tian | Good to know, I'll remember that.",
  "Tian | Hello Alex! How was your day?",
  "Alex | I adopted a cat named Mochi last week.",
  "Tian | I see!",
  "Alex | I work as a nurse in Osaka.",
  "Tian | Haha, that's so cool!",
  "Alex | My cat Mochi is 3 years old.",
  "Alex | Actually she is 4 years old.",
  "Alex | I adopted a cat named Mochi last week!",
  "Alex | Please don't mention my old job at Initech.",
  "Tian | OK.",
  "Tian | I promise to remind you about the vet on Friday.",
  "Alex | The weather is nice.",
  "Alex | 我下周三要去北京出差。",
  "Alex | 好的",
  "Alex | なるほど"
]

describe("local memo", () => {
  it.effect("keeps one third-person line per thing said, in order, without acknowledgements", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual((yield* memo(conversation)).split("\n"), [
        "Alex adopted a cat named Mochi last week.",
        "Alex works as a nurse in Osaka.",
        "Alex's cat Mochi is 3 years old, later she is 4 years old.",
        "Alex does not want to talk about Alex's old job at Initech.",
        "Tian promises to remind Alex about the vet on Friday.",
        "Alex下周三要去北京出差。"
      ])
    })
  )

  it.effect("stays within the budget but never drops a do-not-mention request", () =>
    Effect.gen(function* () {
      const short = yield* memo(conversation, 30)
      assert.include(short, "Alex does not want to talk about Alex's old job at Initech.")
      assert.isAtMost(heuristic.count(short), 30)
      assert.notInclude(short, "Osaka.\nAlex adopted")
      const tiny = yield* memo(conversation, 5)
      assert.strictEqual(tiny, "Alex does not want to talk about Alex's old job at Initech.")
    })
  )

  it.effect("carries an earlier memo forward and merges a repeat of it", () =>
    Effect.gen(function* () {
      const summary = yield* memo([
        "SYSTEM_MESSAGE | Memo from prior conversations: Alex's birthday is on 12 May.",
        "Alex | ok",
        "Alex | My birthday is on 12 May!",
        "Alex | I'm learning Korean."
      ])
      assert.deepStrictEqual(summary.split("\n"), ["Alex's birthday is on 12 May.", "Alex is learning Korean."])
    })
  )

  it.effect("keeps a statement about someone else only when it carries a date, a number or a name", () =>
    Effect.gen(function* () {
      const summary = yield* memo([
        "Alex | The vet appointment is on Friday at 3pm.",
        "Alex | That is so funny.",
        "Tian | You look great today!"
      ])
      assert.strictEqual(summary, "Alex: The vet appointment is on Friday at 3pm.")
    })
  )

  it.effect("writes Japanese and Chinese memos in their own language", () =>
    Effect.gen(function* () {
      const summary = yield* memo([
        "Alex | こんにちは！",
        "Tian | こんにちは、Alex！",
        "Alex | 毎朝ジョギングしています。",
        "Tian | なるほど！",
        "Alex | 我对猫毛过敏。",
        "Tian | 好的"
      ])
      assert.deepStrictEqual(summary.split("\n"), ["Alexは毎朝ジョギングしています。", "Alex对猫毛过敏。"])
    })
  )
})
