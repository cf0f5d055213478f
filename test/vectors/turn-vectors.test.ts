import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { Effect, Either, Layer, Option } from "effect"
import * as path from "node:path"
import * as State from "../../src/character/CharacterState.js"
import { backfillTurns } from "../../src/vectors/TurnVectors.js"
import { validateCharacterName } from "../../src/domain/CharacterName.js"
import { Embedder } from "../../src/vectors/Embedder.js"
import * as OnnxEmbedder from "../../src/vectors/OnnxEmbedder.js"
import { boot, testSettings } from "../support/layers.js"
import { embedderOptions, tinyModel } from "./fixtures.js"

const rowsOf = (dir: string) => {
  const db = new Database(path.join(dir, "turn_vectors.db"), { readonly: true })
  try {
    return db.prepare("SELECT row_id, dim FROM turn_vectors ORDER BY row_id").all()
  } finally {
    db.close()
  }
}

/** The tiny real model, counting the texts it embeds and serving only texts without kana or Han. */
const counting = Effect.gen(function* () {
  const service = yield* OnnxEmbedder.make(embedderOptions(Option.some(tinyModel())))
  yield* service.ready
  const embedded: Array<string> = []
  const layer = Layer.succeed(Embedder, {
    modelId: service.modelId,
    ready: service.ready,
    serves: Effect.succeed((text: string) => !/[\u3040-\u30ff\u4e00-\u9fff]/.test(text)),
    embed: (texts: ReadonlyArray<string>) =>
      Effect.zipRight(
        Effect.sync(() => embedded.push(...texts)),
        service.embed(texts)
      )
  })
  return { layer, embedded }
})

describe("turn vector backfill", () => {
  it.scoped("embeds every served turn once, marks the others, and re-embeds nothing after a restart", () =>
    Effect.gen(function* () {
      const settings = testSettings({ vectors_enabled: true })
      const { layer, embedded } = yield* counting
      const say = [
        { role: "user", content: "my cat" },
        { role: "assistant", content: [{ type: "text", text: "a kitten" }] },
        { role: "user", content: "猫が好き" },
        { role: "user", content: [{ type: "image_url", image_url: { url: "data:," } }] },
        { role: "assistant", content: "stock market tea" }
      ]
      yield* Effect.scoped(
        Effect.gen(function* () {
          const memory = yield* boot(settings, { embedder: layer })
          yield* memory.write("cache", "Tv", { messages: say })
          yield* memory.maintainNow("Tv")
          const found = yield* memory.queryMemory("Tv", { query: "kitten" })
          assert.strictEqual(found.results.find((r) => r.tier === "turn")?.text, "a kitten")
        })
      )
      const dir = path.join(settings.dataDir, "Tv")
      assert.deepStrictEqual(rowsOf(dir), [
        { row_id: 1, dim: 4 },
        { row_id: 2, dim: 4 },
        { row_id: 3, dim: 0 },
        { row_id: 4, dim: 0 },
        { row_id: 5, dim: 4 }
      ])
      const turns = ["my cat", "a kitten", "猫が好き", "stock market tea"]
      assert.deepStrictEqual(
        embedded.filter((t) => turns.includes(t)),
        ["my cat", "a kitten", "stock market tea"]
      )
      assert.isFalse(
        embedded.some((t) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(t)),
        "not served: not embedded"
      )
      embedded.length = 0
      yield* Effect.scoped(
        Effect.gen(function* () {
          const memory = yield* boot(settings, { embedder: layer })
          yield* memory.write("cache", "Tv", { messages: [{ role: "user", content: "more tea" }] })
          yield* memory.maintainNow("Tv")
        })
      )
      assert.deepStrictEqual(
        embedded.filter((t) => t !== "warm up" && !t.startsWith("Master")),
        ["more tea"]
      )
      assert.strictEqual(rowsOf(dir).length, 6)
    })
  )

  it.scoped("embeds at most `limit` turns per call and resumes where it stopped", () =>
    Effect.gen(function* () {
      const settings = testSettings({ vectors_enabled: false })
      yield* Effect.scoped(
        Effect.gen(function* () {
          const memory = yield* boot(settings)
          const messages = ["cat", "kitten", "tea", "stock", "market"].map((content) => ({ role: "user", content }))
          yield* memory.write("cache", "Lim", { messages })
        })
      )
      const { layer } = yield* counting
      const name = Either.getOrThrow(validateCharacterName("Lim"))
      const state = yield* Effect.acquireRelease(State.load(name, settings.dataDir, settings.tunables), State.release)
      const run = (limit: number) => backfillTurns(state, limit).pipe(Effect.provide(layer))
      assert.deepStrictEqual(yield* run(2), { ready: true, embedded: 2, more: true })
      assert.deepStrictEqual(yield* run(2), { ready: true, embedded: 2, more: true })
      assert.deepStrictEqual(yield* run(2), { ready: true, embedded: 1, more: false })
      assert.deepStrictEqual(yield* run(2), { ready: true, embedded: 0, more: false })
      assert.strictEqual(state.turnVectors?.index.size(), 5)
      assert.deepStrictEqual(yield* backfillTurns(state, 2).pipe(Effect.provide(Embedder.Disabled)), {
        ready: false,
        embedded: 0,
        more: false
      })
    })
  )
})
