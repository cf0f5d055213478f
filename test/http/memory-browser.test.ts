import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { get, post, serverSuite } from "../support/server.js"
import { seed } from "../support/browserSeed.js"
import { assertOwnScripts } from "../support/assets.js"

describe("memory browser routes", () => {
  const { temp, start } = serverSuite()
  const file = (name: string) => readFileSync(path.join(temp.memory, "Tian", name), "utf8")
  const getJson = async (url: string) => {
    const r = await get(url)
    assert.strictEqual(r.status, 200, r.text)
    return JSON.parse(r.text)
  }

  it("serves the page and its bundled script, nothing else", async () => {
    const server = await start(temp.memory)
    const page = await get(`${server.url}/memory_browser`)
    assert.strictEqual(page.status, 200)
    assert.match(page.type, /^text\/html/)
    for (const tab of ["recent", "facts", "reflections", "persona", "settings"])
      assert.include(page.text, `id="tab-${tab}"`)
    await assertOwnScripts(server.url, page.text, ["/assets/memory-browser.js"])
    for (const bad of ["other.js", "..%2Fkioku.mjs", "memory-browser.ts"])
      assert.strictEqual((await get(`${server.url}/assets/${bad}`)).status, 404, bad)
  })

  it("reads facts, archived facts, reflections with their score decay, and persona by section", async () => {
    seed(path.join(temp.memory, "Tian"))
    const server = await start(temp.memory)
    const view = await getJson(`${server.url}/api/memory/browser/Tian`)
    assert.deepStrictEqual(
      view.facts.map((f: { id: string; importance: number }) => [f.id, f.importance]),
      [
        ["fact_20261101090000_aaaa0001", 7],
        ["fact_20261101090000_aaaa0002", 6],
        ["fact_20261101090000_aaaa0003", 5]
      ]
    )
    assert.deepStrictEqual(Object.keys(view.facts[0]).sort(), [
      "absorbed",
      "created_at",
      "entity",
      "id",
      "importance",
      "text"
    ])
    assert.deepStrictEqual(view.archived_facts, [
      {
        id: "fact_20260901090000_bbbb0002",
        text: "Tian drank coffee every morning",
        importance: 5,
        entity: "master",
        created_at: "2026-11-01T09:00:00",
        archived_at: "2026-10-01T08:00:00"
      },
      {
        id: "fact_20250101090000_bbbb0001",
        text: "Tian lived in Osaka as a student",
        importance: 4,
        entity: "master",
        created_at: "2026-11-01T09:00:00",
        archived_at: null
      }
    ])
    const p1 = view.reflections.find((r: { id: string }) => r.id === "ref_p1")
    assert.deepStrictEqual(p1.source_fact_ids, ["fact_20261101090000_aaaa0001"])
    assert.strictEqual(p1.reinforcement, 1.5)
    assert.isAbove(p1.score.now, p1.score.in_7d)
    assert.isAbove(p1.score.in_7d, p1.score.in_30d)
    assert.strictEqual(view.reflections.find((r: { id: string }) => r.id === "ref_a1").status, "archived")
    const sections = Object.fromEntries(
      view.persona.map((s: { section: string; entries: Array<unknown> }) => [s.section, s.entries])
    )
    assert.deepStrictEqual(sections["neko"][0], {
      id: "card_0a0b0c0d",
      text: "name: Tian",
      protected: true,
      source: "character_card",
      suppress: false,
      score: null,
      version_history: 0
    })
    assert.strictEqual(sections["master"][1].score, 1)
    assert.strictEqual((await get(`${server.url}/api/memory/browser/a..b`)).status, 400)
    const empty = await getJson(`${server.url}/api/memory/browser/Nobody`)
    assert.deepStrictEqual([empty.facts, empty.archived_facts, empty.reflections], [[], [], []])
  })

  it("edits a fact and a persona entry through the journal; a restart keeps the edits", async () => {
    seed(path.join(temp.memory, "Tian"))
    let server = await start(temp.memory)
    const edit = async (body: Record<string, unknown>) => {
      const r = await post(`${server.url}/api/memory/entry_edit`, JSON.stringify({ lanlan_name: "Tian", ...body }))
      return { status: r.status, body: JSON.parse(r.text) }
    }
    const factId = "fact_20261101090000_aaaa0002"
    assert.deepStrictEqual(await edit({ kind: "fact", id: factId, text: "Tian moved to Osaka in spring" }), {
      status: 200,
      body: { success: true, id: factId, text: "Tian moved to Osaka in spring" }
    })
    assert.deepStrictEqual((await edit({ kind: "persona", id: "manual_2", text: "lives in Osaka" })).status, 200)
    assert.deepStrictEqual((await edit({ kind: "persona", id: "manual_2", text: "lives in Osaka now" })).status, 200)
    assert.deepStrictEqual(await edit({ kind: "persona", id: "card_0a0b0c0d", text: "name: Mio" }), {
      status: 409,
      body: { success: false, error: "read_only" }
    })
    assert.strictEqual((await edit({ kind: "fact", id: "fact_none", text: "x" })).status, 404)
    assert.strictEqual((await edit({ kind: "persona", id: "manual_none", text: "x" })).status, 404)
    const events = file("events.ndjson")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
    const factEvent = events.find((e) => e.type === "fact.updated")
    assert.strictEqual(factEvent.payload.fact.text, "Tian moved to Osaka in spring")
    assert.strictEqual(factEvent.payload.fact.importance, 6, "the whole fact is journaled")
    const personaEvents = events.filter((e) => e.type === "persona.entry_updated")
    assert.strictEqual(personaEvents.length, 2)
    assert.deepStrictEqual(
      personaEvents[1].payload.entry_snapshot.version_history.map((v: { text: string }) => v.text),
      ["lives in Kyoto", "lives in Osaka"]
    )
    await server.stop()
    server = await start(temp.memory)
    const view = await getJson(`${server.url}/api/memory/browser/Tian`)
    assert.strictEqual(view.facts[1].text, "Tian moved to Osaka in spring")
    const master = view.persona.find((s: { section: string }) => s.section === "master").entries[1]
    assert.deepStrictEqual([master.text, master.version_history], ["lives in Osaka now", 2])
    assert.include(file("persona.json"), "lives in Osaka now")
  })

  it("answers 400 for a malformed edit and writes nothing", async () => {
    seed(path.join(temp.memory, "Tian"))
    const server = await start(temp.memory)
    const before = file("events.ndjson")
    for (const body of [
      "{",
      JSON.stringify({ lanlan_name: "Tian", kind: "reflection", id: "ref_p1", text: "x" }),
      JSON.stringify({ lanlan_name: "Tian", kind: "fact", id: "fact_20261101090000_aaaa0001" }),
      JSON.stringify({ lanlan_name: "Tian", kind: "fact", id: "fact_20261101090000_aaaa0001", text: "   " }),
      JSON.stringify({ lanlan_name: "..", kind: "fact", id: "fact_20261101090000_aaaa0001", text: "x" })
    ]) {
      assert.strictEqual((await post(`${server.url}/api/memory/entry_edit`, body)).status, 400, body)
    }
    assert.strictEqual(file("events.ndjson"), before)
  })
})
