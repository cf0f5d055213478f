/**
 * The lifecycle of group-chat reflections: synthesised `confirmed` (auto, reinforcement 0.1), promoted by age
 * alone into the subject's `@subject/…` persona section whatever the powerful switch says, shown by
 * `scoped_context` afterwards, dropped whole by `scoped_forget`; never mixed with private reflections or
 * sections either way (a partial stamp moves nowhere); card clashes deny, clashes with the subject's own
 * entries queue a stamped correction; a promotion interrupted after its persona write finishes without a
 * second entry; private evidence never reaches a subject's entries; suppressions lift after the cooldown.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, type Layer, TestClock } from "effect"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { makeSubject, personaSectionKey, subjectFields, type MemorySubject } from "../../src/domain/Subject.js"
import { newEntry } from "../../src/persona/Persona.js"
import { entryLine, PERSONA_FACT_ADDED } from "../../src/persona/PersonaEvent.js"
import { boot, setPowerful, testSettings } from "../support/layers.js"
import { MIGRATED } from "../support/crashReplay.js"
import * as ScriptedLlm from "../support/ScriptedLlm.js"
import type { LlmClient } from "../../src/llm/LlmClient.js"

const NOW = new Date(2026, 10, 30, 12).getTime()
const DAY = "T12:00:00.000000"
const subject = (kind: string, id: string, scope?: string): MemorySubject =>
  Either.getOrThrow(makeSubject(kind, id, scope))
const GROUP = subject("group_chat", "qq:100")
const OTHER = subject("group_chat", "qq:200")
const SECTION = personaSectionKey(GROUP)
const json = (file: string) => JSON.parse(readFileSync(file, "utf8"))

const reflection = (id: string, text: string, over: Record<string, unknown> = {}) => ({
  id,
  text,
  entity: "group_chat",
  status: "confirmed",
  created_at: `2026-11-20${DAY}`,
  confirmed_at: `2026-11-20${DAY}`,
  reinforcement: 0.1,
  rein_last_signal_at: `2026-11-20${DAY}`,
  ...over
})
const scoped = (s: MemorySubject, id: string, text: string, over: Record<string, unknown> = {}) =>
  reflection(id, text, { ...subjectFields(s), entity: s.kind, ...over })

const plant = (
  powerful: boolean,
  files: { readonly reflections?: ReadonlyArray<unknown>; readonly persona?: Record<string, unknown> } = {},
  extra: (dir: string) => void = () => {},
  llm?: Layer.Layer<LlmClient>
) =>
  Effect.gen(function* () {
    const settings = testSettings()
    setPowerful(settings, powerful)
    const dir = path.join(settings.dataDir, "Grp")
    mkdirSync(dir, { recursive: true })
    if (files.reflections) writeFileSync(path.join(dir, "reflections.json"), JSON.stringify(files.reflections))
    writeFileSync(path.join(dir, "persona.json"), JSON.stringify({ __meta__: MIGRATED, ...files.persona }))
    extra(dir)
    yield* TestClock.setTime(NOW)
    const memory = yield* boot(settings, llm ? { llm } : {})
    const reflections = (): ReadonlyArray<Record<string, unknown>> => json(path.join(dir, "reflections.json"))
    type Section = Readonly<Record<string, unknown>> & { readonly facts: ReadonlyArray<Record<string, unknown>> }
    const persona = (): Record<string, Section> => json(path.join(dir, "persona.json"))
    const byId = (id: string) => reflections().find((r) => r["id"] === id)
    return { settings, memory, dir, reflections, persona, byId }
  })

const hiking = [
  "Alice loves hiking in the mountains",
  "Bob loves hiking in the mountains every summer",
  "Carla loves hiking in the mountains with her dog",
  "Dana loves hiking in the mountains near the lake",
  "Emil loves hiking in the mountains at dawn"
]

describe("group-chat reflection lifecycle", () => {
  it.scoped("confirmed at synthesis, promoted by age into the subject's section, shown, then forgotten whole", () =>
    Effect.gen(function* () {
      const { memory, dir, reflections, persona } = yield* plant(true)
      yield* memory.write("cache", "Grp", { messages: [{ role: "user", content: "I love spicy ramen." }] })
      yield* memory.scopedWrite("Grp", [
        {
          subject: GROUP,
          candidates: hiking.map((text) => ({ text, importance: 6, source: "user_observation" as const }))
        }
      ])
      yield* memory.maintainNow("Grp")
      const [r] = reflections().filter((x) => x["subject_id"] === "qq:100")
      assert.isDefined(r)
      if (r === undefined) return
      assert.deepStrictEqual(
        [r["status"], r["auto_confirmed"], r["confirmed_at"], r["reinforcement"], r["scope"]],
        ["confirmed", true, `2026-11-30${DAY}`, 0.1, "group_chat:qq:100"]
      )
      const text = String(r["text"])
      assert.include(yield* memory.scopedContext("Grp", [GROUP], "en"), text)

      yield* TestClock.adjust("6 days")
      yield* memory.maintainNow("Grp")
      assert.strictEqual(reflections().find((x) => x["id"] === r["id"])?.["status"], "confirmed")
      assert.notProperty(persona(), SECTION)

      yield* TestClock.adjust("1 day")
      yield* memory.maintainNow("Grp")
      assert.strictEqual(reflections().find((x) => x["id"] === r["id"])?.["status"], "promoted")
      const section = persona()[SECTION]
      assert.deepInclude(section, { subject_kind: "group_chat", subject_id: "qq:100", scope: "group_chat:qq:100" })
      assert.strictEqual(section?.["entity"], "group_chat")
      assert.deepStrictEqual(
        section?.facts.map((e) => [e["id"], e["text"], e["source"], e["source_id"], e["subject_id"], e["scope"]]),
        [[`prom_${r["id"]}`, text, "reflection_time_driven", r["id"], "qq:100", "group_chat:qq:100"]]
      )
      for (const key of ["master", "neko", "relationship"])
        assert.isFalse(JSON.stringify(persona()[key] ?? {}).includes(text), `nothing in ${key}`)
      const context = yield* memory.scopedContext("Grp", [GROUP], "en")
      assert.include(context, `- ${text}`, "the promoted entry renders")
      assert.notInclude(yield* memory.scopedContext("Grp", [OTHER], "en"), text)
      assert.notInclude(yield* memory.newDialog("Grp", { language: "en" }), text)

      yield* TestClock.adjust("8 days")
      yield* memory.maintainNow("Grp")
      assert.strictEqual(persona()[SECTION]?.facts.length, 1, "promoted once")

      const stats = yield* memory.scopedForget("Grp", GROUP)
      assert.deepInclude(stats, { persona_entries: 1, persona_section_dropped: true, reflections: 1 })
      assert.notProperty(persona(), SECTION)
      for (const file of ["persona.json", "reflections.json", "facts.json"])
        assert.notInclude(readFileSync(path.join(dir, file), "utf8"), "hiking", file)
      assert.include(readFileSync(path.join(dir, "facts.json"), "utf8"), "ramen")
      assert.strictEqual(yield* memory.scopedContext("Grp", [GROUP], "en"), "")
    })
  )

  it.scoped("keeps private and group-chat lifecycles apart; a partial stamp moves nowhere", () =>
    Effect.gen(function* () {
      const { memory, byId, persona, reflections } = yield* plant(false, {
        reflections: [
          reflection("ref_private000000001", "Master loves ramen and udon.", { entity: "master" }),
          scoped(GROUP, "ref_group0000000001", "The group plans a ski trip in January."),
          scoped(OTHER, "ref_other0000000001", "The orchestra rehearses on Fridays."),
          reflection("ref_broken000000001", "A half-stamped row about chess.", { subject_kind: "group_chat" }),
          scoped(GROUP, "ref_group0000000002", "The group argued about pizza toppings.", {
            status: "promoted",
            promoted_at: `2026-10-20${DAY}`
          })
        ]
      })
      yield* memory.maintainNow("Grp")
      assert.strictEqual(byId("ref_private000000001")?.["status"], "promoted")
      assert.strictEqual(byId("ref_group0000000001")?.["status"], "promoted")
      assert.strictEqual(byId("ref_other0000000001")?.["status"], "promoted")
      assert.strictEqual(byId("ref_broken000000001")?.["status"], "confirmed", "fail-closed")
      assert.isUndefined(byId("ref_group0000000002"), "a promoted group row leaves after 30 days, as a private one")
      const p = persona()
      assert.deepStrictEqual(
        p["master"]?.facts.map((e) => e["id"]),
        ["prom_ref_private000000001"]
      )
      assert.deepStrictEqual(
        p[SECTION]?.facts.map((e) => e["id"]),
        ["prom_ref_group0000000001"]
      )
      assert.deepStrictEqual(
        p[personaSectionKey(OTHER)]?.facts.map((e) => e["id"]),
        ["prom_ref_other0000000001"]
      )
      assert.notInclude(JSON.stringify(p), "chess")
      assert.isTrue(reflections().every((r) => r["status"] !== "archived"))
    })
  )

  it.scoped("with powerful memory on, group rows still move by age; the ON→OFF reset leaves them alone", () =>
    Effect.gen(function* () {
      const { memory, byId, persona } = yield* plant(true, {
        reflections: [
          reflection("ref_private000000001", "Master loves ramen and udon.", { entity: "master", reinforcement: 0 }),
          scoped(GROUP, "ref_group0000000001", "The group plans a ski trip in January."),
          scoped(GROUP, "ref_group0000000003", "The group meets on Sundays.", {
            status: "pending",
            confirmed_at: undefined,
            reinforcement: 0
          })
        ]
      })
      assert.strictEqual(yield* memory.resetConfirmedAt, 1, "only the private row is reset")
      yield* memory.maintainNow("Grp")
      assert.strictEqual(byId("ref_private000000001")?.["status"], "confirmed", "score 0 promotes nothing")
      assert.deepStrictEqual(
        [byId("ref_group0000000003")?.["status"], byId("ref_group0000000003")?.["auto_confirmed"]],
        ["confirmed", true]
      )
      assert.strictEqual(byId("ref_group0000000001")?.["status"], "promoted")
      assert.deepStrictEqual(
        persona()[SECTION]?.facts.map((e) => e["id"]),
        ["prom_ref_group0000000001"]
      )
      assert.deepStrictEqual(persona()["master"]?.facts ?? [], [])
    })
  )

  it.scoped(
    "a character-card clash denies; another domain's entry is no clash; its own entry queues a correction",
    () =>
      Effect.gen(function* () {
        const entry = (id: string, text: string, s?: MemorySubject) => ({
          ...newEntry({ id, text, source: "manual", createdAt: `2026-11-01${DAY}` }),
          ...(s === undefined ? {} : subjectFields(s))
        })
        const { memory, byId, persona, dir, settings } = yield* plant(
          false,
          {
            reflections: [
              scoped(GROUP, "ref_group0000000001", "The group likes ramen and udon a lot."),
              scoped(GROUP, "ref_group0000000002", "The group plans a ski trip in January."),
              scoped(OTHER, "ref_other0000000001", "The orchestra rehearses every Friday evening.")
            ],
            persona: {
              master: { facts: [entry("manual_1", "The orchestra rehearses every Friday evening.")] },
              [SECTION]: { facts: [entry("manual_2", "The group plans a ski trip in February.", GROUP)] },
              [personaSectionKey(OTHER)]: {
                facts: [
                  entry(
                    "manual_3",
                    "The orchestra rehearses every Friday evening.",
                    subject("group_chat", "qq:200", "custom")
                  )
                ]
              }
            }
          },
          (dir) =>
            writeFileSync(
              path.join(path.dirname(path.dirname(dir)), "config", "characters.json"),
              JSON.stringify({ 主人: { 档案名: "Alex", food: "ramen and udon" }, 猫娘: { Grp: { 性格: "温柔" } } })
            )
        )
        yield* memory.maintainNow("Grp")
        assert.deepStrictEqual(
          [byId("ref_group0000000001")?.["status"], byId("ref_group0000000001")?.["denied_reason"]],
          ["denied", "rejected_by_persona_card_time_driven"]
        )
        assert.strictEqual(byId("ref_other0000000001")?.["status"], "promoted", "other scopes and private are no clash")
        assert.strictEqual(byId("ref_group0000000002")?.["status"], "confirmed", "waits on its correction")
        const [c, ...more] = json(path.join(dir, "persona_corrections.json"))
        assert.strictEqual(more.length, 0)
        assert.deepInclude(c, {
          old_id: "manual_2",
          entity: SECTION,
          new_source: "reflection_time_driven",
          new_source_id: "ref_group0000000002",
          subject_kind: "group_chat",
          subject_id: "qq:100",
          scope: "group_chat:qq:100"
        })
        yield* memory.maintainNow("Grp")
        assert.strictEqual(json(path.join(dir, "persona_corrections.json")).length, 1, "not queued twice")
        assert.notInclude(JSON.stringify(persona()[SECTION]), "ramen")

        setPowerful(settings, true)
        yield* memory.maintainNow("Grp")
        assert.deepStrictEqual(json(path.join(dir, "persona_corrections.json")), [], "resolved (keep_new)")
        assert.strictEqual(byId("ref_group0000000002")?.["status"], "promoted")
        assert.deepStrictEqual(
          persona()[SECTION]?.facts.map((e) => [e["id"], e["text"], e["subject_id"], e["scope"]]),
          [["prom_ref_group0000000002", "The group plans a ski trip in January.", "qq:100", "group_chat:qq:100"]]
        )
        assert.notInclude(JSON.stringify(persona()["master"]), "January")
      })
  )

  it.scoped("a promotion whose persona write was journaled before a crash finishes once, with no correction", () =>
    Effect.gen(function* () {
      const rid = "ref_group0000000001"
      const text = "The group plans a ski trip in January."
      const { memory, byId, persona, dir } = yield* plant(true, { reflections: [scoped(GROUP, rid, text)] }, (dir) => {
        const written = {
          ...newEntry({
            id: "manual_20261129080000_0a1b2c3d",
            text,
            source: "reflection_time_driven",
            sourceId: rid,
            createdAt: `2026-11-29${DAY}`
          }),
          ...subjectFields(GROUP)
        }
        const line = entryLine(
          "7f2c1a4e-0000-4000-8000-000000000001",
          PERSONA_FACT_ADDED,
          SECTION,
          written,
          written.created_at ?? "",
          {
            source: "reflection_time_driven",
            section_fields: { ...subjectFields(GROUP), entity: "group_chat" }
          }
        )
        writeFileSync(path.join(dir, "events.ndjson"), JSON.stringify(line) + "\n")
        writeFileSync(
          path.join(dir, "events_applied.json"),
          JSON.stringify({ last_applied_event_id: null, ts: `2026-11-29${DAY}` })
        )
      })
      yield* memory.status("Grp")
      assert.deepInclude(persona()[SECTION], { subject_id: "qq:100", entity: "group_chat" }, "replayed with its stamp")
      yield* memory.maintainNow("Grp")
      assert.strictEqual(byId(rid)?.["status"], "promoted")
      assert.deepStrictEqual(
        persona()[SECTION]?.facts.map((e) => e["id"]),
        ["manual_20261129080000_0a1b2c3d"]
      )
      assert.isFalse(existsSync(path.join(dir, "persona_corrections.json")))
    })
  )

  it.scoped(
    "private evidence never reaches a subject's entries: the negative-keyword hook sees private ones only",
    () =>
      Effect.gen(function* () {
        const { script, layer } = yield* ScriptedLlm.make
        const answer = JSON.stringify({
          targets: [
            { target_type: "persona", target_id: "manual_g", reason: "asked" },
            { target_type: "persona", target_id: "manual_p", reason: "asked" }
          ]
        })
        yield* script.push("evidence.negative_target", { answer })
        const mine = {
          ...newEntry({
            id: "manual_g",
            text: "The group adores karaoke nights.",
            source: "manual",
            createdAt: `2026-11-01${DAY}`
          }),
          ...subjectFields(GROUP)
        }
        const { memory, persona } = yield* plant(
          true,
          {
            persona: {
              master: {
                facts: [
                  newEntry({
                    id: "manual_p",
                    text: "Master adores karaoke nights.",
                    source: "manual",
                    createdAt: `2026-11-01${DAY}`
                  })
                ]
              },
              [SECTION]: { facts: [mine] }
            }
          },
          () => {},
          layer
        )
        yield* memory.write("cache", "Grp", {
          messages: [
            { role: "user", content: "Please stop mentioning karaoke." },
            { role: "assistant", content: "Okay." }
          ]
        })
        yield* memory.awaitBackground("Grp")
        yield* memory.status("Grp")
        const asked = (yield* script.requests).filter((r) => r.task === "evidence.negative_target")
        assert.strictEqual(asked.length, 1)
        assert.include(JSON.stringify(asked[0]), "Master adores karaoke nights.")
        assert.notInclude(JSON.stringify(asked[0]), "The group adores karaoke nights.")
        assert.strictEqual(persona()["master"]?.facts[0]?.["disputation"], 1)
        assert.strictEqual(persona()[SECTION]?.facts[0]?.["disputation"], 0)
      })
  )

  it.scoped("a subject's suppressed reflection is lifted after the cooldown, as a private one", () =>
    Effect.gen(function* () {
      const quiet = { suppress: true, suppressed_at: `2026-11-30T06:00:00.000000`, confirmed_at: `2026-11-29${DAY}` }
      const { memory, byId } = yield* plant(false, {
        reflections: [scoped(GROUP, "ref_group0000000001", "The group plans a ski trip in January.", quiet)]
      })
      assert.notInclude(yield* memory.scopedContext("Grp", [GROUP], "en"), "- The group plans a ski trip")
      yield* memory.newDialog("Grp", { language: "en" })
      assert.deepStrictEqual(
        [byId("ref_group0000000001")?.["suppress"], byId("ref_group0000000001")?.["status"]],
        [false, "confirmed"]
      )
      assert.include(yield* memory.scopedContext("Grp", [GROUP], "en"), "- The group plans a ski trip in January.")
    })
  )
})
