import { assert, describe, it } from "@effect/vitest"
import { Clock, Effect, Option, Schema, TestClock } from "effect"
import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { boot, setPowerful, testSettings } from "../support/layers.js"
import { heuristic } from "../../src/llm/Tokenizer.js"
import { textHash, type Fact } from "../../src/facts/Fact.js"
import { eligible, pickFollowups } from "../../src/reflection/Followup.js"
import { Reflection } from "../../src/reflection/Reflection.js"
import { reflectionId, selectFacts, validateDraft } from "../../src/reflection/Synthesis.js"

const fact = (id: string, importance: number, created: string, absorbed = false): Fact => ({
  id,
  text: id,
  importance,
  entity: "master",
  source: "user_observation",
  tags: [],
  hash: textHash(id),
  created_at: created,
  event_when_raw: null,
  event_start_at: null,
  event_end_at: null,
  schema_version: 2,
  absorbed,
  signal_processed: true
})

describe("reflection synthesis rules", () => {
  it("derives the ref_ id from the sorted ids, each followed by a NUL byte", () => {
    const ids = ["fact_b", "fact_a", "fact_c"]
    const expected = createHash("sha256").update("fact_a\u0000fact_b\u0000fact_c\u0000").digest("hex").slice(0, 16)
    assert.strictEqual(reflectionId(ids), `ref_${expected}`)
    assert.strictEqual(reflectionId(["fact_c", "fact_a", "fact_b"]), reflectionId(ids))
    assert.notStrictEqual(reflectionId(["fact_a", "fact_b"]), reflectionId(ids))
  })

  it("needs five unabsorbed facts of importance 5 or more and keeps the top twenty", () => {
    const limits = { min: 5, max: 20 }
    const few = [1, 2, 3, 4].map((i) => fact(`f${i}`, 6, "2026-11-01T00:00:00.000000"))
    assert.isUndefined(
      selectFacts([...few, fact("low", 4, "2026-11-01T00:00:00.000000"), fact("used", 9, "x", true)], limits)
    )
    assert.strictEqual(selectFacts(few, { min: 4, max: 20 })?.facts.length, 4)
    const many = Array.from({ length: 25 }, (_, i) =>
      fact(`f${String(i).padStart(2, "0")}`, i < 5 ? 9 : 6, `2026-11-${String(1 + i).padStart(2, "0")}T00:00:00.000000`)
    )
    const chosen = selectFacts(many, limits)
    assert.strictEqual(selectFacts(many, { min: 5, max: 7 })?.facts.length, 7)
    assert.strictEqual(chosen?.facts.length, 20)
    assert.includeMembers([...(chosen?.sourceFactIds ?? [])], ["f00", "f04", "f05", "f19"])
    assert.notInclude([...(chosen?.sourceFactIds ?? [])], "f24")
    assert.deepStrictEqual(chosen?.sourceFactIds, [...(chosen?.sourceFactIds ?? [])].sort())
    assert.strictEqual(selectFacts([...many].reverse(), limits)?.id, chosen?.id)
    assert.notStrictEqual(chosen?.backoffKey, chosen?.id)
  })

  it("draws the reflection from the focused facts only: their id, the whole pool's backoff key", () => {
    const pool = Array.from({ length: 30 }, (_, i) => ({
      ...fact(
        `f${String(i).padStart(2, "0")}`,
        5 + (i % 5),
        `2026-11-${String(30 - i).padStart(2, "0")}T00:00:00.000000`
      ),
      text: i % 3 === 0 ? `run ${i}` : `other ${i}`
    }))
    const seen: Array<ReadonlyArray<string>> = []
    const runs = (p: ReadonlyArray<Fact>) => {
      seen.push(p.map((f) => f.id))
      return p.filter((f) => f.text.startsWith("run"))
    }
    const chosen = selectFacts([...pool, fact("gone", 9, "x", true), fact("low", 4, "x")], { min: 5, max: 20 }, runs)
    const related = pool.filter((f) => f.text.startsWith("run")).map((f) => f.id)
    assert.deepStrictEqual(chosen?.sourceFactIds, [...related].sort())
    assert.strictEqual(chosen?.id, reflectionId(related))
    assert.strictEqual(chosen?.backoffKey, reflectionId(pool.map((f) => f.id)))
    assert.deepStrictEqual(
      seen[0],
      [...pool].reverse().map((f) => f.id),
      "the focus sees the pool oldest first"
    )
    assert.strictEqual(selectFacts([...pool].reverse(), { min: 5, max: 20 }, runs)?.id, chosen?.id)
    assert.isUndefined(selectFacts(pool, { min: 5, max: 20 }, (p) => p.slice(0, 4)))
    assert.strictEqual(selectFacts(pool, { min: 5, max: 20 }, (p) => p)?.facts.length, 20)
  })

  it("validates the ontology of a draft", () => {
    const ok = { entity: "master", relation_type: "habit", text: "Alex runs every morning.", temporal_scope: "pattern" }
    assert.deepStrictEqual(validateDraft(ok, heuristic.count, 150), ok)
    assert.deepStrictEqual(validateDraft({ ...ok, entity: "cat" }, heuristic.count, 150), {
      entity: "relationship",
      relation_type: null,
      text: ok.text,
      temporal_scope: null
    })
    assert.strictEqual(validateDraft({ ...ok, relation_type: "learned" }, heuristic.count, 150)?.relation_type, null)
    assert.strictEqual(validateDraft({ ...ok, text: "word ".repeat(200) }, heuristic.count, 150)?.temporal_scope, null)
    assert.isUndefined(validateDraft({ ...ok, text: "  " }, heuristic.count, 150))
  })
})

