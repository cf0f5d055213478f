import { assert, describe, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { get, post, serverSuite } from "../support/server.js"

const entityOf = (account: string, generation = 0) =>
  "ent_" + createHash("sha256").update(`neko.entity.v1|${account}|${generation}`).digest("hex").slice(0, 24)

const call = async (url: string, body: unknown) => {
  const res = await post(url, typeof body === "string" ? body : JSON.stringify(body))
  return { status: res.status, body: JSON.parse(res.text) }
}

describe("speaker-trust routes", () => {
  const { temp, start } = serverSuite()
  const pool = (dir: string) => JSON.parse(readFileSync(path.join(dir, "speaker_trust.json"), "utf8"))

  it("answers an account's profile; a missing account_id is FastAPI's query 422", async () => {
    const dir = path.join(temp.root, "profile")
    const server = await start(dir)
    const missing = await get(`${server.url}/internal/trust/profile`)
    assert.strictEqual(missing.status, 422)
    assert.deepStrictEqual(JSON.parse(missing.text), {
      detail: [{ type: "missing", loc: ["query", "account_id"], msg: "Field required", input: null }]
    })
    const invalid = await get(`${server.url}/internal/trust/profile?account_id=nocolon`)
    assert.deepStrictEqual(JSON.parse(invalid.text), { account_id: null, known: false })
    const unknown = JSON.parse((await get(`${server.url}/internal/trust/profile?account_id=QQ:42`)).text)
    assert.deepInclude(unknown, {
      account_id: "qq:42",
      known: false,
      entity_id: null,
      platform: "qq",
      barrier_pending: true,
      entity_accounts: [],
      canonical_account: null,
      adjustment_sum: 0,
      activity_count_sum: 0,
      bound_at: null,
      channel_collision: false
    })
    assert.deepInclude(unknown.legacy_barriers.qq, {
      source: "qq_auto_reply.business_config.speaker_trust_profiles.v1",
      status: "pending",
      chunks: 0
    })
  })

  it("imports a legacy ledger chunk once per (source, account) and opens the barrier on the final chunk", async () => {
    const dir = path.join(temp.root, "legacy")
    const server = await start(dir)
    const url = `${server.url}/internal/trust/import_legacy_profiles`
    const invalid = await call(url, { platform: "q q", source: "s" })
    assert.deepStrictEqual(invalid, { status: 422, body: { detail: "invalid platform" } })
    assert.deepStrictEqual(await call(url, { platform: "qq", source: "  " }), {
      status: 422,
      body: { detail: "source is required" }
    })
    const many = Object.fromEntries(Array.from({ length: 501 }, (_, i) => [String(i), {}]))
    assert.deepStrictEqual(await call(url, { platform: "qq", source: "s", profiles: many }), {
      status: 422,
      body: { detail: "profiles must contain at most 500 items" }
    })
    const model = await call(url, { platform: "qq", chunk_index: -1, final: "maybe", profiles: [] })
    assert.strictEqual(model.status, 422)
    assert.deepStrictEqual(
      model.body.detail.map((e: { type: string; loc: Array<string> }) => [e.type, e.loc.join(".")]),
      [
        ["missing", "body.source"],
        ["greater_than_equal", "body.chunk_index"],
        ["bool_parsing", "body.final"],
        ["dict_type", "body.profiles"]
      ]
    )
    const source = "qq_auto_reply.business_config.speaker_trust_profiles.v1"
    const profiles = {
      "123": { adjustment: 0.1, message_count: 5, processed_signal_events: ["s1", "s1"] },
      "bad key": { adjustment: 1 },
      "7": "not a profile"
    }
    const first = await call(url, { platform: "QQ", source, profiles, chunk_index: 0, final: true })
    assert.deepStrictEqual(first, {
      status: 200,
      body: {
        imported: ["qq:123"],
        skipped: [
          { key: "7", reason: "invalid_account_id" },
          { key: "bad key", reason: "invalid_account_id" }
        ],
        barrier: "cleared",
        persisted: true
      }
    })
    const again = await call(url, { platform: "qq", source, profiles: { "123": profiles["123"] }, final: true })
    assert.deepStrictEqual(again.body, { imported: [], skipped: [], barrier: "cleared", persisted: true })
    const profile = JSON.parse((await get(`${server.url}/internal/trust/profile?account_id=qq:123`)).text)
    assert.deepInclude(profile, {
      known: true,
      entity_id: entityOf("qq:123"),
      barrier_pending: false,
      adjustment_sum: 0.1,
      activity_count_sum: 5,
      signal_event_count: 1,
      entity_accounts: ["qq:123"]
    })
    const onDisk = pool(dir)
    assert.deepInclude(onDisk.legacy_barriers.qq, { status: "cleared", chunks: 1, accounts: 1, skipped: 2 })
    assert.strictEqual(onDisk.entities[entityOf("qq:123")].accounts["qq:123"].legacy_import.source, source)
  })

  it("waives a barrier (idempotently) and refuses a bad platform", async () => {
    const dir = path.join(temp.root, "waive")
    const server = await start(dir)
    const url = `${server.url}/internal/trust/waive_legacy_barrier`
    assert.deepStrictEqual(await call(url, { platform: "bad/platform" }), {
      status: 422,
      body: { detail: "invalid platform" }
    })
    assert.strictEqual((await call(url, {})).body.detail[0].type, "missing")
    assert.deepStrictEqual((await call(url, { platform: "QQ" })).body, {
      platform: "qq",
      barrier: "cleared",
      persisted: true
    })
    assert.deepStrictEqual((await call(url, { platform: "qq" })).body, {
      platform: "qq",
      barrier: "cleared",
      persisted: true
    })
    assert.deepInclude(pool(dir).legacy_barriers.qq, { status: "cleared", waived: true })
  })

  it("reconciles signal events from active and archived fact rows, gated while a barrier is pending", async () => {
    const root = path.join(temp.root, "reconcile")
    const dir = path.join(root, "memory")
    mkdirSync(path.join(dir, "Hana", "facts_archive"), { recursive: true })
    mkdirSync(path.join(root, "config"), { recursive: true })
    writeFileSync(path.join(root, "config", "characters.json"), JSON.stringify({ 猫娘: { Hana: {} } }))
    const signal = (target: string, id: string, kind: string) => ({ speaker_id: target, event_id: id, kind })
    writeFileSync(
      path.join(dir, "Hana", "facts.json"),
      JSON.stringify([
        { id: "f1", text: "a", _speaker_trust_signal_events: [signal("bili:9", "e1", "correction")] },
        { id: "f2", text: "b", _speaker_trust_signal_events: [signal("qq:5", "e2", "confirmation")] }
      ])
    )
    writeFileSync(
      path.join(dir, "Hana", "facts_archive", "2026-01-01_abcdef12.json"),
      JSON.stringify([{ id: "f3", text: "c", _speaker_trust_signal_events: [signal("bili:9", "e3", "confirmation")] }])
    )
    const server = await start(dir)
    const url = `${server.url}/internal/trust/reconcile_from_facts`
    assert.deepStrictEqual(await call(url, { character_names: ["../etc"] }), {
      status: 400,
      body: { detail: "Invalid characters in lanlan_name" }
    })
    assert.strictEqual((await call(url, { character_names: "Hana" })).body.detail[0].type, "list_type")
    assert.deepStrictEqual((await call(url, { character_names: ["Hana"] })).body, {
      scanned: 3,
      applied: 2,
      gated: 1,
      persisted: true
    })
    assert.deepStrictEqual((await call(url, {})).body, { scanned: 3, applied: 0, gated: 1, persisted: true })
    const bili = JSON.parse((await get(`${server.url}/internal/trust/profile?account_id=bili:9`)).text)
    assert.closeTo(bili.adjustment_sum, -0.04, 1e-9)
    assert.strictEqual(bili.signal_event_count, 2)
  })

  it("keeps the pool across a restart, and fails closed on a file that is not JSON until it is repaired", async () => {
    const dir = path.join(temp.root, "restart")
    const first = await start(dir)
    const ensured = await call(`${first.url}/internal/identity/accounts/ensure`, { account_id: "qq:1" })
    assert.deepStrictEqual(ensured.body, { account_id: "qq:1", entity_id: entityOf("qq:1"), persisted: true })
    await call(`${first.url}/internal/identity/accounts/bind`, { account_id: "qq:2", entity_id: entityOf("qq:1") })
    await first.stop()

    const second = await start(dir)
    const profile = JSON.parse((await get(`${second.url}/internal/trust/profile?account_id=qq:2`)).text)
    assert.deepInclude(profile, { known: true, entity_id: entityOf("qq:1"), entity_accounts: ["qq:1", "qq:2"] })
    await second.stop()

    const good = readFileSync(path.join(dir, "speaker_trust.json"), "utf8")
    writeFileSync(path.join(dir, "speaker_trust.json"), "{ torn")
    const third = await start(dir)
    const closed = JSON.parse((await get(`${third.url}/internal/trust/profile?account_id=qq:2`)).text)
    assert.deepInclude(closed, { known: false, entity_id: null })
    const refused = await call(`${third.url}/internal/identity/accounts/ensure`, { account_id: "qq:3" })
    assert.deepStrictEqual(refused, {
      status: 503,
      body: {
        detail:
          "identity pool unreadable; identity changes are refused while the trust pool is read-only, retry once it loads"
      }
    })
    const vetoed = await call(`${third.url}/internal/trust/waive_legacy_barrier`, { platform: "bili" })
    assert.deepStrictEqual(vetoed.body, { persisted: false })
    assert.strictEqual(readFileSync(path.join(dir, "speaker_trust.json"), "utf8"), "{ torn", "never overwritten")

    writeFileSync(path.join(dir, "speaker_trust.json"), good)
    const healed = JSON.parse((await get(`${third.url}/internal/trust/profile?account_id=qq:2`)).text)
    assert.deepInclude(healed, { known: true, entity_id: entityOf("qq:1") })
  })
  it("answers 409 storage_startup_blocked on the trust and identity routes while storage is blocked", async () => {
    const server = await start(path.join(temp.root, "blocked"), ["--start-blocked"])
    for (const route of ["identity/accounts/ensure", "trust/waive_legacy_barrier"]) {
      const res = await call(`${server.url}/internal/${route}`, { account_id: "qq:1", platform: "qq" })
      assert.strictEqual(res.status, 409)
      assert.deepInclude(res.body, { error_code: "storage_startup_blocked", limited_mode: true })
    }
    assert.strictEqual((await get(`${server.url}/internal/trust/profile?account_id=qq:1`)).status, 409)
  })
})
