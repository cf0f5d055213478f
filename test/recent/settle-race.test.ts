/**
 * One compression at a time per character: a `/settle` arriving while a normal compression runs is queued
 * behind it, its detailed compression runs on the history the first one left, its memo lands, and `/settle`
 * answers only once that compression is over (scripted model, TestClock).
 */
import { assert, describe, it } from "@effect/vitest"
import { type Duration, Effect, Fiber, Layer, TestClock } from "effect"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import * as ScriptedLlm from "../support/ScriptedLlm.js"
import { MemoryService } from "../../src/MemoryService.js"
import * as Startup from "../../src/Startup.js"
import { testRuntime } from "../support/layers.js"

const turns = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ role: (from + i) % 2 === 0 ? "user" : "assistant", content: `m${from + i}` }))
const summary = (text: string, delay: Duration.DurationInput) => ({ answer: JSON.stringify({ summary: text }), delay })

describe("compression queue", () => {
  it.scoped("a settle during a normal compression waits for its own detailed compression, whose memo lands", () =>
    Effect.gen(function* () {
      const scripted = yield* ScriptedLlm.make
      const rt = testRuntime({ llm: scripted.layer })
      const ctx = yield* Layer.build(rt.layer)
      yield* Effect.provide(Startup.recover, ctx)
      const memory = yield* Effect.provide(MemoryService, ctx)
      const recent = (): Array<{ type: string; data: { content: string } }> =>
        JSON.parse(readFileSync(path.join(rt.settings.dataDir, "Race", "recent.json"), "utf8"))
      yield* scripted.script.push("recent.summary", summary("normal memo.", "5 seconds"))
      yield* scripted.script.push("recent.summary", summary("detailed memo.", "10 seconds"))
      yield* memory.write("cache", "Race", { messages: turns(0, 20) })
      const processing = yield* Effect.fork(memory.write("process", "Race", { messages: turns(20, 1) }))
      yield* memory.status("Race")
      assert.isTrue((yield* memory.status("Race")).compressing)
      const settling = yield* Effect.fork(memory.write("settle", "Race", { messages: turns(21, 12) }))
      yield* memory.status("Race")
      yield* TestClock.adjust("5 seconds")
      assert.strictEqual(yield* Fiber.join(processing), 1)
      assert.strictEqual(recent()[0]?.data.content, "Memo from prior conversations: normal memo.")
      assert.isNull(settling.unsafePoll(), "/settle answered while its own compression was still running")
      const requests = (yield* scripted.script.requests).filter((r) => r.task === "recent.summary")
      assert.strictEqual(requests.length, 2)
      assert.include(requests[1]?.messages[0]?.content ?? "", "normal memo.")
      yield* TestClock.adjust("10 seconds")
      assert.strictEqual(yield* Fiber.join(settling), 12)
      const texts = recent().map((m) => m.data.content)
      assert.strictEqual(texts[0], "Memo from prior conversations: detailed memo.")
      assert.deepStrictEqual(
        texts.slice(1),
        turns(24, 9).map((m) => m.content)
      )
      assert.isFalse((yield* memory.status("Race")).compressing)
    })
  )
})
