import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { ChineseScript } from "../../src/domain/ChineseScript.js"
import { decodeAnswer } from "../../src/llm/JsonAnswer.js"
import * as C from "../../src/llm/prompts/contracts.js"
import * as F from "../../src/facts/prompts.js"
import * as P from "../../src/persona/prompts.js"
import * as Rc from "../../src/recent/prompts.js"
import * as R from "../../src/reflection/prompts.js"
import { pickTemplate, type TemplateSet } from "../../src/llm/prompts/templates.js"

const sets: Record<string, readonly [TemplateSet, Schema.Schema.AnyNoContext]> = {
  summary: [Rc.summaryPrompt, C.Summary],
  detailedSummary: [Rc.detailedSummaryPrompt, C.Summary],
  furtherSummary: [Rc.furtherSummaryPrompt, C.Summary],
  historyReview: [Rc.historyReviewPrompt, C.HistoryReview],
  factExtraction: [F.factExtraction, C.ExtractedFacts],
  factExtractionAiAware: [F.factExtractionAiAware, C.ExtractedFactsAiAware],
  factExtractionBatch: [F.factExtractionBatch, C.ExtractedFactsBatch],
  factDedup: [F.factDedup, C.FactDedup],
  recheckFact: [F.recheckFact, C.Recheck],
  reflection: [R.reflection, C.Reflection],
  reflectionFeedback: [R.reflectionFeedback, C.ReflectionFeedback],
  signalDetection: [R.signalDetection, C.Signals],
  recallRerank: [R.recallRerank, C.Rerank],
  negativeTarget: [R.negativeTarget, C.NegativeTargets],
  recheckReflection: [R.recheckReflection, C.Recheck],
  promotionMerge: [P.promotionMerge, C.PromotionMerge],
  personaCorrection: [P.personaCorrection, C.PersonaCorrections],
  memoryRefine: [P.memoryRefine, C.MemoryRefine],
  scopedMemoryRefine: [P.scopedMemoryRefine, C.ScopedMemoryRefine],
  personaFusion: [P.personaFusion, C.PersonaFusion]
}

const placeholders = (text: string) => [...new Set(text.match(/\{[A-Z_]+\}/g) ?? [])].sort()
/** The example answer on the template's last line, with "a|b" alternatives reduced to the first. */
const example = (text: string) => {
  const last = text.trim().split("\n").pop() ?? ""
  return last.slice(last.search(/[[{]/)).replace(/"[a-z_]+\|[a-z_|]+"/g, (m) => m.split("|")[0] + '"')
}

describe("prompt templates", () => {
  for (const [name, [set, contract]] of Object.entries(sets)) {
    it(`${name}: same placeholders in every language, and its own example satisfies the contract`, () => {
      const en = placeholders(set.en)
      assert.deepStrictEqual(placeholders(set.zh), en)
      assert.deepStrictEqual(placeholders(set.ja), en)
      if (set["zh-TW"] !== undefined) assert.deepStrictEqual(placeholders(set["zh-TW"]), en)
      for (const text of [set.en, set.zh, set.ja]) {
        const decoded = decodeAnswer(contract)(example(text))
        assert.isTrue(decoded._tag === "Right", `${name}: ${example(text)}`)
      }
    })
  }

  it("uses English for languages without their own text, and derives Traditional Chinese", () => {
    assert.deepStrictEqual(pickTemplate(F.factDedup, "ko"), { _tag: "Text", text: F.factDedup.en })
    assert.deepStrictEqual(pickTemplate(F.factDedup, "zh-TW"), { _tag: "FromSimplified", text: F.factDedup.zh })
    assert.deepStrictEqual(pickTemplate(Rc.summaryPrompt, "zh-TW"), { _tag: "Text", text: Rc.summaryPrompt["zh-TW"] })
  })

  it.effect("converts Simplified to Traditional and back with OpenCC's tables", () =>
    Effect.gen(function* () {
      const script = yield* Effect.provide(ChineseScript, ChineseScript.layer)
      assert.strictEqual(yield* script.toTraditional("请把下面的对话浓缩"), "請把下面的對話濃縮")
      assert.strictEqual(yield* script.toSimplified("這裡說話"), "这里说话")
    })
  )
})
