import { assert, describe, it } from "@effect/vitest"
import { Effect, Option, TestClock } from "effect"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import * as ScriptedLlm from "../support/ScriptedLlm.js"
import { boot, setPowerful, testSettings } from "../support/layers.js"

const NOW = new Date(2026, 10, 30, 12).getTime()
const json = (file: string) => JSON.parse(readFileSync(file, "utf8"))
const reflection = (over: Record<string, unknown>) => ({
  id: "ref_00000000000000aa",
  text: "Master loves ramen and udon.",
  entity: "master",
  status: "pending",
  created_at: "2026-11-30T12:00:00.000000",
  ...over
})
const entry = (id: string, text: string, over: Record<string, unknown> = {}) => ({
  id,
  text,
  source: "manual",
  ...over
})

const plant = (
  powerful: boolean,
  files: {
    readonly reflections?: ReadonlyArray<Record<string, unknown>>
    readonly persona?: Record<string, unknown>
    readonly characters?: Record<string, unknown>
  },
  llm?: Awaited<Effect.Effect.Success<typeof ScriptedLlm.make>>["layer"]
) =>
  Effect.gen(function* () {
    const settings = testSettings()
    setPowerful(settings, powerful)
    const dir = path.join(settings.dataDir, "Life")
    mkdirSync(dir, { recursive: true })
    if (files.reflections) writeFileSync(path.join(dir, "reflections.json"), JSON.stringify(files.reflections))
    if (files.persona) writeFileSync(path.join(dir, "persona.json"), JSON.stringify(files.persona))
    if (files.characters)
      writeFileSync(path.join(settings.configDir, "characters.json"), JSON.stringify(files.characters))
    yield* TestClock.setTime(NOW)
    const memory = yield* boot(settings, llm ? { llm } : {})
    const reflections = () => json(path.join(dir, "reflections.json"))
    const persona = () => json(path.join(dir, "persona.json"))
    const say = (...lines: ReadonlyArray<readonly [role: "user" | "assistant", text: string]>) =>
      Effect.gen(function* () {
        yield* memory.write("cache", "Life", { messages: lines.map(([role, content]) => ({ role, content })) })
        yield* memory.awaitBackground("Life")
        yield* memory.status("Life")
      })
    return { settings, memory, dir, reflections, persona, say }
  })

describe("promotion with powerful memory off (time-driven)", () => {
  it.scoped("confirms after 7 days, promotes 7 days later into persona as reflection_time_driven", () =>
    Effect.gen(function* () {
      const { memory, reflections, persona } = yield* plant(false, {
        reflections: [reflection({ created_at: "2026-11-22T12:00:00.000000" })]
      })
      yield* memory.maintainNow("Life")
      assert.deepStrictEqual([reflections()[0].status, reflections()[0].auto_confirmed], ["confirmed", true])
      yield* TestClock.adjust("6 days")
      yield* memory.maintainNow("Life")
      assert.strictEqual(reflections()[0].status, "confirmed")
      yield* TestClock.adjust("1 day")
      yield* memory.maintainNow("Life")
      assert.strictEqual(reflections()[0].status, "promoted")
      const added = persona().master.facts.find((e: { id: string }) => e.id === "prom_ref_00000000000000aa")
      assert.deepStrictEqual([added.source, added.text], ["reflection_time_driven", "Master loves ramen and udon."])
      assert.include(
        yield* memory.newDialog("Life", { language: "en" }),
        "### About Master\n- Master loves ramen and udon."
      )
    })
  )

  it.scoped("switching ON→OFF resets confirmed_at, so old confirmations are not promoted at once", () =>
    Effect.gen(function* () {
      const old = reflection({ status: "confirmed", confirmed_at: "2026-11-10T12:00:00.000000" })
      const { settings, memory, reflections } = yield* plant(true, { reflections: [old] })
      assert.strictEqual(yield* memory.resetConfirmedAt, 1)
      setPowerful(settings, false)
      yield* memory.maintainNow("Life")
      assert.deepStrictEqual(
        [reflections()[0].status, reflections()[0].confirmed_at],
        ["confirmed", "2026-11-30T12:00:00.000000"]
      )
      const unreset = yield* plant(false, { reflections: [old] })
      yield* unreset.memory.maintainNow("Life")
      assert.strictEqual(unreset.reflections()[0].status, "promoted")
    })
  )

  it.scoped("a reflection colliding with a character-card line is denied", () =>
    Effect.gen(function* () {
      const { memory, reflections, persona } = yield* plant(false, {
        reflections: [reflection({ status: "confirmed", confirmed_at: "2026-11-20T12:00:00.000000" })],
        characters: { 主人: { 档案名: "Alex", hobby: "ramen and udon" }, 猫娘: { Life: { 性格: "温柔" } } }
      })
      yield* memory.maintainNow("Life")
      const [r] = reflections()
      assert.strictEqual(r.status, "denied")
      assert.match(r.denied_reason, /^rejected_by_persona_add:card_[0-9a-f]{8}$/)
      assert.deepStrictEqual(
        persona().master.facts.map((e: { text: string; protected: boolean }) => [e.text, e.protected]),
        [
          ["档案名: Alex", true],
          ["hobby: ramen and udon", true]
        ]
      )
      assert.deepStrictEqual(
        persona().neko.facts.map((e: { text: string }) => e.text),
        ["性格: 温柔"]
      )
    })
  )
})

