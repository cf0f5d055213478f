import { assert, describe, it } from "@effect/vitest"
import { mkdirSync } from "node:fs"
import * as path from "node:path"
import { get, serverSuite, type RunningServer } from "../support/server.js"
import { seed } from "../support/statechartSeed.js"
import { assertOwnScripts } from "../support/assets.js"

describe("state-chart routes", () => {
  let server: RunningServer | undefined
  const { temp, start } = serverSuite()
  const getJson = async (route: string) => {
    const r = await get(`${server?.url}${route}`)
    assert.strictEqual(r.status, 200, `${route}: ${r.text}`)
    assert.match(r.type, /^application\/json/)
    return JSON.parse(r.text)
  }

  it("serves the page with the four machines' charts and its own script", async () => {
    server = await start(temp.memory)
    const page = await get(`${server.url}/statecharts`)
    assert.strictEqual(page.status, 200)
    assert.match(page.type, /^text\/html/)
    for (const id of ["reflection", "persona", "session", "recent"]) assert.include(page.text, `id="chart-${id}"`)
    assert.include(page.text, 'data-state="promote_blocked" tabindex="0" role="button"')
    assert.include(page.text, "evidence.evaluated")
    // the bundled server still narrows `feedback` by its stateIn guard: no feedback loop on merged
    assert.include(page.text, 'data-from="pending" data-to="pending"')
    assert.notInclude(page.text, 'data-from="merged" data-to="merged"')
    await assertOwnScripts(server.url, page.text, ["/assets/statecharts.js"])
  })

  it("counts a seeded character's entries per state, lists them and their history", async () => {
    seed(path.join(temp.memory, "Tian"))
    mkdirSync(path.join(temp.memory, "Mio"), { recursive: true })
    server = await start(temp.memory)
    assert.deepStrictEqual((await getJson("/api/memory/statecharts/characters")).characters, ["Mio", "Tian"])
    const counts = await getJson("/api/memory/statecharts/Tian")
    assert.deepStrictEqual(counts.machines.reflection, {
      pending: 2,
      confirmed: 1,
      promoted: 0,
      denied: 1,
      merged: 0,
      promote_blocked: 0,
      archived: 1
    })
    assert.deepStrictEqual(counts.machines.persona, { active: 1, suppressed: 1, corrected: 0, archived: 0 })

    const confirmed = await getJson("/api/memory/statecharts/Tian/entries?machine=reflection&state=confirmed")
    assert.deepStrictEqual(
      confirmed.entries.map((e: { id: string; text: string }) => [e.id, e.text]),
      [["ref_c1", "reflection ref_c1"]]
    )
    assert.isNumber(confirmed.entries[0].score)
    const archived = await getJson("/api/memory/statecharts/Tian/entries?machine=reflection&state=archived")
    assert.deepStrictEqual(
      archived.entries.map((e: { id: string }) => e.id),
      ["ref_a1"]
    )
    const suppressed = await getJson("/api/memory/statecharts/Tian/entries?machine=persona&state=suppressed")
    assert.deepStrictEqual(
      suppressed.entries.map((e: { id: string }) => e.id),
      ["manual_1"]
    )

    const history = await getJson("/api/memory/statecharts/Tian/history/ref_c1")
    assert.deepStrictEqual(history.history, [
      { type: "reflection.synthesized", ts: "2026-11-01T10:00:00", from: null, to: "pending" },
      { type: "reflection.state_changed", ts: "2026-11-02T10:00:00", from: "pending", to: "confirmed" }
    ])
    assert.deepStrictEqual((await getJson("/api/memory/statecharts/Tian/history/ref_none")).history, [])

    // Startup recovery loads only characters with journal events to replay or outbox ops to drain: neither
    // seeded one has any, so only the character a request touched is live.
    assert.strictEqual((await get(`${server.url}/new_dialog/Tian`)).status, 200)
    assert.deepStrictEqual((await getJson("/api/memory/live_actors")).actors, [
      { name: "Tian", session: "idle", supervision: "running" }
    ])
    const live = await getJson("/api/memory/statecharts/Tian")
    assert.strictEqual(live.session, "idle")
    assert.deepStrictEqual(live.machines.session, { idle: 1, settling: 0 })
    assert.strictEqual(live.recent, "idle")
    assert.deepStrictEqual(live.machines.recent, {
      idle: 1,
      compressing: 0,
      reviewing: 0,
      backoff: 0,
      dead_letter: 0
    })
    const session = await getJson("/api/memory/statecharts/Tian/entries?machine=session&state=idle")
    assert.strictEqual(session.entries.length, 1)
    const recent = await getJson("/api/memory/statecharts/Tian/entries?machine=recent&state=idle")
    assert.deepStrictEqual(recent.entries, [{ id: "Tian", text: "live recent actor", score: null }])
  })

  it("answers 400 with a detail body for invalid names and 422 for unknown machines or states", async () => {
    server = await start(temp.memory)
    for (const route of [
      "/api/memory/statecharts/con",
      "/api/memory/statecharts/a..b/entries?machine=reflection&state=pending",
      "/api/memory/statecharts/api/history/x"
    ]) {
      const r = await get(`${server.url}${route}`)
      assert.strictEqual(r.status, 400, route)
      assert.deepStrictEqual(JSON.parse(r.text), { detail: "Invalid characters in lanlan_name" })
    }
    const machine = await get(`${server.url}/api/memory/statecharts/Tian/entries?machine=nope&state=pending`)
    assert.strictEqual(machine.status, 422)
    const state = await get(`${server.url}/api/memory/statecharts/Tian/entries?machine=persona&state=pending`)
    assert.strictEqual(state.status, 422)
  })
})
