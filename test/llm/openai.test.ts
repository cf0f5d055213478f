import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Either, Fiber, Layer, Schema, TestClock } from "effect"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { KiokuConfig, tunablesFrom } from "../../src/Config.js"
import { decodeAnswer, extractJson } from "../../src/llm/JsonAnswer.js"
import { LlmClient, type ChatRequest } from "../../src/llm/LlmClient.js"
import { ChineseScript } from "../../src/domain/ChineseScript.js"
import { memoryTasks } from "../../src/character/MemoryTasks.js"
import { RecentTasks } from "../../src/recent/RecentTasks.js"
import { OpenAiLlm } from "../../src/llm/OpenAiLlm.js"
import { Tokenizer } from "../../src/llm/Tokenizer.js"

type Reply = (req: IncomingMessage, res: ServerResponse, body: string) => void

const completion = (content: string) =>
  JSON.stringify({ choices: [{ message: { content } }], usage: { prompt_tokens: 12, completion_tokens: 5 } })

/** A local chat-completions server answering with the given replies in order; records the bodies. */
const chatServer = (replies: ReadonlyArray<Reply>) =>
  Effect.acquireRelease(
    Effect.async<{ url: string; bodies: Array<string>; arrived: Deferred.Deferred<void>; close: () => void }>(
      (resume) => {
        const bodies: Array<string> = []
        const arrived = Deferred.unsafeMake<void>(Effect.runSync(Effect.fiberId))
        let n = 0
        const server = createServer((req, res) => {
          let body = ""
          req.on("data", (c: Buffer) => (body += c.toString()))
          req.on("end", () => {
            bodies.push(body)
            Deferred.unsafeDone(arrived, Effect.void)
            const reply = replies[Math.min(n++, replies.length - 1)]
            reply?.(req, res, body)
          })
        })
        server.listen(0, "127.0.0.1", () => {
          const address = server.address()
          const port = typeof address === "object" && address !== null ? address.port : 0
          const close = () => {
            server.closeAllConnections()
            server.close()
          }
          resume(Effect.succeed({ url: `http://127.0.0.1:${port}/v1`, bodies, arrived, close }))
        })
      }
    ),
    (s) => Effect.sync(s.close)
  )

const ok =
  (content: string): Reply =>
  (_req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(completion(content))
const status =
  (code: number): Reply =>
  (_req, res) =>
    res.writeHead(code).end("{}")
const silent: Reply = () => {}

const clientFor = (baseUrl: string) =>
  Effect.provide(
    LlmClient,
    OpenAiLlm.pipe(
      Layer.provide(
        Layer.succeed(KiokuConfig, {
          dataDir: "/nonexistent",
          configDir: "/nonexistent",
          tunables: tunablesFrom({
            llm_summary_base_url: baseUrl,
            llm_summary_model: "test-model",
            llm_summary_api_key: "k"
          })
        })
      )
    )
  )

const request: ChatRequest = {
  tier: "summary",
  task: "recent.summary",
  messages: [{ role: "user", content: "hi" }],
  timeoutMs: 30_000
}

describe("OpenAI-compatible adapter", () => {
  it.scoped("sends model, messages and the token guard, never a temperature", () =>
    Effect.gen(function* () {
      const server = yield* chatServer([ok('{"summary": "fine"}')])
      const llm = yield* clientFor(server.url)
      assert.strictEqual(yield* llm.complete(request), '{"summary": "fine"}')
      const sent = JSON.parse(server.bodies[0] ?? "{}")
      assert.deepStrictEqual(sent, {
        model: "test-model",
        messages: [{ role: "user", content: "hi" }],
        max_completion_tokens: 4096
      })
      assert.isFalse(llm.configured("correction"))
    })
  )

  it.scoped("retries a 429 after the backoff and then succeeds", () =>
    Effect.gen(function* () {
      const server = yield* chatServer([status(429), ok("second")])
      const llm = yield* clientFor(server.url)
      const call = yield* Effect.fork(llm.complete(request))
      yield* Deferred.await(server.arrived)
      yield* Effect.repeatN(Effect.yieldNow(), 20)
      assert.strictEqual(server.bodies.length, 1)
      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* Fiber.join(call), "second")
      assert.strictEqual(server.bodies.length, 2)
    })
  )

  it.scoped("gives up on 5xx after three tries with a typed error", () =>
    Effect.gen(function* () {
      const server = yield* chatServer([status(503)])
      const llm = yield* clientFor(server.url)
      const call = yield* Effect.fork(Effect.either(llm.complete(request)))
      yield* Deferred.await(server.arrived)
      yield* TestClock.adjust("1 second")
      yield* TestClock.adjust("2 seconds")
      const result = yield* Fiber.join(call)
      assert.isTrue(Either.isLeft(result) && result.left.reason === "http" && result.left.status === 503)
    })
  )

  it.scoped("times out a silent server", () =>
    Effect.gen(function* () {
      const server = yield* chatServer([silent])
      const llm = yield* clientFor(server.url)
      const call = yield* Effect.fork(Effect.either(llm.complete({ ...request, timeoutMs: 5_000 })))
      yield* Deferred.await(server.arrived)
      yield* TestClock.adjust("5 seconds")
      const result = yield* Fiber.join(call)
      assert.isTrue(Either.isLeft(result) && result.left.reason === "timeout")
    })
  )

  it.live("reports a refused connection as a network error", () =>
    Effect.gen(function* () {
      const llm = yield* clientFor("http://127.0.0.1:9")
      const result = yield* Effect.either(llm.complete(request).pipe(Effect.retry({ times: 0 })))
      assert.isTrue(Either.isLeft(result) && result.left.reason === "network")
    }).pipe(Effect.timeout("20 seconds"))
  )

  it.scoped("reports an answer cut at the output limit", () =>
    Effect.gen(function* () {
      const server = yield* chatServer([
        (_req, res) =>
          res
            .writeHead(200, { "content-type": "application/json" })
            .end(JSON.stringify({ choices: [{ message: { content: '{"summ' }, finish_reason: "length" }] }))
      ])
      const llm = yield* clientFor(server.url)
      const result = yield* Effect.either(llm.complete(request))
      assert.isTrue(Either.isLeft(result) && result.left.reason === "output_limit")
    })
  )

  it.scoped("answers not_configured for a tier without a model", () =>
    Effect.gen(function* () {
      const llm = yield* clientFor("http://127.0.0.1:9")
      const result = yield* Effect.either(llm.complete({ ...request, tier: "emotion" }))
      assert.isTrue(Either.isLeft(result) && result.left.reason === "not_configured")
    })
  )
})