describe("promotion with powerful memory on (score-driven)", () => {
  const strong = { status: "confirmed", reinforcement: 2.5, rein_last_signal_at: "2026-11-30T12:00:00.000000" }

  it.scoped("merges into an overlapping persona entry: text rewritten, old version kept, reflection merged", () =>
    Effect.gen(function* () {
      const { memory, reflections, persona } = yield* plant(true, {
        reflections: [reflection({ ...strong, text: "Alex plays guitar at concerts." })],
        persona: { master: { facts: [entry("manual_1", "Alex plays guitar every weekend.", { reinforcement: 1 })] } }
      })
      yield* memory.maintainNow("Life")
      const [r] = reflections()
      assert.deepStrictEqual([r.status, r.absorbed_into], ["merged", "manual_1"])
      const [e] = persona().master.facts
      assert.notStrictEqual(e.text, "Alex plays guitar every weekend.")
      assert.include(e.text, "concerts")
      assert.deepStrictEqual(e.merged_from_ids, [r.id])
      assert.strictEqual(e.version_history[0].text, "Alex plays guitar every weekend.")
      assert.strictEqual(e.reinforcement, 2.5)
      assert.strictEqual(r.promote_attempt_count, 1)
    })
  )

  it.scoped("a partial collision queues a correction; resolving it (newer wins) promotes the reflection", () =>
    Effect.gen(function* () {
      const { memory, dir, reflections, persona } = yield* plant(true, {
        reflections: [reflection({ ...strong, text: "Alex plays piano at big concerts." })],
        persona: { master: { facts: [entry("manual_1", "Alex plays guitar every weekend evening.")] } }
      })
      yield* memory.maintainNow("Life")
      assert.strictEqual(reflections()[0].status, "promoted")
      const texts = persona().master.facts.map((e: { text: string }) => e.text)
      assert.deepStrictEqual(texts, ["Alex plays piano at big concerts."])
      assert.deepStrictEqual(json(path.join(dir, "persona_corrections.json")), [])
      const events = readFileSync(path.join(dir, "events.ndjson"), "utf8")
      assert.include(events, '"type":"correction.queued"')
      assert.include(events, '"type":"correction.resolved"')
    })
  )

  it.scoped("/reflect also runs the promotion pass after answering", () =>
    Effect.gen(function* () {
      const { memory, reflections } = yield* plant(true, { reflections: [reflection({ ...strong })] })
      assert.isTrue(Option.isNone(yield* memory.reflect("Life")))
      yield* memory.status("Life")
      assert.strictEqual(reflections()[0].status, "promoted")
    })
  )

  it.scoped("no attempt within 30 minutes of the last; after 5 attempts the reflection is promote_blocked", () =>
    Effect.gen(function* () {
      const recent = { promote_attempt_count: 4, last_promote_attempt_at: "2026-11-30T11:50:00.000000" }
      const waiting = yield* plant(true, { reflections: [reflection({ ...strong, ...recent })] })
      yield* waiting.memory.maintainNow("Life")
      assert.deepStrictEqual(
        [waiting.reflections()[0].status, waiting.reflections()[0].promote_attempt_count],
        ["confirmed", 4]
      )
      const spent = yield* plant(true, { reflections: [reflection({ ...strong, promote_attempt_count: 5 })] })
      yield* spent.memory.maintainNow("Life")
      assert.deepStrictEqual(
        [spent.reflections()[0].status, spent.reflections()[0].promote_blocked_reason],
        ["promote_blocked", "llm_unavailable"]
      )
    })
  )
})

