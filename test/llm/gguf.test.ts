/**
 * The in-process model tier end to end on a tiny random-weight GGUF written at test time (CI has no weights):
 * the real node-llama-cpp CPU build loads it, one model serves the tiers that name the same file, the file's
 * chat template picks the chat wrapper, JSON answers sampled under the grammar of the task's Schema decode
 * through `ask`, the tier timeout aborts a generation and frees the model, the output guard and the context
 * size give typed failures, and a file that does not load leaves its tier to `local` with one error line.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, Exit, Fiber, HashMap, Layer, List, Logger, Schema, TestClock } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { KiokuConfig, tunablesFrom } from "../../src/Config.js"
import { ChineseScript } from "../../src/domain/ChineseScript.js"
import { answerJsonSchema, decodeAnswer } from "../../src/llm/JsonAnswer.js"
import { LlmClient, LlmError, type ChatRequest } from "../../src/llm/LlmClient.js"
import { ProvidersLive } from "../../src/llm/Providers.js"
import { TaskKit } from "../../src/llm/TaskKit.js"
import { Tokenizer } from "../../src/llm/Tokenizer.js"
import { writeTinyGguf } from "../support/tinyGguf.js"

const dir = mkdtempSync(path.join(tmpdir(), "kioku-gguf-"))
const model = path.join(dir, "tiny.gguf")
const bytes = writeTinyGguf(model)
const broken = path.join(dir, "broken.gguf")
writeTinyGguf(broken, { omitTensor: "output_norm.weight" })

interface Line {
  readonly message: string
  readonly annotations: Readonly<Record<string, unknown>>
}

const setup = (overrides: Readonly<Record<string, string | number>>) => {
  const lines: Array<Line> = []
  const logger = Logger.replace(
    Logger.defaultLogger,
    Logger.make(({ message, annotations }) => {
      const text = List.isList(message) ? List.toArray(message).join(" ") : String(message)
      lines.push({ message: text, annotations: Object.fromEntries(HashMap.toEntries(annotations)) })
    })
  )
  const config = Layer.succeed(KiokuConfig, { dataDir: dir, configDir: dir, tunables: tunablesFrom(overrides) })
  const kit = TaskKit.layer.pipe(
    Layer.provideMerge(ProvidersLive),
    Layer.provide(Layer.mergeAll(ChineseScript.layer, Tokenizer.layer)),
    Layer.provideMerge(config),
    Layer.provideMerge(logger)
  )
  return { lines, kit }
}

const Mood = Schema.Struct({
  mood: Schema.Literal("calm", "happy", "tired"),
  confident: Schema.Boolean,
  topic: Schema.NullOr(Schema.Literal("food", "travel"))
})

const schemaOf = (schema: Schema.Schema.Any, name: string) => {
  const json = answerJsonSchema(schema)
  if (json === undefined) throw new Error(`${name} has no JSON Schema`)
  return json
}
const moodSchema = schemaOf(Mood, "Mood")

const request = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  tier: "summary",
  task: "test.gguf",
  messages: [{ role: "user", content: "Say how the speaker feels: I finally slept well and had ramen." }],
  timeoutMs: 60_000,
  ...over
})

/** Six strings of at least 400 characters each: far more tokens than a short timeout lets the model write. */
const longAnswer = {
  type: "array",
  items: { type: "string", minLength: 400 },
  minItems: 6,
  maxItems: 6
} as const

