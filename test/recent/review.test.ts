import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Layer, TestClock } from "effect"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import type { StoredMessage } from "../../src/domain/Message.js"
import * as ScriptedLlm from "../support/ScriptedLlm.js"
import { MemoryService } from "../../src/MemoryService.js"
import { fingerprint } from "../../src/recent/Compression.js"
import {
  emptyReviewState,
  locateRun,
  mapReviewed,
  reviewGate,
  tailOf,
  type GateInput
} from "../../src/recent/Review.js"
import * as Startup from "../../src/Startup.js"
import { tunablesFrom } from "../../src/Config.js"
import { testRuntime } from "../support/layers.js"

const t = tunablesFrom({})
const msg = (type: string, content: string): StoredMessage => ({ type, data: { content } })
const chat = (n: number) => Array.from({ length: n }, (_, i) => msg(i % 2 === 0 ? "human" : "ai", `m${i}`))
const names = { master: "Alex", character: "Tian" }

describe("review rules", () => {
  const base: GateInput = {
    state: emptyReviewState,
    items: chat(10),
    nowMillis: 1_000_000,
    lastActivityMillis: 1_000_000,
    enabled: true,
    inFlight: false,
    contextTokens: 100
  }
  it("passes every gate with enough new history", () => assert.strictEqual(reviewGate(base, t), "ok"))
  it("stops at each gate", () => {
    assert.strictEqual(reviewGate({ ...base, inFlight: true }, t), "in_flight")
    assert.strictEqual(reviewGate({ ...base, enabled: false }, t), "disabled")
    assert.strictEqual(reviewGate({ ...base, items: chat(7) }, t), "too_short")
    assert.strictEqual(reviewGate({ ...base, state: { ...emptyReviewState, last_review_ts: 950_000 } }, t), "too_soon")
    const reviewed = { ...emptyReviewState, last_reviewed_cutoff_tail: tailOf(chat(10).slice(0, 4)) }
    assert.strictEqual(reviewGate({ ...base, state: reviewed }, t), "not_enough_new")
    assert.strictEqual(reviewGate({ ...base, state: reviewed, nowMillis: 1_000_000 + 1_800_000 }, t), "ok")
    const exhausted = {
      ...emptyReviewState,
      review_output_exhaustion_attempts: 3,
      review_output_exhaustion_min_context_tokens: 80
    }
    assert.strictEqual(reviewGate({ ...base, state: exhausted }, t), "paused")
    assert.strictEqual(reviewGate({ ...base, state: exhausted, contextTokens: 50 }, t), "ok")
  })
  it("maps roles back and forces a single leading memo", () => {
    const mapped = mapReviewed(
      [
        { role: "system", content: "memo" },
        { role: "user", content: "a" },
        { role: "Tian", content: "b" },
        { role: "system", content: "second memo" },
        { role: "narrator", content: "c" }
      ],
      true,
      names
    )
    assert.deepStrictEqual(mapped, [msg("system", "memo"), msg("human", "a"), msg("ai", "b"), msg("human", "c")])
    assert.deepStrictEqual(
      mapReviewed(
        [
          { role: "system", content: "x" },
          { role: "assistant", content: "y" }
        ],
        false,
        names
      ),
      [msg("ai", "y")]
    )
    assert.isUndefined(mapReviewed([], true, names))
    assert.isUndefined(mapReviewed([{ role: "system", content: "memo only" }], true, names))
  })
  it("locates the reviewed run by its tail", () => {
    const snapshot = chat(10).map(fingerprint)
    assert.deepStrictEqual(locateRun([...chat(10), msg("human", "later")], snapshot), { start: 0, capacity: 10 })
    assert.deepStrictEqual(locateRun([msg("system", "memo"), ...chat(10).slice(4)], snapshot), {
      start: 1,
      capacity: 6
    })
    assert.isUndefined(locateRun(chat(3), snapshot))
  })
})

const review = (corrected: ReadonlyArray<{ role: string; content: string }>) => ({
  answer: JSON.stringify({ explanation: "fixed", corrected_dialogue: corrected })
})

