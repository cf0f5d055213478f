/**
 * "Forget means gone" over real HTTP: a character directory planted with a fact that was added, merged into
 * and whose merged partner is archived, an archived-only fact, a merge that archived a fact into an unrelated
 * one, a pre-redaction `fact.forgotten` line with its whole fact, vector rows and dedup pairs. After the
 * forgets are acknowledged no file of the directory holds any forgotten text (every byte read, SQLite files
 * included), a second forget changes nothing, a kill -9 and restart restores nothing, and the unrelated fact
 * and its journal lines stay as they were.
 */
import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { Effect, Schema } from "effect"
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import * as T from "../../src/character/JournalEvent.js"
import { Fact, textHash } from "../../src/facts/Fact.js"
import * as VectorStore from "../../src/vectors/VectorStore.js"
import { post, serverSuite } from "../support/server.js"
import { storedFact } from "../support/facts.js"

const TS = "2026-11-30T10:00:00.000000"
const fact = (id: string, text: string) =>
  Schema.decodeUnknownSync(Fact)({ ...storedFact(id, text), hash: textHash(text) })
const K0 = fact("fact_k", "Master's bank pin is 4417 orchid")
const K1 = fact("fact_k", "Master's bank pin is 4417 orchid, kept in the blue wallet")
const M = fact("fact_m", "pin 4417 orchid blue wallet duplicate")
const A = fact("fact_a", "Master once hid a hemlock letter")
const Z = fact("fact_z", "zebra-private-note about green tea")
const L = fact("fact_l", "walnut diary of a legacy forget")
const U0 = fact("fact_u", "Master likes green tea")
const U1 = fact("fact_u", "Master likes green tea a lot")
const SECRETS = [K0.text, K1.text, M.text, A.text, Z.text, L.text, "4417 orchid", "hemlock", "zebra-private", "walnut"]

const lines = [
  T.factLine("e1", T.FACT_ADDED, K0, TS),
  T.factLine("e2", T.FACT_ADDED, U0, TS),
  T.factLine("e3", T.FACT_ADDED, M, TS),
  T.factMoveLine("e4", T.FACT_MERGED, { kept: K1, archived: M, reason: "dedup" }, TS),
  T.factLine("e5", T.FACT_ADDED, A, TS),
  T.factMoveLine("e6", T.FACT_ARCHIVED, { archived: A, reason: "decay" }, TS),
  T.factLine("e7", T.FACT_ADDED, Z, TS),
  T.factMoveLine("e8", T.FACT_MERGED, { kept: U1, archived: Z, reason: "dedup" }, TS),
  T.factAbsorbedLine("e9", { fact_ids: ["fact_u"] }, TS),
  { event_id: "e10", type: T.FACT_FORGOTTEN, ts: TS, payload: { fact: L, reason: "manual" } }
]

const plant = (dir: string) => {
  mkdirSync(path.join(dir, "facts_archive"), { recursive: true })
  writeFileSync(path.join(dir, "events.ndjson"), lines.map((l) => JSON.stringify(l) + "\n").join(""))
  writeFileSync(path.join(dir, "events_applied.json"), JSON.stringify({ last_applied_event_id: "e10", ts: TS }))
  writeFileSync(path.join(dir, "facts.json"), JSON.stringify([K1, U1]))
  const stamp = (f: object) => ({ ...f, archived_at: TS, archive_shard_path: "2026-11-30_0123abcd.json" })
  writeFileSync(path.join(dir, "facts_archive", "2026-11-30_0123abcd.json"), JSON.stringify([M, A, Z].map(stamp)))
  const pair = (candidate_id: string, existing_id: string) => ({
    candidate_id,
    existing_id,
    entity: "master",
    queued_at: TS
  })
  writeFileSync(
    path.join(dir, "facts_pending_dedup.json"),
    JSON.stringify([pair("fact_k", "fact_u"), pair("fact_u", "fact_x")])
  )
  Effect.runSync(
    Effect.scoped(
      Effect.gen(function* () {
        const store = yield* VectorStore.open(dir)
        const row = (id: string) => ({
          kind: "fact" as const,
          id,
          textSha256: "00",
          modelId: "m",
          vector: new Float32Array([1, 0])
        })
        yield* store.put(["fact_k", "fact_m", "fact_a", "fact_u"].map(row))
        yield* store.close
      })
    )
  )
}