describe("reflection synthesis in the runtime", () => {
  it.scoped("turns five related facts into one pending reflection with the deterministic id, absorbing only them", () =>
    Effect.gen(function* () {
      const settings = testSettings()
      setPowerful(settings, false)
      const memory = yield* boot(settings)
      for (const line of [
        "I love spicy ramen.",
        "I love sushi.",
        "I enjoy hiking in the Alps.",
        "I work at Nintendo.",
        "I love udon.",
        "I like green tea.",
        "I enjoy baking bread."
      ]) {
        yield* memory.write("cache", "Syn", { messages: [{ role: "user", content: line }] })
      }
      yield* memory.maintainNow("Syn")
      const reflections = JSON.parse(readFileSync(path.join(settings.dataDir, "Syn", "reflections.json"), "utf8"))
      assert.strictEqual(reflections.length, 1)
      const [r] = reflections
      assert.strictEqual(r.status, "pending")
      assert.strictEqual(r.id, reflectionId(r.source_fact_ids))
      const facts: ReadonlyArray<{ id: string; text: string; absorbed: boolean }> = JSON.parse(
        readFileSync(path.join(settings.dataDir, "Syn", "facts.json"), "utf8")
      )
      const byId = new Map(facts.map((f) => [f.id, f.text]))
      assert.sameMembers(
        r.source_fact_ids.map((id: string) => byId.get(id)),
        [
          "Master loves spicy ramen",
          "Master loves sushi",
          "Master loves udon",
          "Master likes green tea",
          "Master enjoys baking bread"
        ]
      )
      assert.match(r.text, /^Master has firm favourites when it comes to food: \w[^:]+, \w[^:]+, and \w[^:]+\.$/)
      assert.deepStrictEqual([r.entity, r.relation_type, r.temporal_scope], ["master", "preference", "pattern"])
      assert.strictEqual(r.event_end_at, null)
      assert.strictEqual(r.reinforcement, 0)
      assert.deepStrictEqual(
        facts
          .filter((f) => !f.absorbed)
          .map((f) => f.text)
          .sort(),
        ["Master enjoys hiking in the Alps", "Master works at Nintendo"]
      )
      assert.deepStrictEqual(yield* memory.reflect("Syn"), Option.none())
      yield* TestClock.adjust("8 days")
      assert.strictEqual((yield* memory.maintainNow("Syn")).reflectionsChanged, 1)
      const counts = yield* memory.funnel("Syn", 0, yield* Clock.currentTimeMillis)
      assert.deepInclude(counts, {
        facts_added: 7,
        reflections_synthesized: 1,
        reflections_confirmed: 1,
        reflections_denied: 0
      })
      assert.strictEqual((yield* memory.funnel("Syn", 1, 2)).facts_added, 0)
    })
  )

  it.scoped("leaves unrelated facts unabsorbed until a later group of five forms", () =>
    Effect.gen(function* () {
      const settings = testSettings()
      setPowerful(settings, false)
      const memory = yield* boot(settings)
      const say = (line: string) => memory.write("cache", "Later", { messages: [{ role: "user", content: line }] })
      for (const line of [
        "I love ramen.",
        "I work at Nintendo.",
        "I love jazz.",
        "I live in Osaka.",
        "I have a cat."
      ]) {
        yield* say(line)
      }
      assert.strictEqual((yield* memory.maintainNow("Later")).reflectionsAdded, 0)
      for (const line of ["I love sushi.", "I love udon.", "I like green tea.", "I love dumplings."]) yield* say(line)
      assert.strictEqual((yield* memory.maintainNow("Later")).reflectionsAdded, 1)
      const facts: ReadonlyArray<{ text: string; absorbed: boolean }> = JSON.parse(
        readFileSync(path.join(settings.dataDir, "Later", "facts.json"), "utf8")
      )
      assert.sameMembers(
        facts.filter((f) => f.absorbed).map((f) => f.text),
        [
          "Master loves ramen",
          "Master loves sushi",
          "Master loves udon",
          "Master likes green tea",
          "Master loves dumplings"
        ]
      )
      assert.strictEqual(facts.filter((f) => !f.absorbed).length, 4)
      assert.strictEqual((yield* memory.maintainNow("Later")).reflectionsAdded, 0)
    })
  )
})