const setup = Effect.gen(function* () {
  const scripted = yield* ScriptedLlm.make
  const rt = testRuntime({ llm: scripted.layer })
  const ctx = yield* Layer.build(rt.layer)
  yield* Effect.provide(Startup.recover, ctx)
  const memory = yield* Effect.provide(MemoryService, ctx)
  const file = (name: string, f: string) => path.join(rt.settings.dataDir, name, f)
  const recent = (name: string): Array<{ type: string; data: { content: string } }> =>
    JSON.parse(readFileSync(file(name, "recent.json"), "utf8"))
  return { memory, script: scripted.script, recent, file, settings: rt.settings }
})

const turns = (n: number, prefix = "t") =>
  Array.from({ length: n }, (_, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: `${prefix}${i}` }))

describe("history review", () => {
  it.scoped("replaces the reviewed run and keeps messages that arrived meanwhile", () =>
    Effect.gen(function* () {
      const { memory, script, recent, file } = yield* setup
      yield* script.push("recent.review", {
        ...review([
          { role: "user", content: "t0" },
          { role: "assistant", content: "t1 fixed" },
          { role: "user", content: "t2" }
        ]),
        delay: "2 seconds"
      })
      yield* memory.write("cache", "Rev", { messages: turns(9) })
      yield* memory.write("process", "Rev", { messages: turns(1, "last") })
      yield* memory.write("cache", "Rev", { messages: [{ role: "user", content: "meanwhile" }] })
      const waiting = yield* Effect.fork(memory.awaitBackground("Rev"))
      yield* TestClock.adjust("2 seconds")
      yield* Fiber.join(waiting)
      const texts = recent("Rev").map((m) => m.data.content)
      assert.deepStrictEqual(texts, ["t0", "t1 fixed", "t2", "meanwhile"])
      const state = JSON.parse(readFileSync(file("Rev", "review_state.json"), "utf8"))
      assert.isTrue(state.review_clean)
      const [request] = yield* script.requests
      assert.strictEqual(request?.tier, "correction")
      assert.include(request?.messages[0]?.content ?? "", "user: t0\n\nassistant: t1")
    })
  )

  it.scoped("cancels a review in flight and writes nothing", () =>
    Effect.gen(function* () {
      const { memory, script, recent } = yield* setup
      yield* script.push("recent.review", { ...review([{ role: "user", content: "x" }]), delay: "1 minute" })
      yield* memory.write("process", "Cancel", { messages: turns(10) })
      assert.strictEqual(yield* memory.cancelCorrection("Cancel"), "cancelled")
      assert.strictEqual(yield* memory.cancelCorrection("Cancel"), "no_task")
      yield* TestClock.adjust("1 minute")
      yield* memory.awaitBackground("Cancel")
      assert.strictEqual(recent("Cancel").length, 10)
    })
  )

  it.scoped("a memory-browser save cancels a review in flight; the review never lands", () =>
    Effect.gen(function* () {
      const { memory, script, recent } = yield* setup
      yield* script.push("recent.review", { ...review([{ role: "user", content: "x" }]), delay: "1 minute" })
      yield* memory.write("process", "Edit", { messages: turns(10) })
      yield* TestClock.adjust("1 millis")
      assert.strictEqual((yield* script.requests).length, 1)
      const saved = yield* memory.saveRecent("Edit", () => true, [msg("human", "edited by hand")])
      assert.strictEqual(saved._tag, "Saved")
      assert.strictEqual(yield* memory.cancelCorrection("Edit"), "no_task")
      yield* TestClock.adjust("1 minute")
      yield* memory.awaitBackground("Edit")
      assert.deepStrictEqual(
        recent("Edit").map((m) => m.data.content),
        ["edited by hand"]
      )
    })
  )

  it.scoped("writes nothing for a white review, and runs no review when auto review is off", () =>
    Effect.gen(function* () {
      const { memory, script, recent, settings } = yield* setup
      yield* script.push("recent.review", review([]))
      yield* memory.write("process", "White", { messages: turns(10) })
      yield* memory.awaitBackground("White")
      assert.strictEqual(recent("White").length, 10)
      mkdirSync(settings.configDir, { recursive: true })
      writeFileSync(
        path.join(settings.configDir, "core_config.json"),
        JSON.stringify({ recent_memory_auto_review: false })
      )
      yield* memory.write("process", "Off", { messages: turns(10) })
      yield* memory.awaitBackground("Off")
      assert.strictEqual((yield* script.requests).filter((r) => r.task === "recent.review").length, 1)
    })
  )
})