/** Every file under the directory, as bytes decoded leniently, by relative path. */
const everyFile = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => statSync(path.join(dir, f)).isFile())
    .map((f) => ({ f, text: readFileSync(path.join(dir, f)).toString("latin1") }))

const assertGone = (dir: string) => {
  for (const { f, text } of everyFile(dir)) {
    for (const s of SECRETS) assert.notInclude(text, Buffer.from(s, "utf8").toString("latin1"), `${s} in ${f}`)
  }
}

describe("forgetting a fact removes its text from every file", () => {
  const { temp, start } = serverSuite()

  it("forgets a merged fact, an archived one and a merge's absorbed partner; twice; across a kill -9", async () => {
    const dir = path.join(temp.memory, "Tian")
    plant(dir)
    const server = await start(temp.memory)
    const forget = async (id: string) => {
      const r = await post(
        `${server.url}/api/memory/entry_action`,
        JSON.stringify({ lanlan_name: "Tian", kind: "fact", id, action: "forget" })
      )
      return { status: r.status, body: JSON.parse(r.text) }
    }
    const ok = { status: 200, body: { success: true, status: "forgotten" } }
    assert.deepStrictEqual(await forget("fact_k"), ok)
    assert.deepStrictEqual(await forget("fact_a"), ok)
    assert.deepStrictEqual(await forget("fact_z"), ok)
    assertGone(dir)
    const journal = () => readFileSync(path.join(dir, "events.ndjson"), "utf8")
    const after = journal()
    assert.deepStrictEqual(await forget("fact_k"), ok, "a second forget answers the same")
    assert.strictEqual(journal(), after, "and changes nothing")
    assert.strictEqual((await forget("fact_nope")).status, 404)

    const byId = new Map(
      after
        .trim()
        .split("\n")
        .map((l) => [JSON.parse(l).event_id as string, l])
    )
    const planted = new Map(lines.map((l) => [l.event_id, JSON.stringify(l)]))
    for (const id of ["e2", "e9"]) assert.strictEqual(byId.get(id), planted.get(id), `${id} untouched`)
    const e8 = JSON.parse(byId.get("e8") ?? "{}")
    assert.deepStrictEqual(e8.payload.redacted.ids, ["fact_z"])
    assert.strictEqual(e8.payload.kept.text, U1.text, "the merge keeps its unforgotten fact")
    for (const id of ["e1", "e3", "e4", "e5", "e6", "e7"]) {
      const line = JSON.parse(byId.get(id) ?? "{}")
      assert.deepStrictEqual(Object.keys(line.payload), ["redacted"], id)
      assert.strictEqual(line.type, planted.get(id) && JSON.parse(planted.get(id) ?? "").type)
    }
    assert.deepStrictEqual(JSON.parse(byId.get("e10") ?? "{}").payload, { fact_ids: ["fact_l"], reason: "manual" })
    const facts = () =>
      JSON.parse(readFileSync(path.join(dir, "facts.json"), "utf8")).map((f: { text: string }) => f.text)
    assert.deepStrictEqual(facts(), [U1.text])
    assert.deepStrictEqual(
      JSON.parse(readFileSync(path.join(dir, "facts_pending_dedup.json"), "utf8")).map(
        (p: { candidate_id: string }) => p.candidate_id
      ),
      ["fact_u"]
    )

    await server.kill9()
    writeFileSync(path.join(dir, "events_applied.json"), JSON.stringify({ last_applied_event_id: null, ts: TS }))
    const again = await start(temp.memory)
    const browsed = await fetch(`${again.url}/api/memory/browser/Tian`)
    assert.strictEqual(browsed.status, 200, "the character loads, replaying the whole journal")
    assert.notInclude(await browsed.text(), "4417")
    await again.stop()
    assertGone(dir)
    assert.deepStrictEqual(facts(), [U1.text], "a full replay restores nothing and keeps the unrelated fact")
    const db = new Database(path.join(dir, "vectors.db"), { readonly: true })
    const ids = db.prepare("SELECT entry_id FROM vectors ORDER BY entry_id").pluck().all()
    db.close()
    assert.deepStrictEqual(ids, ["fact_u"])
  })
})
