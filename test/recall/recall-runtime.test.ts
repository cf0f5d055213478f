import { assert, describe, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { writeFileSync } from "node:fs"
import * as path from "node:path"
import { boot, setPowerful, testSettings } from "../support/layers.js"

describe("recall in the runtime (local provider)", () => {
  it.scoped(
    "finds a fact written through /cache and extracted, and follows later facts incrementally (facts only)",
    () =>
      Effect.gen(function* () {
        const settings = testSettings({ recall_turn_tier: false })
        setPowerful(settings, true)
        yield* TestClock.setTime(new Date(2026, 10, 30, 12).getTime())
        const memory = yield* boot(settings)
        const say = (text: string) =>
          memory
            .write("cache", "Rec", { messages: [{ role: "user", content: text }] })
            .pipe(Effect.zipRight(memory.awaitBackground("Rec")))
        assert.deepStrictEqual(yield* memory.queryMemory("Rec", { query: "ramen" }), {
          results: [],
          query: "ramen",
          candidates_total: 0,
          elapsed_ms: 0
        })
        yield* say("I love spicy ramen.")
        yield* say("I work at Nintendo.")
        yield* memory.maintainNow("Rec")
        const found = yield* memory.queryMemory("Rec", { query: "  spicy ramen " })
        assert.strictEqual(found.query, "spicy ramen")
        assert.strictEqual(found.results[0]?.text, "Master loves spicy ramen")
        assert.strictEqual(found.results[0]?.tier, "fact")
        assert.strictEqual(found.results[0]?.score, 0.016393)
        assert.strictEqual(found.candidates_total, 2)

        yield* say("I live in Osaka.")
        yield* memory.maintainNow("Rec")
        const osaka = yield* memory.queryMemory("Rec", { query: "Osaka" })
        assert.deepStrictEqual(
          osaka.results.map((r) => r.text),
          ["Master lives in Osaka"]
        )
        assert.strictEqual(osaka.candidates_total, 3)

        const today = yield* memory.queryMemory("Rec", { time: "2026-11-30" })
        assert.strictEqual(today.time, "2026-11-30")
        assert.strictEqual(today.results.length, 3)
        assert.include(
          yield* memory.recallText("Rec", { query: "Osaka", language: "en" }),
          "1. [fact/about the user] Master lives in Osaka  (2026-11-30, now)"
        )
      })
  )

  it.scoped("answers hybrid_recall_failed when facts.json is unreadable, and rejects invalid names", () =>
    Effect.gen(function* () {
      const settings = testSettings()
      const memory = yield* boot(settings)
      yield* memory.write("cache", "Broken", { messages: [{ role: "user", content: "hello" }] })
      writeFileSync(path.join(settings.dataDir, "Broken", "facts.json"), "{not json")
      assert.deepStrictEqual(yield* memory.queryMemory("Broken", { query: " tea " }), {
        results: [],
        query: " tea ",
        candidates_total: 0,
        elapsed_ms: 0,
        error_code: "hybrid_recall_failed"
      })
      assert.deepStrictEqual(yield* memory.queryMemory("Broken", { query: "tea", subjects: [] }), {
        results: [],
        query: "tea",
        candidates_total: 0,
        elapsed_ms: 0,
        error_code: "hybrid_recall_failed"
      })
      const invalid = yield* Effect.flip(memory.queryMemory("../x", { query: "tea" }))
      assert.strictEqual(invalid._tag, "InvalidCharacterName")
    })
  )
})
