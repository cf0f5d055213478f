import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Layer, Option, TestClock } from "effect"
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { CharacterRegistry } from "../../src/character/CharacterRegistry.js"
import { appLayer } from "../../src/App.js"
import { EmbedError, Embedder } from "../../src/vectors/Embedder.js"
import { Tokenizer } from "../../src/llm/Tokenizer.js"
import { textHash } from "../../src/facts/Fact.js"
import { loops } from "../../src/maintenance/policies.js"
import { MemoryService } from "../../src/MemoryService.js"
import { tunablesFrom } from "../../src/Config.js"
import { tunableDefaults, type Tunables } from "../../src/Tunables.js"
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
  it("declares every loop once with its first delay and its period from the tunables", () => {
    const seconds = (t: Tunables) =>
      loops(t).map((l) => [l.name, Duration.toSeconds(l.first), Duration.toSeconds(l.every), l.enabled])
    assert.deepStrictEqual(seconds(tunableDefaults), [
      ["idle_maintenance", 20, 40, true],
      ["signal_extraction", 60, 40, true],
      ["auto_promote", 150, 180, true],
      ["reflection_synthesis", 200, 180, true],
      ["archive_sweep", 250, 3600, true],
      ["rebuttal", 100, 180, true],
      ["vector_backfill", 30, 20, true]
    ])
    const tuned = tunablesFrom({
      idle_check_interval_seconds: 41,
      evidence_signal_check_interval_seconds: 42,
      evidence_signal_check_enabled: false,
      auto_promote_check_interval_seconds: 43,
      memory_reflection_synthesis_interval_seconds: 44,
      evidence_archive_sweep_interval_seconds: 45,
      rebuttal_check_interval_seconds: 46,
      embedding_poll_seconds: 47
    })
    assert.deepStrictEqual(
      seconds(tuned).map(([, , every, enabled]) => [every, enabled]),
      [
        [41, true],
        [42, false],
        [43, true],
        [44, true],
        [45, true],
        [46, true],
        [47, true]
      ]
    )
  })

  it.scoped("a loop pass that dies is retried on the loop's backoff, and the loop goes on", () =>
    Effect.gen(function* () {
      const settings = yield* boot({ vectors_warmup_delay_seconds: 100_000 })
      let asked = 0
      const embedder = Layer.succeed(Embedder, {
        modelId: Effect.suspend(() => (++asked === 1 ? Effect.die(new Error("probe defect")) : Effect.succeedNone)),
        ready: Effect.succeedNone,
        serves: Effect.succeed(() => false),
        embed: () => Effect.fail(new EmbedError({ message: "no model in this test" }))
      })
      const ctx = yield* Layer.build(appLayer({ settings, tokenizer: Tokenizer.Heuristic, embedder }))
      yield* Effect.provide(Startup.recover, ctx)
      yield* TestClock.adjust("30 seconds")
      assert.strictEqual(asked, 1)
      yield* TestClock.adjust("1200 millis")
      assert.strictEqual(asked, 2)
      yield* TestClock.adjust("20 seconds")
      assert.strictEqual(asked, 3)
    })
  )

  it.scoped("does not send a directory whose name validation would change to another character", () =>
    Effect.gen(function* () {
      const settings = yield* boot()
      mkdirSync(path.join(settings.dataDir, "Mio "), { recursive: true })
      writeFileSync(path.join(settings.dataDir, "Mio ", "recent.json"), "[]")
      const { memory, registry } = yield* start(settings)
      assert.deepStrictEqual(yield* registry.active, [])
      yield* TestClock.adjust("61 seconds")
      assert.deepStrictEqual(yield* registry.active, [])
      assert.isFalse(existsSync(path.join(settings.dataDir, "Mio")))
      assert.deepStrictEqual(yield* memory.recentFiles, [])
    })
  )

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
        serves: Effect.succeed(() => false),
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
