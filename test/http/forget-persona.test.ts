/**
 * "Forget means gone" for persona entries over real HTTP: a character directory planted with a persona entry
 * that has an earlier version, is edited once more through `/api/memory/entry_edit`, is quoted by a queued and
 * by an already resolved correction and has a vector row; an archived entry in a shard; a character-card
 * entry; and unrelated entries and corrections. After the forgets no file of the directory holds the
 * forgotten text (every byte read, SQLite included), a second forget changes nothing, the card entry is
 * refused as protected, and a kill -9 with a full replay restores nothing and keeps the unrelated entries; a
 * forget journaled just before a crash (text still in its lines) is completed at the next load.
 */
import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { cardEntryId, newEntry } from "../../src/persona/Persona.js"
import * as P from "../../src/persona/PersonaEvent.js"
import * as VectorStore from "../../src/vectors/VectorStore.js"
import { post, serverSuite } from "../support/server.js"

const TS = "2026-11-30T10:00:00.000000"
const entry = (id: string, text: string, extra: Record<string, unknown> = {}) => ({
  ...newEntry({ id, text, source: "manual", createdAt: TS }),
  ...extra
})
const S0 = entry("manual_s", "Master's locker code is 9931 heron")
const S1 = entry("manual_s", "Master's locker code is 9931 heron, top row", {
  version_history: [{ text: S0.text, replaced_at: TS }]
})
const OLD = entry("manual_o", "Master once owned a quokka-velvet scarf")
const KEEP = entry("manual_k", "Master likes green tea")
const CARD = {
  ...newEntry({
    id: cardEntryId("master", "age"),
    text: "age: 17",
    source: "character_card",
    createdAt: TS,
    protected: true
  })
}
const correction = (id: string, oldText: string, newText: string, oldId: string | null) => ({
  correction_id: id,
  old_text: oldText,
  new_text: newText,
  entity: "master",
  created_at: TS,
  resolve_attempts: 0,
  old_id: oldId,
  new_source: "manual",
  new_source_id: null
})
const C_OLD = correction("corr_old", S0.text, "Master's locker is tern-mauve now", null)
const C_Q = correction("corr_q", S1.text, "Master's locker code changed to sable-lantern", "manual_s")
const C_K = correction("corr_k", KEEP.text, "Master likes oolong", "manual_k")
const SECRETS = ["9931 heron", "quokka-velvet", "tern-mauve", "sable-lantern", "renamed-ivy"]

const lines = [
  P.entryLine("p1", P.PERSONA_FACT_ADDED, "master", S0, TS),
  P.entryLine("p2", P.PERSONA_FACT_ADDED, "master", KEEP, TS),
  P.queuedLine("p3", C_OLD, TS),
  P.resolvedLine("p4", ["corr_old"], "rejected", TS),
  P.entryLine("p5", P.PERSONA_ENTRY_UPDATED, "master", S1, TS),
  P.queuedLine("p6", C_Q, TS),
  P.queuedLine("p7", C_K, TS),
  P.entryLine("p8", P.PERSONA_FACT_ADDED, "master", OLD, TS),
  P.entryLine("p9", P.PERSONA_FACT_ADDED, "master", OLD, TS, { archived_at: TS }),
  P.cardLine("p10", "master", [CARD], TS)
]

const plant = (dir: string) => {
  mkdirSync(path.join(dir, "persona_archive"), { recursive: true })
  writeFileSync(path.join(dir, "events.ndjson"), lines.map((l) => JSON.stringify(l) + "\n").join(""))
  writeFileSync(path.join(dir, "events_applied.json"), JSON.stringify({ last_applied_event_id: "p10", ts: TS }))
  writeFileSync(path.join(dir, "persona.json"), JSON.stringify({ master: { facts: [CARD, S1, KEEP] } }))
  const shard = "2026-11-30_0123abcd.json"
  writeFileSync(
    path.join(dir, "persona_archive", shard),
    JSON.stringify([{ ...OLD, archived_at: TS, archive_shard_path: shard }])
  )
  writeFileSync(path.join(dir, "persona_corrections.json"), JSON.stringify([C_Q, C_K]))
  Effect.runSync(
    Effect.scoped(
      Effect.gen(function* () {
        const store = yield* VectorStore.open(dir)
        const row = (id: string) => ({
          kind: "persona" as const,
          id,
          textSha256: "00",
          modelId: "m",
          vector: new Float32Array([1, 0])
        })
        yield* store.put(["manual_s", "manual_o", "manual_k"].map(row))
        yield* store.close
      })
    )
  )
}

const everyFile = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => statSync(path.join(dir, f)).isFile())
    .map((f) => ({ f, text: readFileSync(path.join(dir, f)).toString("latin1") }))

const assertGone = (dir: string, secrets: ReadonlyArray<string> = SECRETS) => {
  for (const { f, text } of everyFile(dir)) {
    for (const s of secrets) assert.notInclude(text, s, `${s} in ${f}`)
  }
}