describe("in-process GGUF tier", () => {
  it("writes a model of a few hundred KB", () => {
    assert.isTrue(bytes > 100_000 && bytes < 1_000_000, `${bytes} bytes`)
  })

  it.scoped("loads one model for the tiers naming the same file, with the file's chat template", () => {
    const { lines, kit } = setup({ llm_summary_gguf: model, llm_correction_gguf: model })
    return Effect.gen(function* () {
      const client = yield* LlmClient
      assert.isTrue(client.configured("summary"))
      assert.isTrue(client.configured("correction"))
      assert.isFalse(client.configured("emotion"))
      const loaded = lines.filter((l) => l.message === "gguf model loaded")
      assert.strictEqual(loaded.length, 1)
      assert.strictEqual(loaded[0]?.annotations["tiers"], "summary,correction")
      assert.strictEqual(loaded[0]?.annotations["template"], "ChatML")
      assert.strictEqual(loaded[0]?.annotations["threads"], 1)
    }).pipe(Effect.provide(kit))
  })

  it.scoped("answers a JSON task with schema-valid JSON through ask, sampled under the schema's grammar", () => {
    const { lines, kit } = setup({ llm_summary_gguf: model })
    return Effect.gen(function* () {
      const { ask } = yield* TaskKit
      const first = yield* ask("summary", "test.mood", "How does the speaker feel? I slept well.", Mood, 60_000)
      assert.include(["calm", "happy", "tired"], first.mood)
      const client = yield* LlmClient
      const raw = yield* client.complete(request({ jsonSchema: moodSchema, task: "test.raw" }))
      assert.isTrue(Either.isRight(decodeAnswer(Mood)(raw)), raw)
      const calls = lines.filter((l) => l.message === "llm call")
      assert.deepStrictEqual(
        calls.map((c) => [c.annotations["task"], c.annotations["provider"], c.annotations["grammar"]]),
        [
          ["test.mood", "gguf", true],
          ["test.raw", "gguf", true]
        ]
      )
      assert.isTrue(Number(calls[0]?.annotations["completion_tokens"]) > 0)
    }).pipe(Effect.provide(kit))
  })

  it.scoped("every task contract becomes a grammar node-llama-cpp accepts", () => {
    const { lines, kit } = setup({ llm_summary_gguf: model })
    return Effect.gen(function* () {
      const contracts = yield* Effect.promise(() => import("../../src/llm/prompts/contracts.js"))
      const client = yield* LlmClient
      for (const [name, schema] of Object.entries(contracts)) {
        const jsonSchema = schemaOf(schema, name)
        // One token is enough to build the grammar and sample under it; the cut answer is an output_limit.
        const exit = yield* Effect.exit(client.complete(request({ task: name, jsonSchema, maxCompletionTokens: 1 })))
        assert.isTrue(Exit.isFailure(exit), name)
      }
      const failed = lines.filter((l) => l.message === "llm call failed")
      assert.deepStrictEqual([...new Set(failed.map((l) => l.annotations["reason"]))], ["output_limit"])
      assert.strictEqual(failed.length, Object.keys(contracts).length)
      assert.isFalse(
        lines.some((l) => l.message === "llama.cpp" && String(l.annotations["message"]).includes("grammar"))
      )
    }).pipe(Effect.provide(kit))
  })

  it.scoped("the tier timeout aborts a generation in progress and frees the model for the next call", () => {
    const { lines, kit } = setup({ llm_summary_gguf: model, llm_summary_timeout_seconds: 5 })
    return Effect.gen(function* () {
      const client = yield* LlmClient
      const fiber = yield* Effect.fork(client.complete(request({ jsonSchema: longAnswer })))
      yield* TestClock.adjust("6 seconds")
      const aborted = performance.now()
      const exit = yield* Fiber.await(fiber)
      assert.isTrue(Exit.isFailure(exit))
      const error = Exit.isFailure(exit) ? exit.cause : undefined
      assert.include(String(error), "no answer within 5s")
      const next = yield* client.complete(request({ jsonSchema: moodSchema }))
      assert.isTrue(Either.isRight(decodeAnswer(Mood)(next)))
      // Written out, the six strings run to the 4096-token guard (about 10 s here); aborted, the model is free at once.
      assert.isBelow(performance.now() - aborted, 4000)
      assert.isFalse(lines.some((l) => l.message.startsWith("gguf grammar not built")))
    }).pipe(Effect.provide(kit))
  })

  it.scoped("an answer cut by the output limit, and a prompt larger than the context, are typed failures", () => {
    const { lines, kit } = setup({ llm_summary_gguf: model, llm_gguf_context_tokens: 256 })
    return Effect.gen(function* () {
      const client = yield* LlmClient
      const cut = yield* Effect.flip(client.complete(request({ jsonSchema: longAnswer, maxCompletionTokens: 8 })))
      assert.strictEqual(cut.reason, "output_limit")
      assert.isFalse(lines.some((l) => l.message.startsWith("gguf grammar not built")))
      const long = "a story that goes on and on ".repeat(40)
      const tooLong = yield* Effect.flip(client.complete(request({ messages: [{ role: "user", content: long }] })))
      assert.instanceOf(tooLong, LlmError)
      assert.strictEqual(tooLong.reason, "prompt_too_long")
      assert.isFalse(tooLong.retryable)
    }).pipe(Effect.provide(kit))
  })

  it.scoped("a file that fails to load turns its tier back to local with one clear error line", () => {
    const missing = path.join(dir, "absent.gguf")
    const { lines, kit } = setup({ llm_summary_gguf: broken, llm_emotion_gguf: missing, llm_correction_gguf: model })
    return Effect.gen(function* () {
      const client = yield* LlmClient
      assert.isFalse(client.configured("summary"))
      assert.isFalse(client.configured("emotion"))
      assert.isTrue(client.configured("correction"))
      const errors = lines.filter(
        (l) => l.message === "gguf model not loaded; its tiers are served by the local provider"
      )
      assert.deepStrictEqual(
        errors.map((l) => [l.annotations["tiers"], l.annotations["file"]]),
        [
          ["summary", broken],
          ["emotion", missing]
        ]
      )
      assert.isTrue(errors.every((l) => String(l.annotations["error"]).length > 0))
      const refused = yield* Effect.flip(client.complete(request()))
      assert.strictEqual(refused.reason, "not_configured")
    }).pipe(Effect.provide(kit))
  })
})
