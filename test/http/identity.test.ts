import { assert, describe, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { get, post, serverSuite } from "../support/server.js"

const entityOf = (account: string, generation = 0) =>
  "ent_" + createHash("sha256").update(`neko.entity.v1|${account}|${generation}`).digest("hex").slice(0, 24)

const limitDetail = "该实体在 qq 已有 8 个 account，无法再绑定；请先解绑一个"

describe("identity routes", () => {
  const { temp, start } = serverSuite()
  const open = async (name: string) => {
    const dir = path.join(temp.root, name)
    const server = await start(dir)
    const call = async (route: string, body: unknown) => {
      const res = await post(
        `${server.url}/internal/identity/${route}`,
        typeof body === "string" ? body : JSON.stringify(body)
      )
      return { status: res.status, body: JSON.parse(res.text) }
    }
    const profile = async (account: string) =>
      JSON.parse((await get(`${server.url}/internal/trust/profile?account_id=${account}`)).text)
    return { dir, server, call, profile }
  }

  it("declares a platform's identity scope once, refusing what is not a declaration", async () => {
    const { dir, call } = await open("scope")
    const body = {
      platform: "QQ",
      channel: "Open",
      actor_scope: "per_conversation",
      conversation_scope: "global",
      asserted_by: "qq_auto_reply"
    }
    const refusals: Array<[Record<string, string>, string]> = [
      [{ platform: "q q" }, "invalid platform"],
      [{ channel: "" }, "channel is required"],
      [{ actor_scope: "probably_global" }, "scope must be one of ['global', 'per_conversation', 'unknown']"],
      [{ asserted_by: " " }, "asserted_by is required"]
    ]
    for (const [patch, detail] of refusals)
      assert.deepStrictEqual(await call("scope", { ...body, ...patch }), { status: 422, body: { detail } })
    const missing = await call("scope", { platform: "qq" })
    assert.deepStrictEqual(
      missing.body.detail.map((e: { loc: Array<string> }) => e.loc[1]),
      ["channel", "actor_scope", "conversation_scope", "asserted_by"]
    )
    const first = await call("scope", body)
    assert.deepInclude(first.body, {
      channel: "open",
      actor_scope: "per_conversation",
      conversation_scope: "global",
      asserted_by: "qq_auto_reply",
      persisted: true,
      platform: "qq"
    })
    assert.match(first.body.asserted_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/)
    const again = await call("scope", body)
    assert.deepStrictEqual(again.body, first.body, "the same declaration again changes nothing")
    assert.deepStrictEqual(
      JSON.parse(readFileSync(path.join(dir, "speaker_trust.json"), "utf8")).platform_identity_scope.qq.asserted_at,
      first.body.asserted_at
    )
  })

  it("ensures and binds accounts, up to 8 per platform (409 beyond), and answers N.E.K.O.'s refusals", async () => {
    const { dir, call, profile } = await open("bind")
    assert.deepStrictEqual(await call("accounts/ensure", { account_id: "nocolon" }), {
      status: 422,
      body: { detail: "invalid account_id" }
    })
    const owner = entityOf("qq:0")
    assert.deepStrictEqual((await call("accounts/ensure", { account_id: "qq:0" })).body, {
      account_id: "qq:0",
      entity_id: owner,
      persisted: true
    })
    assert.deepStrictEqual(
      await call("accounts/bind", { account_id: "qq:1", entity_id: "ent_000000000000000000000000" }),
      {
        status: 404,
        body: { detail: "unknown entity" }
      }
    )
    assert.deepStrictEqual(await call("accounts/bind", { account_id: "qq 1", entity_id: owner }), {
      status: 422,
      body: { detail: "invalid account_id" }
    })
    assert.deepStrictEqual(await call("accounts/bind", { account_id: "qq:1", entity_id: " " }), {
      status: 422,
      body: { detail: "entity_id is required" }
    })
    const model = await call("accounts/bind", { require_unbound: "maybe" })
    assert.deepStrictEqual(
      model.body.detail.map((e: { type: string; loc: Array<string> }) => [e.type, e.loc.join(".")]),
      [
        ["missing", "body.account_id"],
        ["missing", "body.entity_id"],
        ["bool_parsing", "body.require_unbound"]
      ]
    )
    assert.deepStrictEqual((await call("accounts/bind", "{not json")).body.detail[0].type, "json_invalid")

    assert.deepStrictEqual(
      (await call("accounts/bind", { account_id: "qq:1", entity_id: owner, bound_by: "op" })).body,
      {
        entity_id: owner,
        changed: true,
        bound_by: "op",
        persisted: true,
        account_id: "qq:1"
      }
    )
    assert.deepStrictEqual((await call("accounts/bind", { account_id: "qq:1", entity_id: owner })).body, {
      entity_id: owner,
      changed: false,
      persisted: true,
      account_id: "qq:1"
    })
    const other = (await call("accounts/ensure", { account_id: "qq:50" })).body.entity_id
    assert.deepStrictEqual(
      await call("accounts/bind", { account_id: "qq:1", entity_id: other, require_unbound: true }),
      {
        status: 409,
        body: { detail: "account is already bound; unbind it first" }
      }
    )
    for (let i = 2; i < 8; i++) {
      await call("accounts/ensure", { account_id: `qq:${i}` })
      const bound = await call("accounts/bind", { account_id: `qq:${i}`, entity_id: owner, bound_by: "op" })
      assert.deepInclude(bound.body, { entity_id: owner, changed: true, merged: true, persisted: true })
    }
    assert.deepStrictEqual(await call("accounts/bind", { account_id: "qq:8", entity_id: owner }), {
      status: 409,
      body: { detail: limitDetail }
    })
    await call("accounts/ensure", { account_id: "qq:9" })
    assert.deepStrictEqual(await call("accounts/bind", { account_id: "qq:9", entity_id: owner }), {
      status: 409,
      body: { detail: limitDetail }
    })
    assert.deepStrictEqual(await call("entities/merge", { entity_id: owner, other_entity_id: other }), {
      status: 409,
      body: { detail: limitDetail }
    })
    assert.deepInclude((await call("accounts/bind", { account_id: "bili:1", entity_id: owner })).body, {
      changed: true,
      entity_id: owner
    })
    const view = await profile("qq:5")
    assert.strictEqual(view.entity_accounts.length, 9)
    assert.deepInclude(view, { entity_id: owner, bound_by: "op", known: true })
    const onDisk = JSON.parse(readFileSync(path.join(dir, "speaker_trust.json"), "utf8"))
    assert.strictEqual(onDisk.version, 2)
    assert.strictEqual(Object.keys(onDisk.entities[owner].accounts).length, 9)
    assert.strictEqual(onDisk.entities[entityOf("qq:5")].status, "merged")
    assert.strictEqual(onDisk.entities[entityOf("qq:5")].merged_into, owner)
    assert.strictEqual(onDisk.account_index["qq:9"], entityOf("qq:9"), "a refused bind moved nothing")
  })

  it("unbinds into a fresh entity (counting rows stranded in the canonical pile) and merges commutatively", async () => {
    const root = path.join(temp.root, "unbind")
    const dir = path.join(root, "memory")
    mkdirSync(path.join(dir, "Hana", "facts_archive"), { recursive: true })
    mkdirSync(path.join(root, "config"), { recursive: true })
    writeFileSync(path.join(root, "config", "characters.json"), JSON.stringify({ 猫娘: { Hana: {} } }))
    const account = (id: string, boundBy: string | null, adjustment: number) => ({
      account_id: id,
      generation: 0,
      bound_at: "2026-01-01T00:00:00.000000+00:00",
      bound_by: boundBy,
      adjustment,
      message_count: 3
    })
    const entity = "ent_aaaaaaaaaaaaaaaaaaaaaaaa"
    writeFileSync(
      path.join(dir, "speaker_trust.json"),
      JSON.stringify({
        version: 2,
        legacy_barriers: { qq: { source: "s", status: "cleared" } },
        entities: {
          [entity]: {
            entity_id: entity,
            status: "active",
            created_at: "2026-01-01T00:00:00.000000+00:00",
            accounts: { "qq:100": account("qq:100", null, 0.1), "qq:101": account("qq:101", "op", -0.2) },
            canonical_accounts: { qq: { account_id: "qq:100", sealed_at: "2026-01-01T00:00:00.000000+00:00" } }
          }
        }
      })
    )
    const row = (id: string, speaker: string, subjectId: string) => ({
      id,
      text: "t",
      speaker_id: speaker,
      subject_kind: "group_participant",
      subject_id: subjectId,
      scope: `group_participant:${subjectId}`
    })
    writeFileSync(
      path.join(dir, "Hana", "facts.json"),
      JSON.stringify([
        row("f1", "qq:101", "qq:G1:100"),
        row("f2", "qq:101", "qq:G2:100"),
        row("f3", "qq:101", "qq:G1:101")
      ])
    )
    writeFileSync(
      path.join(dir, "Hana", "facts_archive", "2026-01-02_abcdef12.json"),
      JSON.stringify([row("f4", "qq:101", "qq:G3:100"), row("f1", "qq:101", "qq:G1:100")])
    )
    const server = await start(dir)
    const call = async (route: string, body: unknown) => {
      const res = await post(`${server.url}/internal/identity/${route}`, JSON.stringify(body))
      return { status: res.status, body: JSON.parse(res.text) }
    }
    const before = JSON.parse((await get(`${server.url}/internal/trust/profile?account_id=qq:101`)).text)
    assert.deepInclude(before, { canonical_account: "qq:100", entity_accounts: ["qq:100", "qq:101"] })

    assert.deepStrictEqual(await call("accounts/unbind", { account_id: "bad" }), {
      status: 422,
      body: { detail: "invalid account_id" }
    })
    const unbound = await call("accounts/unbind", { account_id: "qq:101", require_provenance: true })
    assert.strictEqual(unbound.status, 200)
    assert.deepInclude(unbound.body, {
      entity_id: entityOf("qq:101", 1),
      previous_entity_id: entity,
      changed: true,
      persisted: true,
      account_id: "qq:101",
      stranded_rows: 3
    })
    assert.closeTo(unbound.body.ledger_delta, -0.2, 1e-9)
    assert.closeTo(unbound.body.effective_delta, 0.197, 1e-9)
    assert.deepStrictEqual((await call("accounts/unbind", { account_id: "qq:101", require_provenance: true })).body, {
      entity_id: entityOf("qq:101", 1),
      changed: false,
      reason: "not_bound",
      persisted: true,
      account_id: "qq:101",
      stranded_rows: 0
    })
    assert.deepStrictEqual((await call("accounts/unbind", { account_id: "qq:999" })).body, {
      entity_id: null,
      changed: false,
      persisted: true,
      account_id: "qq:999",
      stranded_rows: 0
    })

    assert.deepStrictEqual(await call("entities/merge", { entity_id: "", other_entity_id: entity }), {
      status: 422,
      body: { detail: "both entity ids are required" }
    })
    assert.deepStrictEqual(await call("entities/merge", { entity_id: entity, other_entity_id: "ent_nope" }), {
      status: 404,
      body: { detail: "unknown entity" }
    })
    const fresh = entityOf("qq:101", 1)
    assert.deepStrictEqual((await call("entities/merge", { entity_id: fresh, other_entity_id: entity })).body, {
      entity_id: entity,
      persisted: true
    })
    assert.deepStrictEqual((await call("entities/merge", { entity_id: entity, other_entity_id: fresh })).body, {
      entity_id: entity,
      persisted: true
    })
  })

  it("forgets an entity: its accounts leave the graph and a legacy re-import cannot bring them back", async () => {
    const { call, profile, server } = await open("forget")
    assert.deepStrictEqual(await call("entities/forget", { entity_id: " " }), {
      status: 422,
      body: { detail: "entity_id is required" }
    })
    assert.deepStrictEqual((await call("entities/forget", { entity_id: "ent_unknown" })).body, {
      entity_id: null,
      changed: false,
      persisted: true
    })
    const id = (await call("accounts/ensure", { account_id: "qq:7" })).body.entity_id
    await call("accounts/bind", { account_id: "qq:8", entity_id: id })
    assert.deepStrictEqual((await call("entities/forget", { entity_id: id })).body, {
      entity_id: id,
      changed: true,
      accounts: ["qq:7", "qq:8"],
      persisted: true
    })
    assert.deepInclude(await profile("qq:8"), { known: false, entity_id: null })
    const reimport = await post(
      `${server.url}/internal/trust/import_legacy_profiles`,
      JSON.stringify({ platform: "qq", source: "s", profiles: { "7": { adjustment: 0.3 } }, final: true })
    )
    assert.deepInclude(JSON.parse(reimport.text), { imported: [], skipped: [{ key: "7", reason: "forgotten" }] })
    const again = (await call("accounts/ensure", { account_id: "qq:7" })).body.entity_id
    assert.strictEqual(again, entityOf("qq:7", 1), "a forgotten entity id is never reused")
  })
})