describe("forgetting a persona entry removes its text from every file", () => {
  const { temp, start } = serverSuite()

  it("forgets an edited entry, its corrections and an archived entry; refuses a card entry; twice; kill -9", async () => {
    const dir = path.join(temp.memory, "Tian")
    plant(dir)
    const server = await start(temp.memory)
    const call = async (route: string, body: Record<string, unknown>) => {
      const r = await post(`${server.url}${route}`, JSON.stringify({ lanlan_name: "Tian", ...body }))
      return { status: r.status, body: JSON.parse(r.text) }
    }
    const edited = await call("/api/memory/entry_edit", {
      kind: "persona",
      id: "manual_s",
      text: "Master's locker code is 9931 heron, renamed-ivy"
    })
    assert.strictEqual(edited.status, 200, JSON.stringify(edited.body))
    const forget = (id: string) => call("/api/memory/entry_action", { kind: "persona", id, action: "forget" })
    const ok = { status: 200, body: { success: true, status: "forgotten" } }
    assert.deepStrictEqual(await forget("manual_s"), ok)
    assert.deepStrictEqual(await forget("manual_o"), ok, "an archived entry is forgotten too")
    assert.deepStrictEqual(await forget(CARD.id), {
      status: 409,
      body: { success: false, error: "not_allowed", status: "protected" }
    })
    assertGone(dir)
    const journal = () => readFileSync(path.join(dir, "events.ndjson"), "utf8")
    const after = journal()
    assert.deepStrictEqual(await forget("manual_s"), ok, "a second forget answers the same")
    assert.strictEqual(journal(), after, "and changes nothing")
    assert.strictEqual((await forget("manual_nope")).status, 404)

    const byId = new Map(
      after
        .trim()
        .split("\n")
        .map((l) => [JSON.parse(l).event_id as string, l])
    )
    for (const l of lines.filter((l) => ["p2", "p4", "p7", "p10"].includes(l.event_id))) {
      assert.strictEqual(byId.get(l.event_id), JSON.stringify(l), `${l.event_id} untouched`)
    }
    for (const id of ["p1", "p3", "p5", "p6", "p8", "p9"]) {
      const line = JSON.parse(byId.get(id) ?? "{}")
      assert.deepStrictEqual(Object.keys(line.payload), ["redacted"], id)
    }
    const forgets = [...byId.values()].map((l) => JSON.parse(l)).filter((l) => l.type === P.PERSONA_FORGOTTEN)
    assert.deepStrictEqual(
      forgets.map((l) => l.payload),
      [
        { entry_ids: ["manual_s"], correction_ids: ["corr_q"], reason: "manual" },
        { entry_ids: ["manual_o"], correction_ids: [], reason: "manual" }
      ]
    )
    const persona = () =>
      JSON.parse(readFileSync(path.join(dir, "persona.json"), "utf8")).master.facts.map((e: { id: string }) => e.id)
    const corrections = () =>
      JSON.parse(readFileSync(path.join(dir, "persona_corrections.json"), "utf8")).map(
        (c: { correction_id: string }) => c.correction_id
      )
    assert.deepStrictEqual(persona(), [CARD.id, "manual_k"])
    assert.deepStrictEqual(corrections(), ["corr_k"])

    await server.kill9()
    writeFileSync(path.join(dir, "events_applied.json"), JSON.stringify({ last_applied_event_id: null, ts: TS }))
    const again = await start(temp.memory)
    const browsed = await fetch(`${again.url}/api/memory/browser/Tian`)
    assert.strictEqual(browsed.status, 200, "the character loads, replaying the whole journal")
    const view = await browsed.text()
    assert.notInclude(view, "9931")
    assert.include(view, KEEP.text)
    await again.stop()
    assertGone(dir)
    assert.deepStrictEqual(persona(), [CARD.id, "manual_k"], "a full replay restores nothing, keeps the others")
    assert.deepStrictEqual(corrections(), ["corr_k"])
    const db = new Database(path.join(dir, "vectors.db"), { readonly: true })
    const ids = db.prepare("SELECT entry_id FROM vectors ORDER BY entry_id").pluck().all()
    db.close()
    assert.deepStrictEqual(ids, ["manual_k"])
  })
  it("completes at load a forget journaled just before a crash (its lines still carry the text)", async () => {
    const dir = path.join(temp.memory, "Rin")
    plant(dir)
    const forgot = P.forgottenLine("p11", { entry_ids: ["manual_s"], correction_ids: ["corr_q"], reason: "manual" }, TS)
    writeFileSync(path.join(dir, "events.ndjson"), [...lines, forgot].map((l) => JSON.stringify(l) + "\n").join(""))
    const server = await start(temp.memory)
    const browsed = await fetch(`${server.url}/api/memory/browser/Rin`)
    assert.strictEqual(browsed.status, 200)
    assert.notInclude(await browsed.text(), "9931")
    await server.stop()
    assertGone(dir, ["9931 heron", "tern-mauve", "sable-lantern"])
    assert.include(readFileSync(path.join(dir, "persona_archive", "2026-11-30_0123abcd.json"), "utf8"), OLD.text)
    const applied = JSON.parse(readFileSync(path.join(dir, "events_applied.json"), "utf8"))
    const order = readFileSync(path.join(dir, "events.ndjson"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).event_id)
    assert.isAtLeast(order.indexOf(applied.last_applied_event_id), order.indexOf("p11"), "checkpointed past the forget")
  })
})
