import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { Effect, Layer, Option, TestClock } from "effect"
import { mkdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { Embedder } from "../../src/vectors/Embedder.js"
import * as OnnxEmbedder from "../../src/vectors/OnnxEmbedder.js"
import { textHash } from "../../src/facts/Fact.js"
import { embedderOptions, tinyModel } from "../vectors/fixtures.js"
import { boot, testSettings } from "../support/layers.js"

const fact = (id: string, text: string) => ({
  id,
  text,
  hash: textHash(text),
  created_at: "2026-11-30T10:00:00.000000"
})

describe("vector backfill with a backlog", () => {
  it.scoped("runs again after embedding_active_poll_seconds while entries still lack a vector", () =>
    Effect.gen(function* () {
      const service = yield* OnnxEmbedder.make(embedderOptions(Option.some(tinyModel())))
      yield* service.embed(["warm up"])
      const settings = testSettings({
        vectors_enabled: true,
        embedding_max_entries_per_tick: 2,
        embedding_active_poll_seconds: 5,
        embedding_poll_seconds: 86_400,
        actor_idle_ttl_seconds: 86_400
      })
      const dir = path.join(settings.dataDir, "Poll")
      mkdirSync(dir, { recursive: true })
      // Five unrelated facts (no reflection forms from them): three ticks of at most two.
      const texts = ["I have a cat", "I drink tea", "kitten", "green tea", "a dog"]
      writeFileSync(path.join(dir, "facts.json"), JSON.stringify(texts.map((t, i) => fact(`f${i}`, t))))
      const memory = yield* boot(settings, { embedder: Layer.succeed(Embedder, service), maintenance: true })
      const stored = () => {
        const db = new Database(path.join(dir, "vectors.db"), { readonly: true })
        const n = Number(db.prepare("SELECT count(*) FROM vectors").pluck().get())
        db.close()
        return n
      }
      // The backfill loop's first pass (30 s after start) embeds one tick's worth.
      yield* TestClock.adjust("30 seconds")
      yield* memory.awaitBackground("Poll")
      assert.strictEqual(stored(), 2)
      yield* TestClock.adjust("4 seconds")
      yield* memory.awaitBackground("Poll")
      assert.strictEqual(stored(), 2)
      yield* TestClock.adjust("1 second")
      yield* memory.awaitBackground("Poll")
      assert.strictEqual(stored(), 4)
      yield* TestClock.adjust("5 seconds")
      yield* memory.awaitBackground("Poll")
      assert.strictEqual(stored(), 5)
      yield* TestClock.adjust("1 minute")
      yield* memory.awaitBackground("Poll")
      assert.strictEqual(stored(), 5)
    })
  )
})