describe("reflection lifecycle in the runtime", () => {
  const planted = (over: Record<string, unknown>) => ({
    id: "ref_0123456789abcdef",
    text: "Alex runs every morning.",
    entity: "master",
    status: "pending",
    source_fact_ids: [],
    created_at: "2026-11-20T12:00:00.000000",
    ...over
  })
  const bootPlanted = (powerful: boolean, reflection: Record<string, unknown>) =>
    Effect.gen(function* () {
      const settings = testSettings()
      setPowerful(settings, powerful)
      const dir = path.join(settings.dataDir, "Life")
      mkdirSync(dir, { recursive: true })
      writeFileSync(path.join(dir, "reflections.json"), JSON.stringify([reflection]))
      yield* TestClock.setTime(new Date(2026, 10, 30, 12).getTime())
      const memory = yield* boot(settings)
      const read = () => JSON.parse(readFileSync(path.join(dir, "reflections.json"), "utf8"))[0]
      // Without the evidence-migration marker startup's persona ensure journals (entity `__meta__`).
      const events = () =>
        readFileSync(path.join(dir, "events.ndjson"), "utf8")
          .split("\n")
          .filter((l) => l.trim() !== "")
          .map((l) => JSON.parse(l))
          .filter((e) => e.payload.entity_key !== "__meta__")
      return { memory, read, events }
    })

  it.scoped("confirms by age with powerful memory off, journaling the transition with the whole record", () =>
    Effect.gen(function* () {
      const { memory, read, events } = yield* bootPlanted(false, planted({}))
      const report = yield* memory.maintainNow("Life")
      assert.strictEqual(report.reflectionsChanged, 1)
      assert.deepStrictEqual([read().status, read().auto_confirmed], ["confirmed", true])
      const [event] = events()
      assert.deepStrictEqual(
        [event.type, event.payload.from, event.payload.to],
        ["reflection.state_changed", "pending", "confirmed"]
      )
      assert.strictEqual(event.payload.entry_snapshot.status, "confirmed")
    })
  )

  it.scoped("confirms by evidence score with powerful memory on, and not below it", () =>
    Effect.gen(function* () {
      const weak = yield* bootPlanted(
        true,
        planted({ reinforcement: 0.9, rein_last_signal_at: "2026-11-30T12:00:00.000000" })
      )
      yield* weak.memory.maintainNow("Life")
      assert.strictEqual(weak.read().status, "pending")
      const strong = yield* bootPlanted(
        true,
        planted({ reinforcement: 1.2, rein_last_signal_at: "2026-11-30T12:00:00.000000" })
      )
      yield* strong.memory.maintainNow("Life")
      assert.deepStrictEqual([strong.read().status, strong.read().auto_confirmed], ["confirmed", false])
    })
  )
})