describe("merge-on-promote with a model", () => {
  const strong = { status: "confirmed", reinforcement: 2.5, rein_last_signal_at: "2026-11-30T12:00:00.000000" }
  const persona = { master: { facts: [entry("manual_1", "Alex plays guitar.")] } }

  it.scoped("a failed call counts an attempt; the next one, 30 minutes later, merges as the model says", () =>
    Effect.gen(function* () {
      const scripted = yield* ScriptedLlm.make
      const life = yield* plant(true, { reflections: [reflection({ ...strong })], persona }, scripted.layer)
      yield* scripted.script.push("reflection.promotion_merge", { fail: "timeout" })
      yield* life.memory.maintainNow("Life")
      assert.deepStrictEqual(
        [life.reflections()[0].status, life.reflections()[0].promote_attempt_count],
        ["confirmed", 1]
      )
      const answer = { action: "merge_into", target_id: "manual_1", merged_text: "Alex plays guitar and loves ramen." }
      yield* scripted.script.push("reflection.promotion_merge", { answer: JSON.stringify(answer) })
      yield* TestClock.adjust("29 minutes")
      yield* life.memory.maintainNow("Life")
      assert.strictEqual(life.reflections()[0].promote_attempt_count, 1)
      yield* TestClock.adjust("1 minute")
      yield* life.memory.maintainNow("Life")
      assert.deepStrictEqual([life.reflections()[0].status, life.reflections()[0].promote_attempt_count], ["merged", 2])
      assert.strictEqual(life.persona().master.facts[0].text, "Alex plays guitar and loves ramen.")
      const prompts = (yield* scripted.script.requests).filter((r) => r.task === "reflection.promotion_merge")
      assert.strictEqual(prompts.length, 2)
      assert.include(prompts[0]?.messages[0]?.content ?? "", "[manual_1] Alex plays guitar.")
    })
  )

  it.scoped("a rejection denies the reflection with the model's reason", () =>
    Effect.gen(function* () {
      const scripted = yield* ScriptedLlm.make
      const life = yield* plant(true, { reflections: [reflection({ ...strong })], persona }, scripted.layer)
      yield* scripted.script.push("reflection.promotion_merge", {
        answer: '{"action": "reject", "reason": "already known"}'
      })
      yield* life.memory.maintainNow("Life")
      const [r] = life.reflections()
      assert.deepStrictEqual(
        [r.status, r.denied_reason, r.reject_reason],
        ["denied", "llm_merge_rejected", "already known"]
      )
    })
  )
})

describe("user signals with powerful memory on", () => {
  it.scoped("the rebuttal loop denies a confirmed reflection the user contradicts, without disputation", () =>
    Effect.gen(function* () {
      const { memory, reflections, say } = yield* plant(true, {
        reflections: [
          reflection({ status: "confirmed", reinforcement: 1.2, rein_last_signal_at: "2026-11-30T12:00:00.000000" })
        ]
      })
      yield* say(["user", "No, that's not true at all."])
      yield* TestClock.adjust("1 minute")
      yield* memory.maintainNow("Life")
      const [r] = reflections()
      assert.deepStrictEqual([r.status, r.denied_reason, r.disputation], ["denied", "rebuttal", 0])
    })
  )

  it.scoped("asking to stop mentioning something disputes the observation it is about", () =>
    Effect.gen(function* () {
      const { reflections, say } = yield* plant(true, { reflections: [reflection({})] })
      yield* say(["user", "Please stop mentioning ramen."])
      const [r] = reflections()
      assert.strictEqual(r.disputation, 1)
      assert.strictEqual(r.disp_last_signal_at, "2026-11-30T12:00:00.000000")
    })
  )

  it.scoped("an entry mentioned three times in five hours is only shown as do-not-raise, until 5 h pass", () =>
    Effect.gen(function* () {
      const { memory, persona, say } = yield* plant(false, {
        persona: { master: { facts: [entry("manual_1", "Alex collects vintage cameras.")] } }
      })
      for (let i = 0; i < 3; i++) {
        yield* say(["user", "hi"], ["assistant", "How are your vintage cameras doing?"])
        yield* TestClock.adjust("10 minutes")
      }
      const [e] = persona().master.facts
      assert.deepStrictEqual([e.suppress, e.recent_mentions.length], [true, 3])
      const dialog = yield* memory.newDialog("Life", { language: "en" })
      assert.include(
        dialog,
        "### Mentioned a lot lately: do not bring these up unprompted\n- Alex collects vintage cameras."
      )
      assert.notInclude(dialog, "### About Master")
      yield* TestClock.adjust("5 hours")
      assert.include(
        yield* memory.newDialog("Life", { language: "en" }),
        "### About Master\n- Alex collects vintage cameras."
      )
      assert.deepStrictEqual(
        [persona().master.facts[0].suppress, persona().master.facts[0].recent_mentions],
        [false, []]
      )
    })
  )
})

describe("the one-shot evidence migration", () => {
  it.scoped("seeds legacy reflections by status once and leaves the marker in __meta__", () =>
    Effect.gen(function* () {
      const legacy = (id: string, status: string) => reflection({ id, status })
      const { memory, dir, reflections } = yield* plant(true, {
        reflections: [legacy("ref_p", "promoted"), legacy("ref_c", "confirmed"), legacy("ref_d", "denied")]
      })
      const persona = yield* memory.persona("Life")
      assert.deepStrictEqual(
        persona["__meta__"]?.facts.map((e) => [e.id, e.protected, e.text]),
        [["__evidence_migration_v1__", true, ""]]
      )
      assert.deepStrictEqual(
        reflections().map((r: { reinforcement: number; disputation: number }) => [r.reinforcement, r.disputation]),
        [
          [2, 0],
          [1, 0],
          [0, 2]
        ]
      )
      const before = readFileSync(path.join(dir, "events.ndjson"), "utf8")
      yield* memory.persona("Life")
      assert.strictEqual(readFileSync(path.join(dir, "events.ndjson"), "utf8"), before)
    })
  )
})
