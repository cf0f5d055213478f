import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs"
import * as path from "node:path"
import { appLayer } from "../../src/App.js"
import * as ScriptedLlm from "../support/ScriptedLlm.js"
import { Tokenizer } from "../../src/llm/Tokenizer.js"
import { MemoryService } from "../../src/MemoryService.js"
import * as Startup from "../../src/Startup.js"
import { testSettings } from "../support/layers.js"

type FactRow = {
  text: string
  source: string
  signal_processed: boolean
  source_row_ids: Array<number>
  entity: string
}

const start = (settings: ReturnType<typeof testSettings>) =>
  Effect.gen(function* () {
    const ctx = yield* Layer.build(appLayer({ settings, tokenizer: Tokenizer.Heuristic, maintenance: false }))
    yield* Effect.provide(Startup.recover, ctx)
    return yield* Effect.provide(MemoryService, ctx)
  })

const powerful = (settings: ReturnType<typeof testSettings>, on: boolean) => {
  mkdirSync(settings.configDir, { recursive: true })
  writeFileSync(path.join(settings.configDir, "core_config.json"), JSON.stringify({ powerful_memory_enabled: on }))
}

const facts = (settings: ReturnType<typeof testSettings>, name: string): Array<FactRow> => {
  const file = path.join(settings.dataDir, name, "facts.json")
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : []
}
const turn = (user: string) => ({
  messages: [
    { role: "user", content: user },
    { role: "assistant", content: "I see." }
  ]
})

