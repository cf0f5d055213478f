import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { makeBm25, wordTokens } from "../../src/eval/Bm25Baseline.js"
import {
  applyCorrections,
  decodeAudit,
  decodeLocomo,
  normaliseEvidence,
  parseSessionTime
} from "../../src/eval/Locomo.js"

const turn = (speaker: string, dia_id: string, text: string, extra: object = {}) => ({
  speaker,
  dia_id,
  text,
  ...extra
})

const sample = {
  sample_id: "conv-x",
  conversation: {
    speaker_a: "Ann",
    speaker_b: "Bob",
    session_10_date_time: "9:05 am on 1 June, 2023",
    session_10: [turn("Ann", "D10:1", "Back again")],
    session_2_date_time: "12:30 am on 2 May, 2023",
    session_2: [turn("Bob", "D2:1", "Look", { blip_caption: "a photo of a cat", img_url: ["x"] })],
    session_1_date_time: "1:56 pm on 8 May, 2023",
    session_1: [turn("Ann", "D1:1", "Hi Bob"), turn("Bob", "D1:2", "Hi Ann")],
    session_3_date_time: "2:00 pm on 9 June, 2023"
  },
  qa: [
    { question: "Who said hi?", answer: "Ann", evidence: ["D1:1; D1:02", "D9:9"], category: 4 },
    { question: "What did Bob show?", answer: 2022, evidence: ["D1:2"], category: 2 },
    { question: "Trick?", adversarial_answer: "no", evidence: ["D"], category: 5 }
  ],
  event_summary: {}
}

describe("LoCoMo data", () => {
  it.effect("decodes sessions in numeric order with local start times, captions and normalised evidence", () =>
    Effect.gen(function* () {
      const [c] = yield* decodeLocomo(JSON.stringify([sample]))
      assert.isDefined(c)
      if (c === undefined) return
      assert.deepStrictEqual(
        c.sessions.map((s) => s.index),
        [1, 2, 10]
      )
      assert.strictEqual(c.sessions[0]?.startMillis, new Date(2023, 4, 8, 13, 56).getTime())
      assert.strictEqual(c.sessions[1]?.startMillis, new Date(2023, 4, 2, 0, 30).getTime())
      assert.deepStrictEqual(c.sessions[1]?.turns[0], {
        speaker: "Bob",
        diaId: "D2:1",
        text: "Look",
        caption: "a photo of a cat"
      })
      assert.deepStrictEqual(
        c.questions.map((q) => [q.id, q.category, q.evidence]),
        [
          ["locomo_0_qa0", 4, ["D1:1", "D1:2"]],
          ["locomo_0_qa1", 2, ["D1:2"]],
          ["locomo_0_qa2", 5, []]
        ]
      )
      const audit = yield* decodeAudit(
        JSON.stringify([
          { question_id: "locomo_0_qa1", question: "What did Bob show?", category: 1, correct_evidence: ["D2:1"] },
          { question_id: "locomo_0_qa0", question: "Another question", category: 1, correct_evidence: [] }
        ])
      )
      const fixed = applyCorrections(c, audit)
      assert.strictEqual(fixed.applied, 1)
      assert.deepStrictEqual(fixed.conversation.questions[1], {
        id: "locomo_0_qa1",
        question: "What did Bob show?",
        category: 1,
        evidence: ["D2:1"]
      })
      assert.deepStrictEqual(fixed.conversation.questions[0], c.questions[0])
    })
  )

  it.effect("rejects a session without a readable date", () =>
    Effect.gen(function* () {
      const bad = { ...sample, conversation: { ...sample.conversation, session_1_date_time: "yesterday" } }
      const result = yield* Effect.either(decodeLocomo(JSON.stringify([bad])))
      assert.isTrue(Either.isLeft(result))
      const shape = yield* Effect.either(decodeLocomo(JSON.stringify([{ sample_id: 1 }])))
      assert.isTrue(Either.isLeft(shape))
    })
  )

  it("parses session times and evidence strings", () => {
    assert.deepStrictEqual(
      parseSessionTime("12:09 am on 13 September, 2023"),
      Option.some(new Date(2023, 8, 13, 0, 9).getTime())
    )
    assert.deepStrictEqual(
      parseSessionTime("12:09 pm on 13 September, 2023"),
      Option.some(new Date(2023, 8, 13, 12, 9).getTime())
    )
    assert.isTrue(Option.isNone(parseSessionTime("13 Smarch, 2023")))
    assert.deepStrictEqual(normaliseEvidence(["D8:6; D9:17", "D:11:26", "D30:05", "D", "D9:1 D4:4", "D8:6"]), [
      "D8:6",
      "D9:17",
      "D11:26",
      "D30:5",
      "D9:1",
      "D4:4"
    ])
  })
})

describe("plain BM25", () => {
  it("scores lower-cased word tokens with k1 1.2 and b 0.75", () => {
    assert.deepStrictEqual(wordTokens("I'm at the Café, 2 cats!"), ["i", "m", "at", "the", "café", "2", "cats"])
    const index = makeBm25([
      { id: "a", text: "cats and dogs" },
      { id: "b", text: "Cats cats" },
      { id: "c", text: "birds" }
    ])
    const hits = index.search("cats", 10)
    // n = 2 of N = 3: idf = ln(1 + 1.5/2.5); avgdl = 6/3
    const idf = Math.log(1 + 1.5 / 2.5)
    const score = (tf: number, dl: number) => (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * dl) / 2))
    assert.deepStrictEqual(
      hits.map((h) => h.id),
      ["b", "a"]
    )
    assert.closeTo(hits[0]?.score ?? 0, score(2, 2), 1e-12)
    assert.closeTo(hits[1]?.score ?? 0, score(1, 3), 1e-12)
    assert.deepStrictEqual(index.search("fish", 10), [])
    assert.strictEqual(index.search("cats", 1).length, 1)
  })
})
