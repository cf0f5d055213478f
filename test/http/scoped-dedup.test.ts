/**
 * Near-duplicate group-chat facts over real HTTP, with vectors on: a restatement of a group's fact in the
 * same group is written and queued in `facts_pending_dedup.json` with N.E.K.O.'s subject fields, the same
 * text in another group is written and paired with nothing (neither by text nor by vector, though its
 * vector is identical), a verbatim repeat is still dropped, and `scoped_forget` reports the pairs it removed;
 * two such facts in one request pair too.
 * Arbitration (the `local` provider's) merges a group's pair inside the group and never acts on a pair of
 * two groups' facts.
 */
import { assert, describe, it } from "@effect/vitest"
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { post, serverSuite } from "../support/server.js"

const GROUP = { subject_kind: "group_chat", subject_id: "qq:100" }
const OTHER = { subject_kind: "group_chat", subject_id: "qq:200" }
const ORIGINAL = "Alice goes hiking in the Dolomites every summer with her brother"
const RESTATED = "Every summer Alice and her brother go hiking in the Dolomites"

interface Pair {
  readonly candidate_id: string
  readonly existing_id: string
  readonly [key: string]: unknown
}

describe("group-chat fact dedup", () => {
  const { temp, startWithVectors } = serverSuite()

  it("queues a restatement within its group only, and scoped_forget counts the pairs it drops", async () => {
    const server = await startWithVectors(temp.memory)
    const dir = path.join(temp.memory, "Mio")
    const send = async (route: string, body: unknown) => {
      const r = await post(`${server.url}/internal/memory/Mio/${route}`, JSON.stringify(body))
      assert.strictEqual(r.status, 200, r.text)
      return JSON.parse(r.text)
    }
    const write = (subject: unknown, text: string) =>
      send("scoped_facts", { subject, facts: [{ text, importance: 6 }] })
    const pending = (): ReadonlyArray<Pair> => {
      const file = path.join(dir, "facts_pending_dedup.json")
      return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : []
    }
    const backfill = () =>
      post(`${server.url}/internal/maintenance/run_once`, JSON.stringify({ character: "Mio" })).then((r) =>
        assert.strictEqual(r.status, 200, r.text)
      )

    const first = await write(GROUP, ORIGINAL)
    assert.strictEqual(first.created, 1)
    await backfill()
    const restated = await write(GROUP, RESTATED)
    assert.strictEqual(restated.created, 1, "a restatement is written, as N.E.K.O. does")
    const queued = pending()
    assert.strictEqual(queued.length, 1, JSON.stringify(queued))
    assert.deepInclude(queued[0], {
      candidate_id: restated.fact_ids[0],
      existing_id: first.fact_ids[0],
      entity: "group_chat",
      subject_key: "group_chat:qq:100",
      scope: "group_chat:qq:100",
      candidate_subject_kind: "group_chat",
      candidate_subject_id: "qq:100",
      candidate_scope: "group_chat:qq:100",
      existing_subject_kind: "group_chat",
      existing_subject_id: "qq:100",
      existing_scope: "group_chat:qq:100"
    })

    const elsewhere = await write(OTHER, ORIGINAL)
    assert.strictEqual(elsewhere.created, 1, "the same text in another group is its own fact")
    const restatedElsewhere = await write(OTHER, `${RESTATED}.`)
    assert.strictEqual(restatedElsewhere.created, 1)
    const mine = new Set([first.fact_ids[0], restated.fact_ids[0]])
    const theirs = new Set([elsewhere.fact_ids[0], restatedElsewhere.fact_ids[0]])
    for (const p of pending())
      assert.isFalse(
        (mine.has(p.candidate_id) && theirs.has(p.existing_id)) ||
          (theirs.has(p.candidate_id) && mine.has(p.existing_id)),
        `a pair across groups: ${JSON.stringify(p)}`
      )
    assert.isTrue(
      pending().some((p) => p.candidate_id === restatedElsewhere.fact_ids[0] && theirs.has(p.existing_id)),
      "the other group's restatement pairs within that group"
    )
    assert.strictEqual((await write(GROUP, ORIGINAL)).created, 0, "a verbatim repeat is still dropped")

    const forgotten = await send("scoped_forget", { subject: GROUP })
    assert.strictEqual(forgotten.pending_dedup, 1)
    assert.isFalse(
      pending().some((p) => mine.has(p.candidate_id) || mine.has(p.existing_id)),
      "no pair names a forgotten fact"
    )
    assert.strictEqual(pending().length, 1, "the other group's pair stays")
    assert.strictEqual((await send("scoped_forget", { subject: GROUP })).pending_dedup, 0)

    const third = { subject_kind: "group_chat", subject_id: "qq:300" }
    const both = await send("scoped_facts", {
      subject: third,
      facts: [
        { text: ORIGINAL, importance: 6 },
        { text: RESTATED, importance: 6 }
      ]
    })
    assert.strictEqual(both.created, 2)
    assert.isTrue(
      pending().some((p) => p.candidate_id === both.fact_ids[1] && p.existing_id === both.fact_ids[0]),
      "a restatement within one request pairs with the fact before it"
    )
  })

  it("arbitrates a group's pair within the group and never a pair across groups", async () => {
    const server = await startWithVectors(temp.memory)
    const dir = path.join(temp.memory, "Nao")
    const send = async (route: string, body: unknown) => {
      const r = await post(`${server.url}/internal/memory/Nao/${route}`, JSON.stringify(body))
      assert.strictEqual(r.status, 200, r.text)
      return JSON.parse(r.text)
    }
    const write = (subject: unknown, text: string) =>
      send("scoped_facts", { subject, facts: [{ text, importance: 6 }] }).then((r) => r.fact_ids[0])
    const queueFile = path.join(dir, "facts_pending_dedup.json")
    const original = await write(GROUP, ORIGINAL)
    const restated = await write(GROUP, RESTATED)
    const elsewhere = await write(OTHER, ORIGINAL)
    const queued: ReadonlyArray<Pair> = JSON.parse(readFileSync(queueFile, "utf8"))
    assert.deepStrictEqual(
      queued.map((p) => [p.candidate_id, p.existing_id]),
      [[restated, original]]
    )
    const across = { ...queued[0], candidate_id: elsewhere, existing_id: original, detector: "vector", cosine: 1 }
    writeFileSync(queueFile, JSON.stringify([...queued, across]))

    const ran = await post(`${server.url}/internal/maintenance/run_once`, JSON.stringify({ character: "Nao" }))
    assert.strictEqual(ran.status, 200, ran.text)
    assert.deepStrictEqual(JSON.parse(readFileSync(queueFile, "utf8")), [], "both pairs are consumed")
    const facts: ReadonlyArray<{ id: string; subject_id?: string; merged_from_ids?: ReadonlyArray<string> }> =
      JSON.parse(readFileSync(path.join(dir, "facts.json"), "utf8"))
    const group = facts.filter((f) => f.subject_id === "qq:100")
    assert.strictEqual(group.length, 1, "the group's restatement was merged")
    assert.includeMembers([original, restated], [group[0]?.id, ...(group[0]?.merged_from_ids ?? [])])
    assert.isTrue(
      facts.some((f) => f.id === elsewhere),
      "the other group's identical fact is never merged into this group's"
    )
  })
})
