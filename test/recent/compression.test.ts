import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Layer, TestClock } from "effect"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import * as ScriptedLlm from "../support/ScriptedLlm.js"
import { MemoryService } from "../../src/MemoryService.js"
import * as Startup from "../../src/Startup.js"
import { testRuntime } from "../support/layers.js"

const one = (i: number, text = `message ${i}`) => [{ role: i % 2 === 0 ? "user" : "assistant", content: text }]
const summary = (text: string) => ({ answer: JSON.stringify({ summary: text }) })
const summaries = (script: ScriptedLlm.Script) =>
  Effect.map(script.requests, (all) => all.filter((r) => r.task === "recent.summary"))

const setup = (tunables = {}) =>
  Effect.gen(function* () {
    const scripted = yield* ScriptedLlm.make
    const rt = testRuntime({ llm: scripted.layer, tunables })
    const ctx = yield* Layer.build(rt.layer)
    yield* Effect.provide(Startup.recover, ctx)
    const memory = yield* Effect.provide(MemoryService, ctx)
    /** recent.json on disk, once the actor has written what it holds for the next checkpoint (the browser read). */
    const recent = (name: string) =>
      memory.recentFile(name).pipe(
        Effect.orDie,
        Effect.map(
          (): Array<{ type: string; data: { content: string } }> =>
            JSON.parse(readFileSync(path.join(rt.settings.dataDir, name, "recent.json"), "utf8"))
        )
      )
    return { memory, script: scripted.script, recent, dataDir: rt.settings.dataDir }
  })

