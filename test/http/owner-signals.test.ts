/**
 * Owner trust signals over real HTTP with the `local` provider (no model): a member states a fact in a group,
 * the owner (admin tier, `speaker_is_owner`) corrects it in a later request → the member's trust goes down in
 * `speaker_trust.json`, the fact carries the event, the answer reports it; the same request again counts
 * nothing twice; a non-owner saying the same moves nothing; the single shape confirms; after the pool file
 * is lost, `reconcile_from_facts` rebuilds the ledger from the events on the fact rows. Also: a batch's owner
 * sees only earlier segments' facts, and a correction made while the legacy barrier is pending stays on the
 * fact and counts on the retry once the barrier is open.
 */
import { assert, describe, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { readFileSync, rmSync } from "node:fs"
import * as path from "node:path"
import { get, post, serverSuite } from "../support/server.js"

const entityOf = (account: string) =>
  "ent_" + createHash("sha256").update(`neko.entity.v1|${account}|0`).digest("hex").slice(0, 24)
const participant = (id: string) => ({ subject_kind: "group_participant", subject_id: `qq:100:${id}` })
const said = (text: string) => JSON.stringify([{ role: "user", content: text }])
const segment = (id: string, label: string, text: string, extra: Record<string, unknown> = {}) => ({
  input_history: said(text),
  subject: participant(id),
  speaker_label: label,
  speaker_id: `qq:${id}`,
  speaker_tier: "normal",
  ...extra
})
const owner = (text: string) => segment("999", "Owner", text, { speaker_tier: "admin", speaker_is_owner: true })

interface Row {
  readonly text: string
  readonly speaker_id?: string
  readonly _speaker_trust_signal_events?: ReadonlyArray<Record<string, unknown>>
}

describe("owner trust signals", () => {
  const { temp, start } = serverSuite()

  it("moves a member's trust on the owner's correction, once, and only for the owner", async () => {
    const dir = path.join(temp.root, "owner")
    let server = await start(dir)
    const call = (route: string, body: unknown) =>
      post(`${server.url}${route}`, JSON.stringify(body)).then((r) => ({ status: r.status, body: JSON.parse(r.text) }))
    const history = (body: unknown) => call("/internal/memory/Tian/scoped_history", body)
    const adjustment = () =>
      JSON.parse(readFileSync(path.join(dir, "speaker_trust.json"), "utf8")).entities[entityOf("qq:222")]?.accounts[
        "qq:222"
      ]?.adjustment
    const rows = (): ReadonlyArray<Row> => JSON.parse(readFileSync(path.join(dir, "Tian", "facts.json"), "utf8"))
    const bobs = () => rows().filter((f) => f.speaker_id === "qq:222")

    assert.isTrue((await call("/internal/trust/waive_legacy_barrier", { platform: "qq" })).body.persisted)
    const stated = await history({
      segments: [segment("222", "Bob", "I am vegetarian."), segment("222", "Bob", "I am a nurse in Osaka.")]
    })
    assert.strictEqual(stated.status, 200, JSON.stringify(stated.body))
    assert.sameMembers(
      bobs().map((f) => f.text),
      ["Bob is vegetarian", "Bob is a nurse in Osaka"]
    )
    const vegetarian = bobs().find((f) => f.text === "Bob is vegetarian")

    const corrected = await history({ segments: [owner("No, Bob is not vegetarian.")] })
    assert.strictEqual(corrected.status, 200, JSON.stringify(corrected.body))
    const [answer] = corrected.body.segments
    assert.strictEqual(answer.trust_events.length, 1)
    assert.deepInclude(answer.trust_events[0], {
      kind: "correction",
      speaker_id: "qq:222",
      source_speaker_id: "qq:999",
      source_subject_kind: "group_participant",
      source_subject_id: "qq:100:222"
    })
    assert.deepInclude(answer.trust, { persisted: true, signals_applied: 1, gated: null })
    assert.closeTo(adjustment(), -0.08, 1e-9)
    const event = answer.trust_events[0]
    const stored = bobs().find((f) => f.text === "Bob is vegetarian")
    assert.deepStrictEqual(stored?._speaker_trust_signal_events, [event], "the fact carries the event")
    assert.strictEqual(answer.trust_events[0].source_fact_id, (vegetarian as unknown as { id: string }).id)
    const profile = JSON.parse((await get(`${server.url}/internal/trust/profile?account_id=qq:222`)).text)
    assert.closeTo(profile.adjustment_sum, -0.08, 1e-9)

    const again = await history({ segments: [owner("No, Bob is not vegetarian.")] })
    assert.deepStrictEqual(again.body.segments[0].trust_events, [event], "a repeat re-delivers the same event")
    assert.deepInclude(again.body.segments[0].trust, { persisted: true, signals_applied: 0 })
    assert.closeTo(adjustment(), -0.08, 1e-9, "and counts nothing twice")
    assert.strictEqual(bobs().find((f) => f.text === "Bob is vegetarian")?._speaker_trust_signal_events?.length, 1)

    const stranger = await history({ segments: [segment("333", "Carla", "No, Bob is not vegetarian.")] })
    assert.deepStrictEqual(stranger.body.segments[0].trust_events, [], "a member's word is no signal")
    assert.strictEqual(stranger.body.segments[0].trust.signals_applied, 0)
    const unflagged = await history({
      segments: [segment("999", "Owner", "Bob is a nurse in Osaka", { speaker_tier: "admin" })]
    })
    assert.deepStrictEqual(unflagged.body.segments[0].trust_events, [], "nor the admin's without speaker_is_owner")
    assert.closeTo(adjustment(), -0.08, 1e-9)

    const confirmed = await history({
      input_history: said("Yes, Bob is a nurse in Osaka."),
      subject: participant("999"),
      speaker_label: "Owner",
      speaker_id: "qq:999",
      speaker_tier: "admin",
      speaker_is_owner: true
    })
    assert.strictEqual(confirmed.status, 200, JSON.stringify(confirmed.body))
    assert.deepStrictEqual(
      confirmed.body.trust_events.map((e: { kind: string; speaker_id: string }) => [e.kind, e.speaker_id]),
      [["confirmation", "qq:222"]]
    )
    assert.strictEqual(confirmed.body.trust.signals_applied, 1)
    assert.closeTo(adjustment(), -0.04, 1e-9)

    await server.stop()
    rmSync(path.join(dir, "speaker_trust.json"))
    server = await start(dir)
    await call("/internal/trust/waive_legacy_barrier", { platform: "qq" })
    const rebuilt = await call("/internal/trust/reconcile_from_facts", { character_names: ["Tian"] })
    assert.deepStrictEqual(rebuilt.body, { scanned: 2, applied: 2, gated: 0, persisted: true })
    assert.closeTo(adjustment(), -0.04, 1e-9, "the ledger rebuilt from the fact rows")
  })

  it("lets an owner segment see the facts of earlier segments of its batch, never of later ones", async () => {
    const dir = path.join(temp.root, "batch")
    const server = await start(dir)
    const call = (route: string, body: unknown) =>
      post(`${server.url}${route}`, JSON.stringify(body)).then((r) => ({ status: r.status, body: JSON.parse(r.text) }))
    await call("/internal/trust/waive_legacy_barrier", { platform: "qq" })
    const history = (body: unknown) => call("/internal/memory/Sora/scoped_history", body)
    const before = await history({
      segments: [segment("444", "Dan", "I am a teacher."), owner("Dan is not a teacher.")]
    })
    assert.deepStrictEqual(
      before.body.segments.map((s: { trust_events: ReadonlyArray<{ speaker_id: string }> }) =>
        s.trust_events.map((e) => e.speaker_id)
      ),
      [[], ["qq:444"]]
    )
    const after = await history({ segments: [owner("Eve is not a pilot."), segment("555", "Eve", "I am a pilot.")] })
    assert.strictEqual(after.status, 200, JSON.stringify(after.body))
    assert.deepStrictEqual(
      after.body.segments.map((s: { trust_events: ReadonlyArray<unknown> }) => s.trust_events),
      [[], []],
      "a later segment's fact is not what the owner answered"
    )
  })

  it("keeps an owner's correction on the fact while the barrier is pending and counts it on the retry", async () => {
    const dir = path.join(temp.root, "barrier")
    const server = await start(dir)
    const call = (route: string, body: unknown) =>
      post(`${server.url}${route}`, JSON.stringify(body)).then((r) => ({ status: r.status, body: JSON.parse(r.text) }))
    const history = (body: unknown) => call("/internal/memory/Mio/scoped_history", body)
    await history({ segments: [segment("222", "Bob", "I am vegetarian.")] })
    const deferred = await history({ segments: [owner("Bob is not vegetarian.")] })
    const [first] = deferred.body.segments
    assert.deepInclude(first.trust, { signals_applied: 0, gated: "legacy_import_pending" })
    assert.strictEqual(first.trust_events.length, 1)
    const rows: ReadonlyArray<Row> = JSON.parse(readFileSync(path.join(dir, "Mio", "facts.json"), "utf8"))
    assert.deepStrictEqual(
      rows.find((f) => f.text === "Bob is vegetarian")?._speaker_trust_signal_events,
      first.trust_events,
      "durable on the fact before the pool may count it"
    )
    await call("/internal/trust/waive_legacy_barrier", { platform: "qq" })
    const retried = await history({ segments: [owner("Bob is not vegetarian.")] })
    assert.deepStrictEqual(retried.body.segments[0].trust_events, first.trust_events)
    assert.deepInclude(retried.body.segments[0].trust, { signals_applied: 1, gated: null })
    const profile = JSON.parse((await get(`${server.url}/internal/trust/profile?account_id=qq:222`)).text)
    assert.closeTo(profile.adjustment_sum, -0.08, 1e-9)
  })
})
