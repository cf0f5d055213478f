/**
 * Each lifecycle machine walked through a running character actor (real files in a temp dir, TestClock, the
 * scripted or `local` provider), not only through `transition()`: what the machine decides is what lands in
 * the journal and the views, and what the state-chart page reads back.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { tunablesFrom } from "../../src/Config.js"
import { localIso } from "../../src/domain/LocalTime.js"
import * as ScriptedLlm from "../support/ScriptedLlm.js"
import { MemoryService } from "../../src/MemoryService.js"
import * as Startup from "../../src/Startup.js"
import * as Live from "../../src/statecharts/Live.js"
import { boot, setPowerful, testRuntime, testSettings } from "../support/layers.js"

const NOW = new Date(2026, 10, 30, 12).getTime()
const DAY = 86_400_000
const json = (file: string) => JSON.parse(readFileSync(file, "utf8"))
const events = (dir: string): Array<{ type: string; payload: Record<string, unknown> }> =>
  existsSync(path.join(dir, "events.ndjson"))
    ? readFileSync(path.join(dir, "events.ndjson"), "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l))
    : []
const moves = (dir: string, id: string) =>
  events(dir)
    .filter((e) => e.type === "reflection.state_changed" && e.payload["reflection_id"] === id)
    .map((e) => `${String(e.payload["from"])}→${String(e.payload["to"])}`)
const reflection = (id: string, text: string, over: Record<string, unknown> = {}) => ({
  id,
  text,
  entity: "master",
  status: "pending",
  created_at: localIso(NOW - 9 * DAY),
  ...over
})

const plant = (files: { readonly reflections?: ReadonlyArray<unknown>; readonly persona?: unknown }) =>
  Effect.gen(function* () {
    const settings = testSettings()
    setPowerful(settings, false)
    const dir = path.join(settings.dataDir, "Walk")
    mkdirSync(dir, { recursive: true })
    if (files.reflections) writeFileSync(path.join(dir, "reflections.json"), JSON.stringify(files.reflections))
    if (files.persona) writeFileSync(path.join(dir, "persona.json"), JSON.stringify(files.persona))
    yield* TestClock.setTime(NOW)
    const memory = yield* boot(settings)
    const reply = (text: string) =>
      Effect.gen(function* () {
        yield* memory.write("cache", "Walk", {
          messages: [
            { role: "user", content: "hi" },
            { role: "assistant", content: text }
          ]
        })
        yield* memory.awaitBackground("Walk")
        yield* TestClock.adjust("10 minutes")
      })
    const states = Effect.map(
      Effect.suspend(() => Live.entries(dir, tunablesFrom({}), NOW)),
      (all) => Object.fromEntries(all.map((e) => [e.id, e.state]))
    )
    return { settings, dir, memory, reply, states }
  })

describe("the reflection machine through the actor", () => {
  it.scoped("pending → confirmed (by age) → suppressed and lifted while confirmed → denied by hand → archived", () =>
    Effect.gen(function* () {
      const { dir, memory, reply, states } = yield* plant({
        reflections: [reflection("ref_walk", "Master grows tomatoes on the balcony.")]
      })
      yield* memory.maintainNow("Walk")
      const confirmed = json(path.join(dir, "reflections.json"))[0]
      assert.deepStrictEqual([confirmed.status, confirmed.auto_confirmed], ["confirmed", true])
      for (let i = 0; i < 3; i++) yield* reply("How are the tomatoes doing?")
      const suppressed = json(path.join(dir, "reflections.json"))[0]
      assert.deepStrictEqual([suppressed.status, suppressed.suppress], ["confirmed", true])
      yield* TestClock.adjust("5 hours")
      yield* memory.newDialog("Walk")
      const lifted = json(path.join(dir, "reflections.json"))[0]
      assert.deepStrictEqual([lifted.suppress, lifted.suppressed_at, lifted.recent_mentions], [false, null, []])
      const denied = yield* memory.manualAction("Walk", { kind: "reflection", id: "ref_walk", action: "deny" })
      assert.deepStrictEqual(denied, { _tag: "Changed", status: "denied" })
      const again = yield* memory.manualAction("Walk", { kind: "reflection", id: "ref_walk", action: "confirm" })
      assert.deepStrictEqual(again, { _tag: "NotAllowed", status: "denied" })
      yield* TestClock.adjust("31 days")
      yield* memory.maintainNow("Walk")
      assert.deepStrictEqual(json(path.join(dir, "reflections.json")), [])
      assert.strictEqual((yield* states)["ref_walk"], "archived")
      assert.deepStrictEqual(moves(dir, "ref_walk"), ["pending→confirmed", "confirmed→denied", "denied→archived"])
      const updates = events(dir)
        .filter((e) => e.type === "reflection.updated")
        .map((e) => (e.payload["reflection"] as { suppress: boolean }).suppress)
      assert.deepStrictEqual([updates.includes(true), updates[updates.length - 1]], [true, false])
    })
  )
})

describe("the persona machine through the actor", () => {
  it.scoped(
    "suppressed → corrected (lifted) and active → corrected, never suppressed while corrected, resolved → archived",
    () =>
      Effect.gen(function* () {
        const old = { confirmed_at: localIso(NOW - 8 * DAY), status: "confirmed" }
        const { settings, dir, memory, reply, states } = yield* plant({
          reflections: [
            reflection("ref_piano", "Alex plays guitar at big concerts.", old),
            reflection("ref_sold", "Alex sold the vintage cameras.", old)
          ],
          persona: {
            master: {
              facts: [
                { id: "manual_1", text: "Alex plays guitar every weekend evening.", source: "manual" },
                { id: "manual_2", text: "Alex collects vintage cameras.", source: "manual" }
              ]
            }
          }
        })
        for (let i = 0; i < 3; i++) yield* reply("He collects stamps too, right?")
        assert.deepStrictEqual([(yield* states)["manual_1"], (yield* states)["manual_2"]], ["active", "suppressed"])
        yield* memory.maintainNow("Walk")
        const queue = json(path.join(dir, "persona_corrections.json"))
        assert.deepStrictEqual(
          queue.map((c: { old_id: string }) => c.old_id),
          ["manual_1", "manual_2"]
        )
        assert.deepStrictEqual([(yield* states)["manual_1"], (yield* states)["manual_2"]], ["corrected", "corrected"])
        const facts = () => json(path.join(dir, "persona.json")).master.facts
        assert.isFalse(facts()[1].suppress, "a contradiction lifts the suppression")
        assert.deepStrictEqual(
          json(path.join(dir, "reflections.json")).map((r: { status: string }) => r.status),
          ["confirmed", "confirmed"]
        )
        for (let i = 0; i < 4; i++) yield* reply("The weekend was fun.")
        assert.strictEqual(facts()[0].recent_mentions.length, 4)
        assert.isFalse(facts()[0].suppress, "an entry with a queued correction is never suppressed")
        assert.strictEqual((yield* states)["manual_1"], "corrected")
        setPowerful(settings, true)
        yield* reply("Okay.")
        assert.deepStrictEqual(json(path.join(dir, "persona_corrections.json")), [])
        assert.deepStrictEqual(
          facts().map((e: { id: string }) => e.id),
          ["prom_ref_piano", "prom_ref_sold"]
        )
        assert.deepStrictEqual(moves(dir, "ref_piano"), ["confirmed→promoted"])
        assert.deepStrictEqual(moves(dir, "ref_sold"), ["confirmed→promoted"])
        const refused = yield* memory.manualAction("Walk", { kind: "persona", id: "prom_ref_sold", action: "deny" })
        assert.deepStrictEqual(refused, { _tag: "NotAllowed", status: "active" })
        const archived = yield* memory.manualAction("Walk", { kind: "persona", id: "prom_ref_sold", action: "archive" })
        assert.deepStrictEqual(archived, { _tag: "Changed", status: "archived" })
        assert.deepStrictEqual(
          facts().map((e: { id: string }) => e.id),
          ["prom_ref_piano"]
        )
        assert.strictEqual((yield* states)["prom_ref_sold"], "archived")
        assert.isAbove(readdirSync(path.join(dir, "persona_archive")).length, 0)
      })
  )
})

describe("the recent machine through the actor", () => {
  it.scoped(
    "idle → compressing → reviewing → backoff … dead_letter → (self-heal) compressing → idle → reviewing → idle",
    () =>
      Effect.gen(function* () {
        const scripted = yield* ScriptedLlm.make
        const rt = testRuntime({
          llm: scripted.layer,
          tunables: { actor_idle_ttl_seconds: 86_400, memory_dead_letter_self_heal_seconds: 600 }
        })
        const ctx = yield* Layer.build(rt.layer)
        yield* Effect.provide(Startup.recover, ctx)
        const memory = yield* Effect.provide(MemoryService, ctx)
        const recent = Effect.map(memory.status("Rec"), (s) => s.recent)
        yield* scripted.script.push(
          "recent.summary",
          ...Array.from({ length: 5 }, () => ({ fail: "timeout" as const }))
        )
        assert.strictEqual(yield* memory.write("cache", "Rec", { messages: [] }), 0)
        assert.isFalse(
          existsSync(path.join(rt.settings.dataDir, "Rec", "events.ndjson")),
          "an empty /cache persists nothing"
        )
        const turns = Array.from({ length: 21 }, (_, i) => ({
          role: i % 2 === 0 ? "user" : "assistant",
          content: `t${i}`
        }))
        yield* memory.write("cache", "Rec", { messages: turns })
        assert.strictEqual(yield* recent, "idle")
        yield* memory.write("process", "Rec", { messages: [] })
        // The process also offered a review (no scripted answer: it fails); the lifecycle returns to its backoff.
        assert.strictEqual(yield* recent, "reviewing")
        yield* memory.awaitBackground("Rec")
        assert.strictEqual(yield* recent, "backoff")
        // Backup retries (30 s, 60 s, …) and the idle check retry the same snapshot until it is dead-lettered.
        for (const delay of ["30 seconds", "60 seconds", "120 seconds", "240 seconds"] as const) {
          yield* TestClock.adjust(delay)
          yield* memory.awaitBackground("Rec")
        }
        const summaries = Effect.map(scripted.script.requests, (all) => all.filter((r) => r.task === "recent.summary"))
        assert.strictEqual((yield* summaries).length, 5)
        assert.strictEqual(yield* recent, "dead_letter")
        yield* scripted.script.push("recent.summary", { answer: JSON.stringify({ summary: "healed." }) })
        yield* TestClock.adjust("600 seconds")
        yield* memory.awaitBackground("Rec")
        assert.strictEqual(yield* recent, "idle")
        const file = path.join(rt.settings.dataDir, "Rec", "recent.json")
        assert.strictEqual(json(file)[0].data.content, "Memo from prior conversations: healed.")
        yield* scripted.script.push("recent.review", {
          answer: JSON.stringify({ explanation: "", corrected_dialogue: [] }),
          delay: "1 minute"
        })
        yield* memory.write("process", "Rec", { messages: [{ role: "user", content: "one more" }] })
        assert.strictEqual(yield* recent, "reviewing")
        assert.strictEqual(yield* memory.cancelCorrection("Rec"), "cancelled")
        assert.strictEqual(yield* recent, "idle")
        assert.strictEqual(yield* memory.cancelCorrection("Rec"), "no_task")
      })
  )
})