describe("memory tasks over the adapter", () => {
  const tasksFor = (baseUrl: string) =>
    Effect.provide(
      RecentTasks,
      memoryTasks.pipe(
        Layer.provide(OpenAiLlm),
        Layer.provide(Tokenizer.Heuristic),
        Layer.provide(ChineseScript.layer),
        Layer.provide(
          Layer.succeed(KiokuConfig, {
            dataDir: "/nonexistent",
            configDir: "/nonexistent",
            tunables: tunablesFrom({ llm_summary_base_url: baseUrl, llm_summary_model: "m" })
          })
        )
      )
    )
  const input = {
    text: "Alex | I moved to Osaka",
    detailed: false,
    language: "en" as const,
    staleHint: false,
    names: { master: "Alex", character: "Tian" }
  }

  it.scoped("decodes a fenced answer with a trailing comma", () =>
    Effect.gen(function* () {
      const server = yield* chatServer([ok('Here it is:\n```json\n{"summary": "Alex moved to Osaka.",}\n```')])
      const tasks = yield* tasksFor(server.url)
      assert.strictEqual(yield* tasks.summarize(input), "Alex moved to Osaka.")
      const prompt = String(JSON.parse(server.bodies[0] ?? "{}").messages[0].content)
      assert.include(prompt, "Alex | I moved to Osaka")
      assert.notInclude(prompt, "{MASTER_NAME}")
    })
  )

  it.scoped("fails a malformed answer with a typed bad_answer", () =>
    Effect.gen(function* () {
      const server = yield* chatServer([ok('{"summary": "unterminated')])
      const tasks = yield* tasksFor(server.url)
      const result = yield* Effect.either(tasks.summarize(input))
      assert.isTrue(Either.isLeft(result) && result.left.reason === "bad_answer")
    })
  )

  it.effect("answers with the local provider when the tier has no model", () =>
    Effect.gen(function* () {
      const tasks = yield* tasksFor("")
      assert.strictEqual(yield* tasks.summarize(input), "Alex moved to Osaka.")
    })
  )
})

describe("tolerant JSON answers", () => {
  const Summary = Schema.Struct({ summary: Schema.String })
  it("reads fenced JSON with prose and trailing commas", () => {
    assert.strictEqual(extractJson('Sure! ```json\n{"summary": "x",}\n``` hope it helps'), '{"summary": "x"}')
    assert.deepStrictEqual(
      decodeAnswer(Summary)('Here you go: {"summary": "cats", }'),
      Either.right({ summary: "cats" })
    )
    assert.deepStrictEqual(decodeAnswer(Schema.Array(Schema.Number))("[1, 2, 3,]"), Either.right([1, 2, 3]))
  })
  it("fails on malformed or mistyped answers", () => {
    assert.isTrue(Either.isLeft(decodeAnswer(Summary)('{"summary": ')))
    assert.isTrue(Either.isLeft(decodeAnswer(Summary)('{"summary": 5}')))
    assert.isTrue(Either.isLeft(decodeAnswer(Summary)("I cannot do that")))
  })
})
