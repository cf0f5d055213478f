/**
 * kioku's own routes through the typed client against the real server: the checks of test/http/ (memory-api,
 * entry-actions, memory-browser, statecharts, startup, home) for each route — the `/api/memory` bodies with
 * their 404 and 409 refusals, the lifecycle and edit actions on the seeded character, the state-chart reads,
 * limited mode, the pages as text. The last test checks that the suite called every such route of the table.
 */
import { assert, describe, it } from "@effect/vitest"
import * as path from "node:path"
import { seed } from "../support/browserSeed.js"
import { refusal, trackedClients, value } from "../support/client.js"
import { serverSuite, turn } from "../support/server.js"

const history = (messages: ReadonlyArray<unknown>) => ({ input_history: JSON.stringify(messages) })

describe("the typed client on kioku's own routes", () => {
  const { temp, start } = serverSuite()
  const { clientFor, uncalled, tagOf } = trackedClients()

  it("reads and saves recent history with its tokens, refusing a stale save with 409, and renames", async () => {
    const client = clientFor((await start(temp.memory)).url)
    value(await client.cache({ name: "Aoi", body: history(turn("I play the cello", "Lovely")) }))
    assert.deepStrictEqual(value(await client.recentFiles()), { files: ["recent_Aoi.json"] })
    const file = value(await client.recentFile({ query: { filename: "recent_Aoi.json" } }))
    assert.include(file.content, "I play the cello")
    assert.deepInclude(refusal(await client.recentFile({ query: { filename: "recent_None.json" } })), { status: 404 })
    const chat = [{ role: "human", text: "I play the viola" }] as const
    const save = {
      filename: "recent_Aoi.json",
      fingerprint: file.fingerprint,
      identity_token: file.identity_token,
      chat
    }
    const saved = value(await client.saveRecentFile({ body: save }))
    assert.deepInclude(saved, { success: true, catgirl_name: "Aoi" })
    const stale = refusal(await client.saveRecentFile({ body: save }))
    assert.strictEqual(stale.status, 409)
    assert.deepInclude(stale.body, { code: "RECENT_FILE_CONFLICT", fingerprint: saved.fingerprint })
    assert.deepStrictEqual(value(await client.updateCatgirlName({ body: { old_name: "Aoi", new_name: "Aoi2" } })), {
      success: true,
      memory_renamed: true,
      memory_server_reloaded: true
    })
    assert.deepInclude(refusal(await client.updateCatgirlName({ body: { old_name: "Nope", new_name: "X" } })), {
      status: 404
    })
    assert.deepStrictEqual(value(await client.getPowerfulMemoryConfig()), { enabled: true })
    assert.deepStrictEqual(value(await client.setPowerfulMemoryConfig({ body: { enabled: false } })), {
      success: true,
      enabled: false
    })
    assert.deepStrictEqual(value(await client.getPowerfulMemoryConfig()), { enabled: false })
    assert.deepStrictEqual(value(await client.setReviewConfig({ body: { enabled: false } })), {
      success: true,
      enabled: false
    })
    assert.deepStrictEqual(value(await client.getReviewConfig()), { enabled: false })
    const funnel = value(await client.funnel({ name: "Aoi2" }))
    assert.strictEqual(funnel.lanlan_name, "Aoi2")
    assert.deepStrictEqual(refusal(await client.funnel({ name: "Aoi2", query: { since: "never" } })), {
      reason: "refused",
      status: 400,
      body: { detail: "Invalid datetime" }
    })
    const ran = value(await client.maintenanceRunOnce({ body: { character: "Aoi2" } }))
    assert.deepStrictEqual(
      ran.ran.map((r) => r.character),
      ["Aoi2"]
    )
    assert.isArray(value(await client.maintenanceRunOnce()).ran)
  })

  it("acts on and edits the seeded entries, and reads the browser and state-chart views", async () => {
    seed(path.join(temp.memory, "Tian"))
    const client = clientFor((await start(temp.memory)).url)
    const act = { lanlan_name: "Tian", kind: "reflection", id: "ref_p1", action: "confirm" } as const
    assert.deepStrictEqual(value(await client.entryAction({ body: act })), { success: true, status: "confirmed" })
    assert.deepStrictEqual(refusal(await client.entryAction({ body: { ...act, id: "ref_d1" } })), {
      reason: "refused",
      status: 409,
      body: { success: false, error: "not_allowed", status: "denied" }
    })
    assert.deepInclude(refusal(await client.entryAction({ body: { ...act, id: "ref_none" } })), { status: 404 })
    const factId = "fact_20261101090000_aaaa0002"
    const edit = { lanlan_name: "Tian", kind: "fact", id: factId, text: "Tian moved to Osaka in spring" } as const
    assert.deepStrictEqual(value(await client.entryEdit({ body: edit })), {
      success: true,
      id: factId,
      text: "Tian moved to Osaka in spring"
    })
    assert.deepStrictEqual(
      refusal(await client.entryEdit({ body: { ...edit, kind: "persona", id: "card_0a0b0c0d", text: "name: Mio" } })),
      { reason: "refused", status: 409, body: { success: false, error: "read_only" } }
    )
    const view = value(await client.browserView({ name: "Tian" }))
    assert.include(
      view.facts.map((f) => f.text),
      "Tian moved to Osaka in spring"
    )
    assert.deepStrictEqual(refusal(await client.browserView({ name: "a/b" })).status, 400)
    assert.include(value(await client.statechartCharacters()).characters, "Tian")
    const counts = value(await client.statechartCounts({ name: "Tian" }))
    assert.strictEqual(counts.machines["reflection"]?.["confirmed"], 2)
    const entries = value(
      await client.statechartEntries({ name: "Tian", query: { machine: "reflection", state: "confirmed" } })
    )
    assert.includeMembers(
      entries.entries.map((e) => e.id),
      ["ref_p1", "ref_c1"]
    )
    assert.strictEqual(
      refusal(await client.statechartEntries({ name: "Tian", query: { machine: "reflection", state: "nowhere" } }))
        .status,
      422
    )
    const steps = value(await client.statechartHistory({ name: "Tian", entryId: "ref_p1" }))
    assert.include(
      steps.history.map((s) => s.to),
      "confirmed"
    )
    assert.isArray(value(await client.liveActors()).actors)
  })

  it("enters and leaves limited mode, and serves the pages, their scripts and the API's description", async () => {
    const client = clientFor((await start(temp.memory)).url)
    assert.deepStrictEqual(value(await client.startupBlock({ body: { reason: "moving" } })), {
      ok: true,
      limited_mode: true,
      reason: "moving"
    })
    const blocked = refusal(await client.newDialog({ name: "Tian" }))
    assert.strictEqual(blocked.status, 409)
    assert.deepInclude(blocked.body, { error_code: "storage_startup_blocked", limited_mode: true })
    assert.deepStrictEqual(value(await client.startupContinue()), { ok: true, initialized: true })
    assert.include(value(await client.home()), "<!doctype html>")
    assert.include(value(await client.memoryBrowserPage()), "kioku memory browser")
    assert.include(value(await client.statechartsPage()), "/assets/statecharts.js")
    assert.isAbove(value(await client.asset({ file: "statecharts.js" })).length, 1000)
    assert.strictEqual(refusal(await client.asset({ file: "other.js" })).status, 404)
    assert.include(value(await client.docs()), "client.queryMemory()")
    assert.strictEqual(value(await client.openapi())["openapi"], "3.1.0")
  })

  it("sends the bearer token to a server that asks for one", async () => {
    const server = await start(temp.memory, ["--auth-token", "s3cret-token-value"])
    assert.strictEqual(refusal(await clientFor(server.url).statechartCharacters()).status, 401)
    assert.isArray(value(await clientFor(server.url, "s3cret-token-value").statechartCharacters()).characters)
  })

  it("called every one of kioku's own routes of the route table", () => {
    assert.deepStrictEqual(
      uncalled((n) => tagOf(n) !== "neko"),
      []
    )
  })
})