describe("fact extraction", () => {
  it.scoped("powerful memory off: extracts each turn, with provenance, and never twice", () =>
    Effect.gen(function* () {
      const settings = testSettings()
      powerful(settings, false)
      const memory = yield* start(settings)
      yield* memory.write("cache", "Off", turn("I work at Nintendo. I love spicy ramen."))
      yield* memory.awaitBackground("Off")
      yield* memory.maintainNow("Off")
      const first = facts(settings, "Off")
      assert.deepStrictEqual(first.map((f) => f.text).sort(), ["Master loves spicy ramen", "Master works at Nintendo"])
      assert.deepStrictEqual(first[0]?.source_row_ids, [1, 2])
      assert.isFalse(first[0]?.signal_processed)
      yield* memory.write("cache", "Off", turn("I work at Nintendo."))
      yield* memory.maintainNow("Off")
      assert.strictEqual(facts(settings, "Off").length, 2)
    })
  )

  it.scoped("powerful memory on: waits for 10 turns, then extracts the window past the cursor", () =>
    Effect.gen(function* () {
      const settings = testSettings({ actor_idle_ttl_seconds: 86_400 })
      powerful(settings, true)
      const memory = yield* start(settings)
      for (let i = 0; i < 9; i++) {
        yield* memory.write("cache", "On", turn(`I visited Kyoto ${i + 1} times.`))
        yield* TestClock.adjust("5 seconds")
      }
      yield* TestClock.adjust("5 seconds")
      yield* memory.status("On")
      assert.strictEqual(facts(settings, "On").length, 0)
      yield* memory.write("cache", "On", turn("I live in Osaka."))
      yield* TestClock.adjust("40 seconds")
      yield* memory.status("On")
      const got = facts(settings, "On").map((f) => f.text)
      assert.include(got, "Master lives in Osaka")
      assert.include(got, "Master visited Kyoto 9 times")
      assert.strictEqual(got.length, 10)
      const cursors = JSON.parse(readFileSync(path.join(settings.dataDir, "On", "cursors.json"), "utf8"))
      assert.strictEqual(cursors.extracted_until_row_id, "20")
    })
  )

  it.scoped("powerful memory on: a restart resumes from the durable cursor and skips nothing", () =>
    Effect.gen(function* () {
      const settings = testSettings()
      powerful(settings, true)
      yield* Effect.scoped(
        Effect.gen(function* () {
          const memory = yield* start(settings)
          yield* memory.write("cache", "Restart", turn("I adopted a kitten named Mochi."))
          yield* memory.write("cache", "Restart", turn("My sister Mei is 27."))
        })
      )
      assert.strictEqual(facts(settings, "Restart").length, 0)
      const memory = yield* start(settings)
      yield* memory.status("Restart")
      yield* TestClock.adjust("40 seconds")
      yield* memory.status("Restart")
      assert.deepStrictEqual(
        facts(settings, "Restart")
          .map((f) => f.text)
          .sort(),
        ["Master adopted a kitten named Mochi", "Master's sister Mei is 27"]
      )
    })
  )

  it.scoped("runs the AI-aware path B on every third successful path-A window", () =>
    Effect.gen(function* () {
      const settings = testSettings()
      powerful(settings, true)
      const scripted = yield* ScriptedLlm.make
      const ok = JSON.stringify([{ text: "Master likes tea", importance: 6, entity: "master", event_when: null }])
      yield* scripted.script.push("facts.extract", ...Array.from({ length: 5 }, () => ({ answer: ok })))
      yield* scripted.script.push("facts.extract_ai_aware", {
        answer: JSON.stringify([
          { text: "Tian grew up in Kyoto", importance: 6, entity: "neko", event_when: null, source: "ai_disclosure" }
        ])
      })
      const ctx = yield* Layer.build(
        appLayer({ settings, tokenizer: Tokenizer.Heuristic, llm: scripted.layer, maintenance: false })
      )
      yield* Effect.provide(Startup.recover, ctx)
      const memory = yield* Effect.provide(MemoryService, ctx)
      for (let i = 0; i < 3; i++) {
        yield* memory.write("cache", "PathB", {
          messages: [
            { role: "user", content: `Where did you grow up? (${i})` },
            { role: "assistant", content: "In Kyoto, by the river." }
          ]
        })
        yield* memory.maintainNow("PathB")
      }
      const tasks = (yield* scripted.script.requests).map((r) => r.task)
      assert.deepStrictEqual(
        tasks.filter((t) => t.startsWith("facts.")),
        ["facts.extract", "facts.extract", "facts.extract", "facts.extract_ai_aware"]
      )
      const aiAware = (yield* scripted.script.requests).find((r) => r.task === "facts.extract_ai_aware")
      assert.include(aiAware?.messages[0]?.content ?? "", "- Master likes tea")
      assert.include(
        aiAware?.messages[0]?.content ?? "",
        "PathB | In Kyoto, by the river.\nMaster | Where did you grow up? (2)"
      )
      const kyoto = facts(settings, "PathB").find((f) => f.text === "Tian grew up in Kyoto")
      assert.deepStrictEqual([kyoto?.source, kyoto?.signal_processed, kyoto?.entity], ["ai_disclosure", true, "neko"])
    })
  )

  it.scoped("replays fact.absorbed from the journal, marking the facts absorbed once", () =>
    Effect.gen(function* () {
      const settings = testSettings()
      const dir = path.join(settings.dataDir, "Absorb")
      mkdirSync(dir, { recursive: true })
      writeFileSync(
        path.join(dir, "facts.json"),
        JSON.stringify([
          { id: "fact_a", text: "a", hash: "h1", created_at: "2026-11-30T00:00:00.000000" },
          { id: "fact_b", text: "b", hash: "h2", created_at: "2026-11-30T00:00:00.000000" }
        ])
      )
      const line = {
        event_id: "e-absorb",
        type: "fact.absorbed",
        ts: "2026-11-30T01:00:00.000000",
        payload: { fact_ids: ["fact_a"], reflection_id: "ref_0123456789abcdef" }
      }
      writeFileSync(path.join(dir, "events.ndjson"), JSON.stringify(line) + "\n")
      const memory = yield* start(settings)
      yield* memory.status("Absorb")
      const got = JSON.parse(readFileSync(path.join(dir, "facts.json"), "utf8"))
      assert.deepStrictEqual(
        got.map((f: { id: string; absorbed: boolean }) => [f.id, f.absorbed]),
        [
          ["fact_a", true],
          ["fact_b", false]
        ]
      )
    })
  )

  it.scoped("switching on then off hands extraction to each turn", () =>
    Effect.gen(function* () {
      const settings = testSettings()
      powerful(settings, true)
      const memory = yield* start(settings)
      yield* memory.write("cache", "OnOff", turn("I live in Kobe."))
      yield* memory.maintainNow("OnOff")
      assert.strictEqual(facts(settings, "OnOff").length, 1)
      powerful(settings, false)
      yield* memory.write("cache", "OnOff", turn("I work at Sony."))
      yield* memory.awaitBackground("OnOff")
      yield* memory.maintainNow("OnOff")
      assert.deepStrictEqual(
        facts(settings, "OnOff").map((f) => f.text),
        ["Master lives in Kobe", "Master works at Sony"]
      )
    })
  )

  it.scoped("switching off then on does not replay what per-turn extraction already covered", () =>
    Effect.gen(function* () {
      const settings = testSettings()
      powerful(settings, false)
      const memory = yield* start(settings)
      yield* memory.write("cache", "Switch", turn("I moved to Sapporo."))
      yield* memory.maintainNow("Switch")
      powerful(settings, true)
      const report = yield* memory.maintainNow("Switch")
      assert.strictEqual(report.factsAdded, 0)
      assert.strictEqual(facts(settings, "Switch").length, 1)
    })
  )
})

describe("journal compaction", () => {
  it.scoped("drops applied turn events past the size limit, keeps lifecycle events, and restarts cleanly", () =>
    Effect.gen(function* () {
      const settings = testSettings({ event_log_compaction_lines: 5 })
      powerful(settings, false)
      yield* Effect.scoped(
        Effect.gen(function* () {
          const memory = yield* start(settings)
          for (let i = 0; i < 8; i++) yield* memory.write("cache", "Compact", turn(`I visited Kyoto ${i + 1} times.`))
          yield* memory.awaitBackground("Compact")
          yield* memory.maintainNow("Compact")
        })
      )
      const dir = path.join(settings.dataDir, "Compact")
      const lines = readFileSync(path.join(dir, "events.ndjson"), "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as { type: string; event_id: string })
      const types = lines.map((l) => l.type)
      assert.notInclude(types.slice(0, -1), "turns.appended")
      assert.strictEqual(types.filter((t) => t === "fact.added").length, 8)
      const sentinel = JSON.parse(readFileSync(path.join(dir, "events_applied.json"), "utf8"))
      assert.strictEqual(sentinel.last_applied_event_id, lines[lines.length - 1]?.event_id)
      const memory = yield* start(settings)
      const history = yield* memory.recentHistory("Compact")
      assert.strictEqual(history.split("Master | I visited Kyoto").length - 1, 8)
      assert.strictEqual(facts(settings, "Compact").length, 8)
    })
  )
})
