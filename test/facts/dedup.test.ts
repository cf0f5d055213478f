import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { mkdirSync, readFileSync, readdirSync, writeFileSync, existsSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { appLayer } from "../../src/App.js"
import { localArbitration } from "../../src/facts/local/LocalDedup.js"
import type { Extracted } from "../../src/facts/local/LocalFacts.js"
import * as ScriptedLlm from "../support/ScriptedLlm.js"
import { Tokenizer } from "../../src/llm/Tokenizer.js"
import { MemoryService } from "../../src/MemoryService.js"
import { textHash, type Fact } from "../../src/facts/Fact.js"
import * as FactArchive from "../../src/facts/FactArchive.js"
import { planFacts } from "../../src/facts/Intake.js"
import { dedupTokens, dice, recallTokens, stripNames } from "../../src/recall/Tokenize.js"
import * as Startup from "../../src/Startup.js"
import { testSettings } from "../support/layers.js"

const extracted = (text: string, source: Extracted["source"] = "user_observation") => ({
  e: { text, importance: 6, entity: "master" as const, event_when: null, source },
  rowIds: [1]
})

describe("tokenizer and overlap", () => {
  it("cuts CJK into 2- and 3-grams with multiplicity and keeps other words whole", () => {
    assert.deepStrictEqual(recallTokens("喜欢猫猫"), ["喜欢", "欢猫", "猫猫", "喜欢猫", "欢猫猫"])
    assert.deepStrictEqual(recallTokens("哈哈哈"), ["哈哈", "哈哈", "哈哈哈"])
    assert.deepStrictEqual(recallTokens("I like Kyoto, a lot!"), ["like", "Kyoto", "lot"])
    assert.strictEqual(
      stripNames("Alex said Alexander is fine", ["Alexander", "Alex"]).replace(/\s+/g, " "),
      " said is fine"
    )
    assert.deepStrictEqual(dedupTokens('Master "Loves" Café', ["Master"]), ["loves", "cafe"])
    assert.strictEqual(dice(["a", "b"], ["b", "c"]), 0.5)
  })

  it("arbitrates locally by overlap and new numbers", () => {
    assert.deepStrictEqual(
      localArbitration([
        { candidate: "Master loves spicy ramen", existing: "Master loves spicy ramen" },
        { candidate: "Master is 30 years old", existing: "Master is 29 years old" },
        { candidate: "Master owns a bike", existing: "Master loves spicy ramen" }
      ]).map((d) => d.action),
      ["merge", "replace", "keep_both"]
    )
  })
})

describe("persisting facts", () => {
  it("skips an exact duplicate and upgrades an AI disclosure to a user observation, never the reverse", () => {
    const stored: Fact = {
      id: "fact_1",
      text: "Tian likes tea",
      importance: 5,
      entity: "neko",
      source: "ai_disclosure",
      tags: [],
      hash: textHash("Tian likes tea"),
      created_at: "2026-11-30T00:00:00.000000",
      event_when_raw: null,
      event_start_at: null,
      event_end_at: null,
      schema_version: 2,
      absorbed: false,
      signal_processed: true
    }
    const byHash = new Map([[stored.hash, stored]])
    const up = planFacts(byHash, [extracted("Tian likes tea")], 0, false)
    assert.deepStrictEqual(up.fresh, [])
    assert.deepStrictEqual(
      up.upgraded.map((f) => [f.id, f.source, f.signal_processed]),
      [["fact_1", "user_observation", false]]
    )
    const down = planFacts(
      new Map([[stored.hash, { ...stored, source: "user_observation" }]]),
      [extracted("Tian likes tea", "ai_disclosure")],
      0,
      false
    )
    assert.deepStrictEqual([down.fresh.length, down.upgraded.length], [0, 0])
    const fresh = planFacts(byHash, [extracted("Master owns a bike"), extracted("Master owns a bike")], 0, false)
    assert.strictEqual(fresh.fresh.length, 1)
    assert.strictEqual(fresh.fresh[0]?.importance, 6)
  })
})

describe("archive shards", () => {
  it.effect("names shards by date, rolls over at the limit, and still reads the legacy file", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(path.join(tmpdir(), "kioku-archive-"))
      const fact = (i: number): Fact => ({
        id: `fact_${i}`,
        text: `t${i}`,
        importance: 5,
        entity: "master",
        source: "user_observation",
        tags: [],
        hash: textHash(`t${i}`),
        created_at: "2026-11-01T00:00:00.000000",
        event_when_raw: null,
        event_start_at: null,
        event_end_at: null,
        schema_version: 2,
        absorbed: true,
        signal_processed: true
      })
      writeFileSync(path.join(dir, "facts_archive.json"), JSON.stringify([fact(0)]))
      const archive = FactArchive.make(dir, { maxPerShard: 500 })
      yield* archive.add(
        Array.from({ length: 499 }, (_, i) => fact(i + 1)),
        "2026-11-30T10:00:00.000000"
      )
      yield* archive.add([fact(500), fact(501), fact(1)], "2026-11-30T11:00:00.000000")
      const shards = archive.shards()
      assert.strictEqual(shards.length, 2)
      for (const s of shards) assert.match(s, /^2026-11-30_[0-9a-f]{8}\.json$/)
      const sizes = shards.map((s) => JSON.parse(readFileSync(path.join(archive.shardDir, s), "utf8")).length).sort()
      assert.deepStrictEqual(sizes, [1, 500])
      const all = yield* archive.all
      assert.strictEqual(all.length, 502)
      assert.strictEqual(all[0]?.id, "fact_0")
      assert.strictEqual(new Set(all.map((f) => f.id)).size, 502)
      assert.include(readdirSync(archive.shardDir).join(), "2026-11-30_")
    })
  )
})

