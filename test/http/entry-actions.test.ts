import { assert, describe, it } from "@effect/vitest"
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { post, serverSuite } from "../support/server.js"
import { seed } from "../support/statechartSeed.js"
import { storedFact } from "../support/facts.js"

describe("POST /api/memory/entry_action", () => {
  const { temp, start } = serverSuite()
  const reflections = () =>
    JSON.parse(readFileSync(path.join(temp.memory, "Tian", "reflections.json"), "utf8")).map(
      (r: { id: string; status: string }) => [r.id, r.status]
    )

  it("confirms, denies and archives through the lifecycle, journaled, and refuses what it does not allow", async () => {
    seed(path.join(temp.memory, "Tian"))
    const factsFile = path.join(temp.memory, "Tian", "facts.json")
    writeFileSync(factsFile, JSON.stringify([storedFact("fact_tea", "Master likes green tea")]))
    const server = await start(temp.memory)
    const act = async (body: Record<string, unknown>) => {
      const r = await post(`${server.url}/api/memory/entry_action`, JSON.stringify({ lanlan_name: "Tian", ...body }))
      return { status: r.status, body: JSON.parse(r.text) }
    }
    assert.deepStrictEqual(await act({ kind: "reflection", id: "ref_p1", action: "confirm" }), {
      status: 200,
      body: { success: true, status: "confirmed" }
    })
    assert.deepStrictEqual((await act({ kind: "reflection", id: "ref_p2", action: "deny" })).body.status, "denied")
    assert.deepStrictEqual(await act({ kind: "reflection", id: "ref_d1", action: "confirm" }), {
      status: 409,
      body: { success: false, error: "not_allowed", status: "denied" }
    })
    assert.deepStrictEqual((await act({ kind: "reflection", id: "ref_d1", action: "archive" })).body.status, "archived")
    assert.deepStrictEqual(reflections(), [
      ["ref_p1", "confirmed"],
      ["ref_p2", "denied"],
      ["ref_c1", "confirmed"]
    ])
    const shards = readdirSync(path.join(temp.memory, "Tian", "reflection_archive")).sort()
    const archived = shards.flatMap((f) =>
      JSON.parse(readFileSync(path.join(temp.memory, "Tian", "reflection_archive", f), "utf8")).map(
        (r: { id: string }) => r.id
      )
    )
    assert.includeMembers(archived, ["ref_a1", "ref_d1"])
    assert.deepStrictEqual((await act({ kind: "persona", id: "manual_2", action: "archive" })).body, {
      success: true,
      status: "archived"
    })
    assert.strictEqual((await act({ kind: "persona", id: "manual_1", action: "confirm" })).status, 409)
    assert.strictEqual((await act({ kind: "reflection", id: "ref_none", action: "deny" })).status, 404)
    const events = readFileSync(path.join(temp.memory, "Tian", "events.ndjson"), "utf8")
    assert.strictEqual(events.split('"reason":"manual"').length - 1, 3, "three manual state changes journaled")
    assert.deepStrictEqual(await act({ kind: "fact", id: "fact_tea", action: "deny" }), {
      status: 409,
      body: { success: false, error: "not_allowed", status: "active" }
    })
    assert.deepStrictEqual((await act({ kind: "persona", id: "manual_1", action: "forget" })).body, {
      success: true,
      status: "forgotten"
    })
    assert.deepStrictEqual((await act({ kind: "fact", id: "fact_tea", action: "forget" })).body, {
      success: true,
      status: "forgotten"
    })
    assert.deepStrictEqual(JSON.parse(readFileSync(factsFile, "utf8")), [])
    const journal = readFileSync(path.join(temp.memory, "Tian", "events.ndjson"), "utf8")
    assert.include(journal, '"type":"fact.forgotten"')
    assert.notInclude(journal, "green tea", "the forget carries ids, not text")
    assert.strictEqual((await act({ kind: "fact", id: "fact_tea", action: "forget" })).status, 200, "idempotent")
    assert.strictEqual((await act({ kind: "fact", id: "fact_none", action: "forget" })).status, 404)
  })

  it("answers 400 for a malformed body or name and writes nothing", async () => {
    seed(path.join(temp.memory, "Tian"))
    const server = await start(temp.memory)
    const before = readFileSync(path.join(temp.memory, "Tian", "events.ndjson"), "utf8")
    for (const body of [
      "{",
      JSON.stringify({ lanlan_name: "Tian", kind: "diary", id: "x", action: "forget" }),
      JSON.stringify({ lanlan_name: "Tian", kind: "reflection", id: "ref_p1", action: "promote" }),
      JSON.stringify({ lanlan_name: "..", kind: "reflection", id: "ref_p1", action: "deny" })
    ]) {
      assert.strictEqual((await post(`${server.url}/api/memory/entry_action`, body)).status, 400, body)
    }
    assert.strictEqual(readFileSync(path.join(temp.memory, "Tian", "events.ndjson"), "utf8"), before)
  })
})
