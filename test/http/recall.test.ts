import { assert, describe, it } from "@effect/vitest"
import { mkdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { post, serverSuite } from "../support/server.js"

const facts = [
  { id: "fact_1", text: "主人喜欢拉面", hash: "h1", created_at: "2026-05-01T10:00:00.000000" },
  {
    id: "fact_2",
    text: "Master lives in Osaka",
    hash: "h2",
    created_at: "2026-06-01T10:00:00.000000",
    event_start_at: "2026-05-20T09:00:00.000000"
  },
  { id: "fact_3", text: "Master loves spicy ramen", hash: "h3", created_at: "2026-06-02T10:00:00.000000" },
  {
    id: "fact_4",
    text: "The group has a ramen night on Fridays",
    hash: "h4",
    created_at: "2026-06-04T10:00:00.000000",
    subject_kind: "group_chat",
    subject_id: "qq:1",
    scope: "group_chat:qq:1"
  }
]
const reflections = [
  {
    id: "ref_1",
    text: "Master enjoys ramen nights with Tian",
    created_at: "2026-06-03T10:00:00.000000",
    status: "confirmed"
  }
]

const plant = (memory: string, name: string, files: Readonly<Record<string, unknown>>) => {
  mkdirSync(path.join(memory, name), { recursive: true })
  for (const [file, value] of Object.entries(files))
    writeFileSync(path.join(memory, name, file), typeof value === "string" ? value : JSON.stringify(value))
}

const rowKeys = [
  "id",
  "text",
  "tier",
  "entity",
  "subject_kind",
  "subject_id",
  "scope",
  "score",
  "created_at",
  "event_start_at",
  "event_end_at"
]

describe("POST /query_memory over HTTP", () => {
  const { temp, start } = serverSuite()

  it("answers rows of N.E.K.O.'s shape, folds Traditional Chinese and routes time-only queries", async () => {
    plant(temp.memory, "Tian", { "facts.json": facts, "reflections.json": reflections })
    const server = await start(temp.memory)
    const url = `${server.url}/query_memory/Tian`
    const ramen = await post(url, JSON.stringify({ query: "ramen", language: "en" }))
    assert.strictEqual(ramen.status, 200)
    assert.include(ramen.type, "application/json")
    const body = JSON.parse(ramen.text)
    assert.deepStrictEqual(Object.keys(body), ["results", "query", "candidates_total", "elapsed_ms"])
    assert.deepStrictEqual(
      body.results.map((r: { id: string }) => r.id),
      ["fact_3", "ref_1"]
    )
    assert.deepStrictEqual(Object.keys(body.results[0]), rowKeys)
    assert.deepStrictEqual(body.results[0], {
      id: "fact_3",
      text: "Master loves spicy ramen",
      tier: "fact",
      entity: "master",
      subject_kind: null,
      subject_id: null,
      scope: "legacy_private",
      score: 0.016393,
      created_at: "2026-06-02T10:00:00.000000",
      event_start_at: null,
      event_end_at: null
    })
    assert.strictEqual(body.results[1].tier, "reflection")
    assert.strictEqual(body.candidates_total, 4)

    const traditional = JSON.parse((await post(url, JSON.stringify({ query: "拉麵" }))).text)
    assert.deepStrictEqual(
      traditional.results.map((r: { id: string }) => r.id),
      ["fact_1"]
    )

    const may = JSON.parse((await post(url, JSON.stringify({ time: "2026-05" }))).text)
    assert.strictEqual(may.time, "2026-05")
    assert.strictEqual(may.query, "")
    assert.deepStrictEqual(
      may.results.map((r: { id: string; score: null }) => [r.id, r.score]),
      [
        ["fact_2", null],
        ["fact_1", null],
        ["fact_3", null],
        ["ref_1", null]
      ]
    )

    const windowed = JSON.parse((await post(url, JSON.stringify({ query: "Osaka ramen", time: "2026-05" }))).text)
    assert.deepStrictEqual(
      windowed.results.map((r: { id: string }) => r.id),
      ["fact_2"]
    )
    assert.strictEqual(windowed.candidates_total, 2)

    const group = { subject_kind: "group_chat", subject_id: "qq:1" }
    for (const subject of [group, { kind: "group_chat", subject_id: "qq:1", scope: "group_chat:qq:1" }]) {
      const scoped = JSON.parse((await post(url, JSON.stringify({ query: "ramen", subjects: [subject] }))).text)
      assert.deepStrictEqual(
        scoped.results.map((r: { id: string; scope: string; subject_id: string }) => [r.id, r.scope, r.subject_id]),
        [["fact_4", "group_chat:qq:1", "qq:1"]]
      )
    }
    const invalid = await post(
      url,
      JSON.stringify({ query: "ramen", subjects: [{ subject_kind: "dm", subject_id: "x" }] })
    )
    assert.strictEqual(JSON.parse(invalid.text).error_code, "hybrid_recall_failed")

    const badTime = JSON.parse((await post(url, JSON.stringify({ query: "Osaka", time: "someday" }))).text)
    assert.deepStrictEqual(
      badTime.results.map((r: { id: string }) => r.id),
      ["fact_2"]
    )
    assert.isUndefined(badTime.time)
  })

  it("answers empty without query or time, 422 for bad bodies and subjects, 400 for bad names", async () => {
    const server = await start(temp.memory)
    const url = `${server.url}/query_memory/Nobody`
    for (const body of ["{}", JSON.stringify({ query: "  ", time: "nope" })]) {
      const r = await post(url, body)
      assert.strictEqual(r.status, 200)
      assert.strictEqual(r.text, '{"results":[],"query":"","candidates_total":0,"elapsed_ms":0}')
    }
    const subject = { subject_kind: "group_chat", subject_id: "qq:1" }
    for (const subjects of [[], Array.from({ length: 9 }, () => subject)]) {
      const r = await post(url, JSON.stringify({ query: "ramen", subjects }))
      assert.strictEqual(r.status, 422)
      assert.deepStrictEqual(JSON.parse(r.text).detail[0].loc, ["body", "subjects"])
    }
    const scoped = await post(url, JSON.stringify({ query: "ramen", subjects: [subject] }))
    assert.deepStrictEqual(JSON.parse(scoped.text).results, [])
    assert.strictEqual((await post(url, "not json")).status, 422)
    assert.strictEqual((await post(url, JSON.stringify({ query: 3 }))).status, 422)
    const bad = await post(`${server.url}/query_memory/x.`, "{}")
    assert.strictEqual(bad.status, 400)
  })

  it("degrades to hybrid_recall_failed on a corrupt view, and renders markdown for the tool", async () => {
    plant(temp.memory, "Broken", { "facts.json": "[{" })
    plant(temp.memory, "Md", { "facts.json": facts })
    const server = await start(temp.memory)
    const broken = await post(`${server.url}/query_memory/Broken`, JSON.stringify({ query: " ramen " }))
    assert.strictEqual(broken.status, 200)
    assert.deepStrictEqual(JSON.parse(broken.text), {
      results: [],
      query: " ramen ",
      candidates_total: 0,
      elapsed_ms: 0,
      error_code: "hybrid_recall_failed"
    })
    const md = await post(`${server.url}/query_memory/Md?format=markdown`, JSON.stringify({ query: "Osaka ramen" }))
    assert.strictEqual(md.status, 200)
    assert.include(md.type, "text/plain")
    const lines = md.text.split("\n")
    assert.strictEqual(lines[0], "Found 2 relevant memories:")
    assert.match(
      lines[1] ?? "",
      /^1\. \[fact\/about the user\] Master (lives in Osaka|loves spicy ramen) {2}\(2026-0[56]-\d\d, /
    )
    const none = await post(
      `${server.url}/query_memory/Md?format=markdown`,
      JSON.stringify({ query: "Osaka", time: "2020", language: "zh" })
    )
    assert.include(none.text, "在该时间范围内没有找到匹配「Osaka」的记忆")
    const failed = await post(`${server.url}/query_memory/Broken?format=markdown`, JSON.stringify({ query: "x" }))
    assert.strictEqual(failed.text, "No relevant memory found.")
  })
})
