import { assert, describe, it } from "@effect/vitest"
import { isFirstPerson, scoreLanguage, type RowOwner } from "../../src/eval/MemoryScore.js"
import type { MemorySet, Question } from "../../src/eval/MemorySet.js"

const set: MemorySet = {
  language: "en",
  character: "Tian",
  acknowledgements: ["I see."],
  statements: [
    { id: "en-s01", topic: "pets", text: "I adopted a cat named Mochi last week.", keys: [["Mochi"], ["cat"]] },
    { id: "en-s02", topic: "home", text: "I live in Kyoto now.", keys: [["Kyoto"]] },
    { id: "en-s03", topic: "health", text: "I'm allergic to peanuts.", keys: [["peanut"]] }
  ],
  fillers: [
    { id: "en-f01", kind: "greeting", text: "Hi Tian!" },
    { id: "en-f02", kind: "remark", text: "It's so hot today." }
  ],
  questions: []
}
const pet: Question = { id: "en-q01", text: "What pet do I have?", expected: ["Mochi"], about: ["en-s01"] }
const home: Question = { id: "en-q02", text: "Where do I live?", expected: ["Kyoto"], about: ["en-s02"] }
const food: Question = { id: "en-q03", text: "What can't I eat?", expected: ["peanut"], about: ["en-s03"] }

const owners = new Map<number, RowOwner>([
  [1, { kind: "filler", id: "en-f01" }],
  [2, { kind: "ack", id: "en-f01" }],
  [3, { kind: "statement", id: "en-s01" }],
  [4, { kind: "ack", id: "en-s01" }],
  [5, { kind: "statement", id: "en-s02" }],
  [6, { kind: "ack", id: "en-s02" }],
  [7, { kind: "filler", id: "en-f02" }],
  [8, { kind: "ack", id: "en-f02" }],
  [9, { kind: "statement", id: "en-s03" }],
  [10, { kind: "ack", id: "en-s03" }]
])

describe("memory eval scoring", () => {
  it("credits a statement only when its facts keep every key group, and counts filler, reply and stray facts", () => {
    const score = scoreLanguage({
      set,
      owners,
      facts: [
        { id: "a", text: "Master has a cat", source_row_ids: [3] },
        { id: "b", text: "Master's cat is Mochi", source_row_ids: [3, 4] },
        { id: "c", text: "Master lives in Osaka", source_row_ids: [5] },
        { id: "d", text: "Master said: Hi Tian", source_row_ids: [1] },
        { id: "e", text: "Master is allergic to peanuts", source_row_ids: [] },
        { id: "f", text: "Tian sees", source_row_ids: [2, 4] },
        { id: "g", text: "It is hot today", source_row_ids: [7, 9] },
        { id: "h", text: "I am Master", source_row_ids: null }
      ],
      answers: [
        {
          question: pet,
          rows: [
            { tier: "turn", text: "I adopted a cat named Mochi last week." },
            { tier: "fact", text: "Master has a cat" }
          ]
        },
        { question: home, rows: [{ tier: "fact", text: "Master lives in Osaka" }] },
        {
          question: food,
          rows: [
            ...Array.from({ length: 8 }, () => ({ tier: "fact", text: "noise" })),
            { tier: "fact", text: "peanut" }
          ]
        }
      ]
    })
    assert.strictEqual(score.statements, 3)
    assert.strictEqual(score.recalled, 2)
    assert.deepStrictEqual(score.misses.statements, ["en-s02"])
    assert.strictEqual(score.withFacts, 3)
    assert.strictEqual(score.fillerFacts, 2)
    assert.deepStrictEqual(score.misses.fillers, ["en-f01", "en-f02"])
    assert.strictEqual(score.ackFacts, 1)
    assert.strictEqual(score.unattributedFacts, 1)
    assert.strictEqual(score.facts, 8)
    assert.strictEqual(score.firstPersonFacts, 1)
    assert.strictEqual(score.hits, 1)
    assert.strictEqual(score.memoryHits, 0)
    assert.deepStrictEqual(score.misses.questions, ["en-q02", "en-q03"])
  })

  it("finds first-person words per language", () => {
    assert.isTrue(isFirstPerson("en", "Master said: I'm back"))
    assert.isTrue(isFirstPerson("en", "Master does not want to talk about my ex"))
    assert.isTrue(isFirstPerson("en", "Master and Tian are friends, and Kenta visits us"))
    assert.isFalse(isFirstPerson("en", "Master's mother moved to the US"))
    assert.isFalse(isFirstPerson("en", "Master mined gold in Miami with Imogen"))
    assert.isTrue(isFirstPerson("ja", "私は辛い物が苦手"))
    assert.isFalse(isFirstPerson("ja", "Masterは辛い物が苦手"))
    assert.isTrue(isFirstPerson("zh", "我對貓毛過敏"))
    assert.isFalse(isFirstPerson("zh", "Master对猫毛过敏"))
  })
})
