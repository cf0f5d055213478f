/**
 * N.E.K.O.'s group-chat routes through the typed client against the real server: one participant with two
 * accounts is registered, bound, given a scope declaration and a legacy ledger, remembered through
 * `scoped_facts` and `scoped_history` (its speaker trust resolved once the barrier is open), shown, mentioned,
 * reconciled, split, merged and forgotten — each answer decoded by the route table's Schemas, N.E.K.O.'s 422s
 * arriving as `refused` with the server's body. The last test checks that the suite called every group-chat
 * route of the table.
 */
import { assert, describe, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { groupRoutes } from "../../src/api/GroupRoutes.js"
import { refusal, trackedClients, value } from "../support/client.js"
import { serverSuite } from "../support/server.js"

const entityOf = (account: string) =>
  "ent_" + createHash("sha256").update(`neko.entity.v1|${account}|0`).digest("hex").slice(0, 24)

const ALICE = { subject_kind: "participant", subject_id: "qq:600" } as const
const ALICE_ALT = { subject_kind: "participant", subject_id: "qq:601" } as const
const scopeOf = <S extends { readonly subject_kind: string; readonly subject_id: string }>(s: S) => ({
  ...s,
  scope: `${s.subject_kind}:${s.subject_id}`
})

describe("the typed client on N.E.K.O.'s group-chat routes", () => {
  const { temp, start } = serverSuite()
  const { clientFor, uncalled } = trackedClients()

  it("registers, binds and trusts a participant's accounts, remembers it in a group and forgets it", async () => {
    const client = clientFor((await start(temp.memory)).url)
    const owner = entityOf("qq:600")

    assert.deepStrictEqual(refusal(await client.trustProfile()), {
      reason: "refused",
      status: 422,
      body: { detail: [{ type: "missing", loc: ["query", "account_id"], msg: "Field required", input: null }] }
    })
    assert.deepInclude(value(await client.trustProfile({ query: { account_id: "qq:600" } })), {
      account_id: "qq:600",
      known: false,
      entity_id: null,
      barrier_pending: true
    })
    assert.deepStrictEqual(value(await client.ensureAccount({ body: { account_id: "qq:600" } })), {
      account_id: "qq:600",
      entity_id: owner,
      persisted: true
    })
    assert.deepStrictEqual(value(await client.bindAccount({ body: { account_id: "qq:601", entity_id: owner } })), {
      account_id: "qq:601",
      entity_id: owner,
      changed: true,
      bound_by: null,
      persisted: true
    })
    const declaration = {
      platform: "qq",
      channel: "group",
      actor_scope: "global",
      conversation_scope: "per_conversation",
      asserted_by: "qq_auto_reply"
    }
    assert.deepInclude(value(await client.declareIdentityScope({ body: declaration })), {
      ...declaration,
      persisted: true
    })
    const imported = value(
      await client.importLegacyProfiles({
        body: {
          platform: "qq",
          source: "qq_auto_reply.business_config.speaker_trust_profiles.v1",
          profiles: { "600": { adjustment: 0.1, message_count: 4 } },
          final: true
        }
      })
    )
    assert.deepStrictEqual(imported, { imported: ["qq:600"], skipped: [], barrier: "cleared", persisted: true })
    assert.deepStrictEqual(value(await client.waiveLegacyBarrier({ body: { platform: "QQ" } })), {
      platform: "qq",
      barrier: "cleared",
      persisted: true
    })

    const name = "Yuki"
    const stored = value(
      await client.scopedFacts({
        name,
        body: { subject: ALICE, facts: [{ text: "Alice keeps bees on her balcony", importance: 7 }] }
      })
    )
    assert.deepInclude(stored, { status: "stored", subject: scopeOf(ALICE), created: 1 })
    assert.lengthOf(stored.fact_ids, 1)
    assert.deepStrictEqual(refusal(await client.scopedFacts({ name, body: { subject: ALICE, facts: [] } })), {
      reason: "refused",
      status: 422,
      body: { detail: "facts must contain 1..32 items" }
    })
    const written = value(
      await client.scopedHistory({
        name,
        body: {
          input_history: JSON.stringify([{ role: "user", content: "I sell honey at the Sunday market." }]),
          subject: ALICE_ALT,
          speaker_label: "Alice",
          speaker_id: "qq:601",
          speaker_tier: "trusted"
        }
      })
    )
    assert.isTrue("subject" in written && written.status === "processed")
    if (!("subject" in written)) return
    assert.deepStrictEqual(written.subject, scopeOf(ALICE_ALT))
    assert.strictEqual(written.trust.gated, null, "the barrier is open")
    assert.isNumber(written.trust.resolved)
    assert.isAtLeast(written.created, 1)
    assert.strictEqual(written.created, written.fact_ids.length)

    const context = value(await client.scopedContext({ name, body: { subjects: [ALICE_ALT], language: "en" } }))
    assert.isString(context)
    assert.notInclude(context, "bees", "no reflection yet: the facts alone are not shown")
    assert.deepStrictEqual(refusal(await client.scopedContext({ name, body: { subjects: [] } })), {
      reason: "refused",
      status: 422,
      body: { detail: "subjects must contain 1..8 items" }
    })
    assert.deepStrictEqual(
      value(await client.scopedMentions({ name, body: { response_text: "How are the bees?", subjects: [ALICE] } })),
      { status: "recorded" }
    )
    assert.deepStrictEqual(
      value(await client.reconcileFromFacts({ body: { character_names: [name] } })),
      { scanned: 0, applied: 0, gated: 0, persisted: true },
      "no fact row carries an owner signal"
    )

    const unbound = value(await client.unbindAccount({ body: { account_id: "qq:601" } }))
    assert.deepInclude(unbound, {
      account_id: "qq:601",
      previous_entity_id: owner,
      changed: true,
      persisted: true
    })
    const fresh = unbound.entity_id
    assert.isString(fresh)
    assert.notStrictEqual(fresh, owner, "the account leaves with an entity of its own")
    assert.deepStrictEqual(
      value(await client.mergeEntities({ body: { entity_id: owner, other_entity_id: fresh ?? "" } })),
      { entity_id: owner, persisted: true }
    )
    const forgotten = value(await client.scopedForget({ name, body: { subject: ALICE } }))
    assert.deepInclude(forgotten, { status: "forgotten", subject: scopeOf(ALICE), facts: 1 + written.created })
    assert.sameDeepMembers([...forgotten.forgotten_subjects], [scopeOf(ALICE), scopeOf(ALICE_ALT)])
    assert.deepStrictEqual(value(await client.forgetEntity({ body: { entity_id: owner } })), {
      entity_id: owner,
      changed: true,
      accounts: ["qq:600", "qq:601"],
      persisted: true
    })
    assert.deepInclude(value(await client.trustProfile({ query: { account_id: "qq:601" } })), {
      known: false,
      entity_id: null
    })
  })

  it("called every group-chat route of the route table", () => {
    assert.deepStrictEqual(
      uncalled((n) => n in groupRoutes),
      []
    )
  })
})
