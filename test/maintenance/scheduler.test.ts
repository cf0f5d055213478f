import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, TestClock } from "effect"
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { CharacterRegistry } from "../../src/actor/CharacterRegistry.js"
import { appLayer } from "../../src/App.js"
import { EmbedError, Embedder } from "../../src/embed/Embedder.js"
import { Tokenizer } from "../../src/llm/Tokenizer.js"
import { textHash } from "../../src/memory/facts/Fact.js"
import { loops } from "../../src/maintenance/policies.js"
import { MemoryService } from "../../src/MemoryService.js"
import * as Startup from "../../src/Startup.js"
import { testSettings } from "../support/layers.js"

const boot = (tunables = {}) =>
  Effect.gen(function* () {
    const settings = testSettings(tunables)
    mkdirSync(settings.configDir, { recursive: true })
    writeFileSync(path.join(settings.configDir, "core_config.json"), JSON.stringify({ powerful_memory_enabled: true }))
    return settings
  })

const start = (settings: ReturnType<typeof testSettings>) =>
  Effect.gen(function* () {
    const ctx = yield* Layer.build(appLayer({ settings, tokenizer: Tokenizer.Heuristic }))
    yield* Effect.provide(Startup.recover, ctx)
    return {
      memory: yield* Effect.provide(MemoryService, ctx),
      registry: yield* Effect.provide(CharacterRegistry, ctx)
    }
  })

describe("maintenance scheduler", () => {
  it("declares every loop once with its first delay and period", () => {
    assert.deepStrictEqual(
      loops.map((l) => [l.name, l.first, l.every]),
      [
        ["idle_maintenance", "20 seconds", "40 seconds"],
        ["signal_extraction", "60 seconds", "40 seconds"],
        ["auto_promote", "150 seconds", "180 seconds"],
        ["reflection_synthesis", "200 seconds", "180 seconds"],
        ["archive_sweep", "250 seconds", "3600 seconds"],
        ["rebuttal", "100 seconds", "180 seconds"],
        ["vector_backfill", "30 seconds", "20 seconds"]
      ]
    )
  })

  it.scoped("wakes an evicted character to extract the turns it had gathered", () =>
    Effect.gen(function* () {
      const settings = yield* boot({ actor_idle_ttl_seconds: 5 })
      const { memory, registry } = yield* start(settings)
      yield* memory.write("cache", "Sleepy", { messages: [{ role: "user", content: "I live in Nara." }] })
      yield* TestClock.adjust("10 seconds")
      assert.deepStrictEqual(yield* registry.active, [])
      assert.isFalse(existsSync(path.join(settings.dataDir, "Sleepy", "facts.json")))
      yield* TestClock.adjust("50 seconds")
      yield* memory.status("Sleepy")
      const facts = JSON.parse(readFileSync(path.join(settings.dataDir, "Sleepy", "facts.json"), "utf8"))
      assert.deepStrictEqual(
        facts.map((f: { text: string }) => f.text),
        ["Master lives in Nara"]
      )
    })
  )

  it.scoped("sweeps absorbed facts older than 7 days into the archive, at most once a day", () =>
    Effect.gen(function* () {
      const settings = yield* boot()
      const dir = path.join(settings.dataDir, "Sweep")
      mkdirSync(dir, { recursive: true })
      const fact = (id: string, text: string, absorbed: boolean, created: string) => ({
        id,
        text,
        importance: 5,
        entity: "master",
        source: "user_observation",
        hash: textHash(text),
        created_at: created,
        absorbed
      })
      yield* TestClock.setTime(new Date(2026, 10, 30, 12).getTime())
      writeFileSync(
        path.join(dir, "facts.json"),
        JSON.stringify([
          fact("fact_old", "old absorbed", true, "2026-11-01T00:00:00.000000"),
          fact("fact_new", "new absorbed", true, "2026-11-29T00:00:00.000000"),
          fact("fact_live", "old but not absorbed", false, "2026-11-01T00:00:00.000000")
        ])
      )
      writeFileSync(path.join(dir, "events.ndjson"), "")
      const { memory } = yield* start(settings)
      yield* TestClock.adjust("250 seconds")
      yield* memory.status("Sweep")
      const active = JSON.parse(readFileSync(path.join(dir, "facts.json"), "utf8")).map((f: { id: string }) => f.id)
      assert.deepStrictEqual(active, ["fact_new", "fact_live"])
      const shards = readdirSync(path.join(dir, "facts_archive")).filter((f) => f.endsWith(".json"))
      assert.strictEqual(shards.length, 1)
      assert.match(shards[0] ?? "", /^2026-11-30_[0-9a-f]{8}\.json$/)
      const archived = JSON.parse(readFileSync(path.join(dir, "facts_archive", shards[0] ?? ""), "utf8"))
      assert.deepStrictEqual(
        archived.map((f: { id: string }) => f.id),
        ["fact_old"]
      )
      assert.strictEqual(archived[0].archive_shard_path, shards[0])
    })
  )

  it.scoped("starts the loops and the embedding warm-up only once startup recovery is done", () =>
    Effect.gen(function* () {
      const settings = yield* boot({ vectors_warmup_delay_seconds: 5 })
      let asked = 0
      const embedder = Layer.succeed(Embedder, {
        modelId: Effect.sync(() => {
          asked++
          return Option.none()
        }),
        ready: Effect.succeed(Option.none()),
        embed: () => Effect.fail(new EmbedError({ message: "no model in this test" }))
      })
      const ctx = yield* Layer.build(appLayer({ settings, tokenizer: Tokenizer.Heuristic, embedder }))
      yield* TestClock.adjust("400 seconds")
      assert.strictEqual(asked, 0)
      yield* Effect.provide(Startup.recover, ctx)
      yield* TestClock.adjust("6 seconds")
      assert.strictEqual(asked, 1)
      yield* TestClock.adjust("30 seconds")
      assert.isAbove(asked, 1)
    })
  )
})