describe("follow-up topics", () => {
  const r = (id: string, over: Record<string, unknown> = {}) =>
    Schema.decodeUnknownSync(Reflection)({ id, text: `text ${id}`, created_at: "2026-11-30T00:00:00.000000", ...over })

  it("keeps eligible pending reflections with a non-negative score, once per text, and samples above k", () => {
    const now = new Date(2026, 10, 30, 12).getTime()
    const pool = [
      r("a"),
      r("b", { next_eligible_at: "2026-11-30T13:00:00.000000" }),
      r("c", { status: "confirmed" }),
      r("d", { disputation: 5 }),
      r("e", { text: "text  a" }),
      r("f", { next_eligible_at: "not a date" })
    ]
    const picked = eligible(pool, now, (x) => x.reinforcement - x.disputation)
    assert.deepStrictEqual(
      picked.map((p) => p.reflection.id),
      ["a", "f"]
    )
    const many = ["p", "q", "r", "s"].map((id, i) => ({ reflection: r(id), score: i }))
    const weighted = { weighted: true, base: 0.5 }
    assert.deepStrictEqual(
      pickFollowups(many.slice(0, 3), 3, weighted, []).map((x) => x.id),
      ["p", "q", "r"]
    )
    assert.deepStrictEqual(
      pickFollowups(many, 3, weighted, [0.99, 0.01, 0.5, 0.9]).map((x) => x.id),
      ["p", "s", "r"]
    )
    const uniforms = [0.6, 0.5, 0.4, 0.3]
    assert.deepStrictEqual(
      pickFollowups(many, 3, weighted, uniforms).map((x) => x.id),
      ["s", "r", "q"]
    )
    assert.deepStrictEqual(
      pickFollowups(many, 3, { weighted: false, base: 0.5 }, uniforms).map((x) => x.id),
      ["p", "q", "r"]
    )
  })

  it.scoped("records surfaced reflections: cooldown journaled, surfaced.json rows with feedback null", () =>
    Effect.gen(function* () {
      const settings = testSettings()
      const dir = path.join(settings.dataDir, "Surf")
      mkdirSync(dir, { recursive: true })
      writeFileSync(
        path.join(dir, "reflections.json"),
        JSON.stringify([
          { id: "ref_1", text: "Alex likes tea.", status: "pending", created_at: "2026-11-30T00:00:00.000000" }
        ])
      )
      yield* TestClock.setTime(new Date(2026, 10, 30, 12).getTime())
      const memory = yield* boot(settings)
      assert.deepStrictEqual(
        (yield* memory.followupTopics("Surf")).map((x) => x.id),
        ["ref_1"]
      )
      yield* memory.recordSurfaced("Surf", ["ref_1", "ref_unknown"])
      assert.deepStrictEqual(yield* memory.followupTopics("Surf"), [])
      const surfaced = JSON.parse(readFileSync(path.join(dir, "surfaced.json"), "utf8"))
      assert.deepStrictEqual(surfaced, [
        { reflection_id: "ref_1", text: "Alex likes tea.", surfaced_at: "2026-11-30T12:00:00.000000", feedback: null }
      ])
      const saved = JSON.parse(readFileSync(path.join(dir, "reflections.json"), "utf8"))[0]
      assert.strictEqual(saved.next_eligible_at, "2026-11-30T12:30:00.000000")
      yield* TestClock.adjust("31 minutes")
      assert.strictEqual((yield* memory.followupTopics("Surf")).length, 1)
    })
  )
})

describe("from facts to a confirmed reflection", () => {
  it.scoped("synthesises, surfaces, reads the user's confirmation and confirms by score", () =>
    Effect.gen(function* () {
      const settings = testSettings()
      setPowerful(settings, true)
      const memory = yield* boot(settings)
      for (const line of [
        "My name is Alex.",
        "I love ramen.",
        "I love sushi.",
        "I love udon.",
        "I love dumplings.",
        "I like green tea."
      ]) {
        yield* memory.write("cache", "Flow", { messages: [{ role: "user", content: line }] })
      }
      const report = yield* memory.maintainNow("Flow")
      assert.strictEqual(report.reflectionsAdded, 1)
      assert.deepStrictEqual(yield* memory.followupTopics("Flow"), [])
      yield* TestClock.adjust("31 minutes")
      const [topic] = yield* memory.followupTopics("Flow")
      assert.isDefined(topic)
      assert.strictEqual(topic?.status, "pending")
      yield* memory.recordSurfaced("Flow", [topic?.id ?? ""])
      yield* memory.write("cache", "Flow", {
        messages: [
          { role: "assistant", content: "You really love noodles, don't you?" },
          { role: "user", content: "Yes, exactly!" }
        ]
      })
      yield* memory.awaitBackground("Flow")
      yield* memory.status("Flow")
      const saved = JSON.parse(readFileSync(path.join(settings.dataDir, "Flow", "reflections.json"), "utf8"))[0]
      assert.deepStrictEqual([saved.status, saved.feedback, saved.reinforcement], ["confirmed", "confirmed", 1])
      const surfaced = JSON.parse(readFileSync(path.join(settings.dataDir, "Flow", "surfaced.json"), "utf8"))[0]
      assert.strictEqual(surfaced.feedback, "confirmed")
      const counts = yield* memory.funnel("Flow", 0, yield* Clock.currentTimeMillis)
      assert.deepInclude(counts, { reflections_synthesized: 1, reflections_confirmed: 1 })
    })
  )
})
