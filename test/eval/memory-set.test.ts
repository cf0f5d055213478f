import { assert, describe, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { containsAny, holds, loadMemorySets } from "../../src/eval/MemorySet.js"
import { sessionsOf, turnsOf } from "../../src/eval/MemoryDialogue.js"

const data = path.resolve(import.meta.dirname, "../../bench/memory")

describe("the memory set (bench/memory)", () => {
  it.effect("decodes with its Schema and meets the counts in every language", () =>
    Effect.gen(function* () {
      const sets = yield* loadMemorySets(data)
      assert.deepStrictEqual(sets.map((s) => s.language).sort(), ["en", "ja", "zh"])
      for (const set of sets) {
        assert.isAtLeast(set.statements.length, 40, set.language)
        assert.isAtLeast(set.questions.length, 40, set.language)
        assert.isAtLeast(set.fillers.length, 15, set.language)
        for (const q of set.questions)
          assert.isTrue(
            q.expected.every((e) => e.trim() !== ""),
            q.id
          )
      }
      const total = (f: (s: (typeof sets)[number]) => number) => sets.reduce((n, s) => n + f(s), 0)
      assert.isAtLeast(
        total((s) => s.statements.length),
        120
      )
      assert.isAtLeast(
        total((s) => s.questions.length),
        120
      )
    })
  )

  it.effect("holds what it claims: every key group in its statement, every answer in the statements asked about", () =>
    Effect.gen(function* () {
      for (const set of yield* loadMemorySets(data)) {
        const byId = new Map(set.statements.map((s) => [s.id, s]))
        for (const s of set.statements)
          for (const group of s.keys) assert.isTrue(containsAny(s.text, group), `${s.id} lacks ${group.join("|")}`)
        for (const q of set.questions) {
          const texts = q.about.map((id) => byId.get(id)?.text ?? "")
          assert.isTrue(
            texts.some((t) => containsAny(t, q.expected)),
            `${q.id}: ${q.expected.join("|")}`
          )
          assert.isFalse(containsAny(q.text, q.expected), `${q.id} gives its answer away`)
        }
        const kinds = new Set<string>(set.fillers.map((f) => f.kind))
        for (const kind of ["greeting", "thanks", "acknowledgement", "laughter", "question", "remark"])
          assert.isTrue(kinds.has(kind), `${set.language} has no ${kind} filler`)
      }
    })
  )

  it.effect("mixes the fillers between the statements and sends every other line as text parts", () =>
    Effect.gen(function* () {
      for (const set of yield* loadMemorySets(data)) {
        const turns = turnsOf(set)
        assert.strictEqual(turns.length, set.statements.length + set.fillers.length)
        assert.deepStrictEqual(
          turns.filter((t) => t.kind === "statement").map((t) => t.id),
          set.statements.map((s) => s.id)
        )
        assert.strictEqual(turns[0]?.kind, "statement")
        assert.strictEqual(turns.at(-1)?.kind, "statement")
        const longestRun = turns.reduce(
          (acc, t) => {
            const run = t.kind === "statement" ? acc.run + 1 : 0
            return { run, max: Math.max(acc.max, run) }
          },
          { run: 0, max: 0 }
        ).max
        assert.isAtMost(longestRun, 3, set.language)
        assert.deepStrictEqual(
          turns.slice(0, 4).map((t) => t.parts),
          [false, true, false, true]
        )
        const sessions = sessionsOf(turns, 10)
        assert.strictEqual(sessions.length, Math.ceil(turns.length / 10))
        assert.deepStrictEqual(sessions.flat(), turns)
      }
    })
  )

  it("matches Latin words whole (with plural and possessive endings) and CJK text as substrings", () => {
    assert.isTrue(holds("Master's dad fixes old radios", "radio"))
    assert.isFalse(holds("Master grows tomatoes", "Tom"))
    assert.isTrue(holds("Tom lends Master a ladder", "tom"))
    assert.isFalse(holds("Master's wife teaches chemistry", "tea"))
    assert.isTrue(holds("Master doesn’t like cilantro", "doesn't"))
    assert.isTrue(holds("Masterは28歳", "28"))
    assert.isFalse(holds("born in 1934", "34"))
    assert.isTrue(holds("Master對芒果過敏", "過敏"))
    assert.isTrue(holds("Ｍａｓｔｅｒ　は　Ａ型", "A型"))
  })

  it.effect("rejects a set with a question about an unknown statement, naming the file", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(path.join(tmpdir(), "kioku-memory-set-"))
      const set = {
        language: "en",
        character: "Tian",
        acknowledgements: ["I see."],
        statements: [{ id: "en-s01", topic: "pets", text: "I have a cat named Mochi.", keys: [["Mochi"]] }],
        fillers: [],
        questions: [{ id: "en-q01", text: "What pet do I have?", expected: ["Mochi"], about: ["en-s09"] }]
      }
      writeFileSync(path.join(dir, "en.json"), JSON.stringify(set))
      const result = yield* Effect.either(loadMemorySets(dir))
      assert.isTrue(Either.isLeft(result))
      if (Either.isLeft(result)) assert.match(result.left.message, /en\.json: en-q01 is about unknown en-s09/)
      writeFileSync(
        path.join(dir, "en.json"),
        JSON.stringify({ ...set, statements: [], questions: [{ ...set.questions[0], expected: [] }] })
      )
      const empty = yield* Effect.either(loadMemorySets(dir))
      assert.isTrue(Either.isLeft(empty))
    })
  )
})
