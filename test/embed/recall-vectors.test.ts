import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { mkdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { Embedder } from "../../src/embed/Embedder.js"
import * as OnnxEmbedder from "../../src/embed/OnnxEmbedder.js"
import { textHash } from "../../src/memory/facts/Fact.js"
import { boot, testSettings } from "../support/layers.js"
import { embedderOptions, sharedDefaultModel } from "./fixtures.js"

const fact = (id: string, text: string) => ({
  id,
  text,
  importance: 6,
  entity: "master",
  source: "user_observation",
  hash: textHash(text),
  created_at: "2026-11-30T10:00:00.000000"
})

describe("recall with the default embedding model", () => {
  it.scoped(
    "finds a paraphrase BM25 cannot: the cosine list over backfilled vectors joins the fusion",
    () =>
      Effect.gen(function* () {
        const modelDir = yield* sharedDefaultModel
        const settings = testSettings({ vectors_enabled: true })
        const dir = path.join(settings.dataDir, "Vec")
        mkdirSync(dir, { recursive: true })
        writeFileSync(
          path.join(dir, "facts.json"),
          JSON.stringify([fact("fact_cat", "I adopted a cat"), fact("fact_market", "The stock market fell")])
        )
        const service = yield* OnnxEmbedder.make(embedderOptions(Option.some(modelDir)))
        assert.isTrue(Option.isSome(yield* service.ready))
        const memory = yield* boot(settings, { embedder: Layer.succeed(Embedder, service) })
        const before = yield* memory.queryMemory("Vec", { query: "my new kitten" })
        assert.deepStrictEqual(before.results, [], "no shared words: BM25 alone finds nothing")
        yield* memory.maintainNow("Vec")
        const after = yield* memory.queryMemory("Vec", { query: "my new kitten" })
        assert.strictEqual(after.results[0]?.id, "fact_cat")
      }),
    120_000
  )
})