describe("recent compression", () => {
  it.scoped("triggers above 20 items and keeps the newest 9 behind a memo", () =>
    Effect.gen(function* () {
      const { memory, script, recent } = yield* setup()
      yield* script.push("recent.summary", summary("Alex talked about 21 things."))
      for (let i = 0; i < 20; i++) yield* memory.write("process", "Tian", { messages: one(i) })
      yield* memory.awaitBackground("Tian")
      assert.strictEqual((yield* summaries(script)).length, 0)
      yield* memory.write("process", "Tian", { messages: one(20) })
      yield* memory.awaitBackground("Tian")
      const items = yield* recent("Tian")
      assert.strictEqual(items.length, 10)
      assert.strictEqual(items[0]?.type, "system")
      assert.strictEqual(items[0]?.data.content, "Memo from prior conversations: Alex talked about 21 things.")
      assert.deepStrictEqual(
        items.slice(1).map((m) => m.data.content),
        Array.from({ length: 9 }, (_, k) => `message ${12 + k}`)
      )
      const [request] = yield* summaries(script)
      assert.strictEqual(request?.tier, "summary")
      assert.include(request?.messages[0]?.content ?? "", "Master | message 0\nTian | message 1\n")
      assert.notInclude(request?.messages[0]?.content ?? "", "message 12")
      const dialog = yield* memory.newDialog("Tian")
      assert.include(dialog, "SYSTEM_MESSAGE | Memo from prior conversations: Alex talked about 21 things.\n")
    })
  )

  it.scoped("map-reduces an input above the token budget", () =>
    Effect.gen(function* () {
      const { memory, script } = yield* setup()
      yield* script.push("recent.summary", summary("part one."), summary("part two."), summary("whole."))
      const long = (i: number) => one(i, `${i} ` + "lorem ipsum dolor sit amet ".repeat(150))
      for (let i = 0; i < 30; i++) yield* memory.write("cache", "Big", { messages: long(i) })
      yield* memory.write("process", "Big", { messages: long(30) })
      yield* memory.awaitBackground("Big")
      const requests = (yield* script.requests).filter((r) => r.task === "recent.summary")
      assert.strictEqual(requests.length, 3)
      assert.include(requests[2]?.messages[0]?.content ?? "", "part one.\npart two.")
      assert.include(yield* memory.newDialog("Big"), "Memo from prior conversations: whole.")
    })
  )

  it.scoped("shrinks a summary above 1,000 tokens with the further-summary task", () =>
    Effect.gen(function* () {
      const { memory, script } = yield* setup()
      yield* script.push("recent.summary", summary("A long sentence about cats. ".repeat(300)))
      yield* script.push("recent.further_summary", summary("Cats matter. Trailing fragment"))
      for (let i = 0; i < 21; i++) yield* memory.write("cache", "Shrink", { messages: one(i) })
      yield* memory.write("settle", "Shrink", { messages: [] })
      yield* memory.awaitBackground("Shrink")
      const further = (yield* script.requests).find((r) => r.task === "recent.further_summary")
      assert.strictEqual(further?.maxCompletionTokens, 1100)
      const dialog = yield* memory.newDialog("Shrink")
      assert.include(dialog, "Memo from prior conversations: Cats matter.\n")
    })
  )

  it.scoped("leaves history untouched on failure and splices on the backup retry", () =>
    Effect.gen(function* () {
      const { memory, script, recent } = yield* setup()
      yield* script.push("recent.summary", { fail: "network" }, summary("recovered."))
      for (let i = 0; i < 21; i++) yield* memory.write("cache", "Retry", { messages: one(i) })
      yield* memory.write("process", "Retry", { messages: [] })
      yield* memory.awaitBackground("Retry")
      assert.strictEqual((yield* recent("Retry")).length, 21)
      assert.strictEqual((yield* recent("Retry"))[0]?.data.content, "message 0")
      yield* memory.write("cache", "Retry", { messages: one(21, "late turn") })
      // The first backup retry comes 30 s ± 20 % (jittered) after the failure.
      yield* TestClock.adjust("36 seconds")
      yield* memory.awaitBackground("Retry")
      const items = yield* recent("Retry")
      assert.strictEqual(items[0]?.data.content, "Memo from prior conversations: recovered.")
      assert.strictEqual(items[items.length - 1]?.data.content, "late turn")
      assert.strictEqual(items.length, 10)
    })
  )

  it.scoped("keeps every turn appended while a compression is in flight", () =>
    Effect.gen(function* () {
      const { memory, script, recent } = yield* setup()
      yield* script.push("recent.summary", { ...summary("slow memo."), delay: "5 seconds" })
      for (let i = 0; i < 21; i++) yield* memory.write("cache", "Busy", { messages: one(i) })
      const processing = yield* Effect.fork(memory.write("process", "Busy", { messages: [] }))
      yield* memory.status("Busy")
      for (let i = 0; i < 5; i++) yield* memory.write("cache", "Busy", { messages: one(i, `during ${i}`) })
      assert.isNull(processing.unsafePoll())
      yield* TestClock.adjust("5 seconds")
      assert.strictEqual(yield* Fiber.join(processing), 0)
      const texts = (yield* recent("Busy")).map((m) => m.data.content)
      assert.strictEqual(texts[0], "Memo from prior conversations: slow memo.")
      assert.deepStrictEqual(texts.slice(-5), ["during 0", "during 1", "during 2", "during 3", "during 4"])
      assert.strictEqual(texts.length, 1 + 9 + 5)
    })
  )

  it.scoped("bounds the history with the hard cap when the provider always fails", () =>
    Effect.gen(function* () {
      const { memory, script, recent } = yield* setup({ recent_hard_cap_tokens: 5_000 })
      yield* script.push(
        "recent.summary",
        ...Array.from({ length: 20 }, () => ({ fail: "http" as const, status: 500 }))
      )
      const big = (i: number) => one(i, `${i} ` + "x".repeat(3_000))
      for (let i = 0; i < 30; i++) yield* memory.write("cache", "Cap", { messages: big(i) })
      yield* memory.write("process", "Cap", { messages: [] })
      yield* memory.awaitBackground("Cap")
      const items = yield* recent("Cap")
      assert.strictEqual(items.length, 10)
      assert.strictEqual(items[9]?.data.content.slice(0, 3), "29 ")
      assert.strictEqual((yield* summaries(script)).length, 1)
    })
  )

  it.scoped("retries a failing compression on the backup schedule, then dead-letters it", () =>
    Effect.gen(function* () {
      const { memory, script, recent } = yield* setup({ actor_idle_ttl_seconds: 86_400 })
      yield* script.push("recent.summary", ...Array.from({ length: 20 }, () => ({ fail: "timeout" as const })))
      for (let i = 0; i < 25; i++) yield* memory.write("cache", "Dead", { messages: one(i) })
      yield* memory.write("process", "Dead", { messages: [] })
      yield* memory.awaitBackground("Dead")
      // 30 s, 60 s, 120 s, 240 s, each jittered by up to +20 %, then the dead letter's hourly probe.
      for (const delay of ["36 seconds", "72 seconds", "144 seconds", "288 seconds", "1 hour"] as const) {
        yield* TestClock.adjust(delay)
        yield* memory.awaitBackground("Dead")
      }
      assert.strictEqual((yield* summaries(script)).length, 5)
      assert.strictEqual((yield* recent("Dead")).length, 25)
      yield* TestClock.adjust("3 hours")
      yield* memory.awaitBackground("Dead")
      assert.strictEqual((yield* summaries(script)).length, 5)
      yield* TestClock.adjust("2 hours")
      yield* memory.awaitBackground("Dead")
      assert.strictEqual((yield* summaries(script)).length, 6)
    })
  )

  it.scoped("compresses a character that stays idle, detailed", () =>
    Effect.gen(function* () {
      const { memory, script, recent } = yield* setup()
      yield* script.push("recent.summary", summary("idle memo."))
      for (let i = 0; i < 25; i++) yield* memory.write("cache", "Idle", { messages: one(i) })
      yield* TestClock.adjust("39 seconds")
      yield* memory.awaitBackground("Idle")
      assert.strictEqual((yield* recent("Idle")).length, 25)
      yield* TestClock.adjust("1 second")
      yield* memory.awaitBackground("Idle")
      assert.strictEqual((yield* recent("Idle"))[0]?.data.content, "Memo from prior conversations: idle memo.")
      assert.strictEqual((yield* recent("Idle")).length, 10)
      const [request] = yield* summaries(script)
      assert.include(request?.messages[0]?.content ?? "", "closes a session")
    })
  )

  it.scoped("adds the stale hint only once the anchor is an hour old", () =>
    Effect.gen(function* () {
      const { memory, script } = yield* setup()
      yield* script.push("recent.summary", ...Array.from({ length: 3 }, (_, i) => summary(`memo ${i}.`)))
      const round = (from: number) =>
        Effect.gen(function* () {
          for (let i = 0; i < 21; i++) yield* memory.write("cache", "Stale", { messages: one(from + i) })
          yield* memory.write("process", "Stale", { messages: [] })
          yield* memory.awaitBackground("Stale")
        })
      yield* round(0)
      yield* TestClock.adjust("30 minutes")
      yield* round(100)
      yield* TestClock.adjust("31 minutes")
      yield* round(200)
      const prompts = (yield* summaries(script)).map((r) => r.messages[0]?.content ?? "")
      assert.deepStrictEqual(
        prompts.map((p) => p.includes("may be out of date")),
        [false, false, true]
      )
    })
  )
})