describe("near-duplicate facts end to end", () => {
  const setup = (answers: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      const settings = testSettings()
      mkdirSync(settings.configDir, { recursive: true })
      writeFileSync(
        path.join(settings.configDir, "core_config.json"),
        JSON.stringify({ powerful_memory_enabled: false })
      )
      const scripted = yield* ScriptedLlm.make
      for (const a of answers) yield* scripted.script.push("facts.extract", { answer: a })
      const ctx = yield* Layer.build(
        appLayer({ settings, tokenizer: Tokenizer.Heuristic, llm: scripted.layer, maintenance: false })
      )
      yield* Effect.provide(Startup.recover, ctx)
      const memory = yield* Effect.provide(MemoryService, ctx)
      const facts = (): Array<Fact & { superseded_by?: string; merged_from_ids?: Array<string> }> => {
        const file = path.join(settings.dataDir, "Dup", "facts.json")
        return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : []
      }
      const queue = () =>
        JSON.parse(readFileSync(path.join(settings.dataDir, "Dup", "facts_pending_dedup.json"), "utf8"))
      return { memory, script: scripted.script, facts, queue, settings }
    })
  const answer = (...texts: ReadonlyArray<string>) =>
    JSON.stringify(texts.map((text) => ({ text, importance: 6, entity: "master", event_when: null })))
  const say = { messages: [{ role: "user", content: "…" }] }

  it.scoped(
    "queues English and Chinese near-duplicates, drops a Traditional restatement, and applies each arbitration",
    () =>
      Effect.gen(function* () {
        const { memory, script, facts, queue, settings } = yield* setup([
          answer("Master loves spicy ramen", "Master喜欢猫", "Master is 29 years old", "Master owns a red bike"),
          answer(
            "Master really loves spicy ramen",
            "Master非常喜欢猫咪",
            "Master is 30 years old now",
            "Master owns a red bike and a car",
            "Master喜歡貓"
          )
        ])
        yield* memory.write("cache", "Dup", say)
        yield* memory.awaitBackground("Dup")
        yield* memory.write("cache", "Dup", say)
        yield* memory.awaitBackground("Dup")
        yield* memory.maintainNow("Dup")
        assert.strictEqual(facts().length, 8)
        assert.notInclude(
          facts().map((f) => f.text),
          "Master喜歡貓"
        )
        const pairs: Array<{ candidate_id: string; existing_id: string; detector: string }> = queue()
        assert.strictEqual(pairs.length, 4)
        assert.isTrue(pairs.every((p) => p.detector === "fts"))
        writeFileSync(
          path.join(settings.configDir, "core_config.json"),
          JSON.stringify({ powerful_memory_enabled: true })
        )
        const byText = new Map(facts().map((f) => [f.text, f.id]))
        const order = pairs.map((p) => facts().find((f) => f.id === p.candidate_id)?.text)
        const actions = order.map((t) =>
          t === "Master really loves spicy ramen"
            ? "merge"
            : t === "Master is 30 years old now"
              ? "replace"
              : "keep_both"
        )
        yield* script.push("facts.dedup", {
          answer: JSON.stringify(actions.map((action, index) => ({ index, action })))
        })
        const report = yield* memory.maintainNow("Dup")
        assert.strictEqual(report.factsMerged, 2)
        const after = facts()
        const texts = after.map((f) => f.text)
        assert.notInclude(texts, "Master really loves spicy ramen")
        assert.notInclude(texts, "Master is 29 years old")
        assert.include(texts, "Master is 30 years old now")
        assert.include(texts, "Master非常喜欢猫咪")
        const ramen = after.find((f) => f.text === "Master loves spicy ramen")
        assert.strictEqual(ramen?.importance, 7)
        assert.deepStrictEqual(ramen?.merged_from_ids, [byText.get("Master really loves spicy ramen")])
        const shardDir = path.join(settings.dataDir, "Dup", "facts_archive")
        const archived = readdirSync(shardDir).flatMap((s) => JSON.parse(readFileSync(path.join(shardDir, s), "utf8")))
        assert.sameMembers(
          archived.map((f: { text: string }) => f.text),
          ["Master really loves spicy ramen", "Master is 29 years old"]
        )
        assert.deepStrictEqual(queue(), [])
      })
  )
})
