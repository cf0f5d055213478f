import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { writeFileSync } from "node:fs"
import * as path from "node:path"
import { Embedder } from "../../src/vectors/Embedder.js"
import * as OnnxEmbedder from "../../src/vectors/OnnxEmbedder.js"
import { tunablesFrom } from "../../src/Config.js"
import { embedderOptions, tinyModel } from "./fixtures.js"

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0)

describe("OnnxEmbedder over a user-supplied model directory", () => {
  it.scoped("loads lazily, names the model and embeds with masked mean pooling", () =>
    Effect.gen(function* () {
      const embedder = yield* OnnxEmbedder.make(embedderOptions(Option.some(tinyModel())))
      assert.strictEqual(yield* embedder.status, "idle")
      assert.deepStrictEqual(yield* embedder.ready, Option.some("tiny-4d-fp32"))
      assert.strictEqual(yield* embedder.status, "ready")
      assert.deepStrictEqual(yield* embedder.modelId, Option.some("tiny-4d-fp32"))
      const [cat, catPadded, unknown, empty] = yield* embedder.embed(["Cat", "cat ... zebra?", "zebra", ""])
      assert.deepStrictEqual([...(cat ?? [])], [1, 0, 0, 0])
      assert.deepStrictEqual([...(catPadded ?? [])], [1, 0, 0, 0])
      assert.deepStrictEqual([...(unknown ?? [])], [0, 0, 0, 0])
      assert.isUndefined(empty, "a blank text is not embedded")
      const [tea, both] = yield* embedder.embed(["tea", "cat tea"])
      assert.approximately(dot(tea ?? new Float32Array(), both ?? new Float32Array()), Math.SQRT1_2, 1e-6)
      assert.deepStrictEqual(yield* embedder.embed([]), [])
    })
  )

  it.scoped("embeds only texts in the languages its profile names; any language when it names none", () =>
    Effect.gen(function* () {
      const english = { id: "tiny-en", dim: 4, pooling: "mean", normalize: true, languages: ["en"] }
      const embedder = yield* OnnxEmbedder.make(embedderOptions(Option.some(tinyModel({ profile: english }))))
      assert.isFalse((yield* embedder.serves)("cat"), "nothing is served before the model is loaded")
      yield* embedder.ready
      const serves = yield* embedder.serves
      assert.deepStrictEqual(["cat", "猫 cat", "ねこ cat", "고양이 cat", "кошка cat", ""].map(serves), [
        true,
        false,
        false,
        false,
        false,
        false
      ])
      const [cat, chinese, russian, tea] = yield* embedder.embed(["cat", "猫 cat", "кошка cat", "tea"])
      assert.deepStrictEqual([...(cat ?? [])], [1, 0, 0, 0])
      assert.isUndefined(chinese)
      assert.isUndefined(russian)
      assert.deepStrictEqual([...(tea ?? [])], [0, 1, 0, 0])
      const any = yield* OnnxEmbedder.make(embedderOptions(Option.some(tinyModel())))
      yield* any.ready
      const [mixed] = yield* any.embed(["猫 cat"])
      assert.deepStrictEqual([...(mixed ?? [])], [1, 0, 0, 0])
    })
  )

  it.scoped("truncates a Matryoshka model to the requested dimension", () =>
    Effect.gen(function* () {
      const dir = tinyModel({ profile: { id: "tiny-m", dim: 4, pooling: "mean", normalize: true, matryoshka: 2 } })
      const embedder = yield* OnnxEmbedder.make({ ...embedderOptions(Option.some(dir)), requestedDim: "auto" })
      assert.deepStrictEqual(yield* embedder.ready, Option.some("tiny-m-2d-fp32"))
      const [market] = yield* embedder.embed(["market"])
      assert.strictEqual(market?.length, 2)
      assert.deepStrictEqual([...(market ?? [])], [0, 0])
      const [kitten] = yield* embedder.embed(["kitten"])
      assert.approximately(dot(kitten ?? new Float32Array(), kitten ?? new Float32Array()), 1, 1e-6)
      const wide = yield* OnnxEmbedder.make({ ...embedderOptions(Option.some(dir)), requestedDim: "3" })
      assert.deepStrictEqual(yield* wide.ready, Option.some("tiny-m-3d-fp32"))
    })
  )

  it.scoped("a broken model file disables vectors for good", () =>
    Effect.gen(function* () {
      const dir = tinyModel({ onnx: "this is not an onnx model" })
      const embedder = yield* OnnxEmbedder.make(embedderOptions(Option.some(dir)))
      assert.deepStrictEqual(yield* embedder.ready, Option.none())
      assert.strictEqual(yield* embedder.status, "disabled")
      const failed = yield* Effect.flip(embedder.embed(["cat"]))
      assert.include(failed.message, "vectors disabled")
      assert.deepStrictEqual(yield* embedder.modelId, Option.none())
    })
  )

  it.scoped("an inference error after loading disables vectors stickily", () =>
    Effect.gen(function* () {
      const embedder = yield* OnnxEmbedder.make(embedderOptions(Option.some(tinyModel({ extraWords: ["boom"] }))))
      assert.deepStrictEqual(yield* embedder.ready, Option.some("tiny-4d-fp32"))
      const failed = yield* Effect.flip(embedder.embed(["cat", "boom"]))
      assert.include(failed.message, "inference failed")
      assert.strictEqual(yield* embedder.status, "disabled")
      assert.deepStrictEqual(yield* embedder.modelId, Option.none())
      const again = yield* Effect.flip(embedder.embed(["cat"]))
      assert.include(again.message, "vectors disabled")
    })
  )

  it.scoped("a model directory with a bad profile or mismatched output disables vectors", () =>
    Effect.gen(function* () {
      const bad = tinyModel()
      writeFileSync(path.join(bad, "profile.json"), '{"id":"x","dim":4,"pooling":"max","normalize":true}')
      const e1 = yield* OnnxEmbedder.make(embedderOptions(Option.some(bad)))
      assert.deepStrictEqual(yield* e1.ready, Option.none())
      const wrongDim = tinyModel({ profile: { id: "w", dim: 8, pooling: "mean", normalize: true } })
      const e2 = yield* OnnxEmbedder.make(embedderOptions(Option.some(wrongDim)))
      assert.deepStrictEqual(yield* e2.ready, Option.none())
    })
  )

  it("uses Embedder.Disabled when vectors are off", () => {
    const settings = { dataDir: "/tmp/x/memory", configDir: "/tmp/x/config" }
    assert.strictEqual(
      OnnxEmbedder.fromSettings({ ...settings, tunables: tunablesFrom({ vectors_enabled: false }) }),
      Embedder.Disabled
    )
    assert.strictEqual(
      OnnxEmbedder.fromSettings({ ...settings, tunables: tunablesFrom({ vectors_min_ram_gb: 1e9 }) }),
      Embedder.Disabled
    )
    assert.strictEqual(OnnxEmbedder.fromSettings({ ...settings, tunables: tunablesFrom({}) }), OnnxEmbedder.layer)
  })

  it.effect("the Disabled layer has no model and refuses to embed", () =>
    Effect.gen(function* () {
      const embedder = yield* Embedder
      assert.deepStrictEqual(yield* embedder.modelId, Option.none())
      assert.strictEqual((yield* Effect.flip(embedder.embed(["x"]))).message, "vectors disabled")
      assert.isFalse((yield* embedder.serves)("x"))
    }).pipe(Effect.provide(Embedder.Disabled))
  )
})
