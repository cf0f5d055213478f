import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { get, history, makeTempRoot, post, startServer, turn } from "../support/server.js"
import { ownerLogs, overlaps, startRunner } from "../support/cluster.js"

describe("cluster mode, one runner on SQLite", () => {
  it("serves the character routes through the Character entity and claims each character, not the root", async () => {
    const temp = makeTempRoot()
    const shardDb = path.join(temp.root, "shards.db")
    const missing = await startServer(path.join(temp.root, "unmounted"), [
      "--cluster",
      "--runner-address",
      "127.0.0.1:1",
      "--shard-db",
      `sqlite:${shardDb}`
    ]).then(
      () => "started",
      (e: unknown) => String(e)
    )
    assert.include(missing, "does not exist", "a runner does not start on a missing shared root")
    const runner = await startRunner(temp.memory, `sqlite:${shardDb}`)
    try {
      const cached = await post(`${runner.url}/cache/Tian`, history(turn("I adopted a cat", "What is its name?")))
      assert.deepStrictEqual(JSON.parse(cached.text), { status: "cached", count: 2 })
      await post(`${runner.url}/cache/Mio`, history(turn("I like rain", "Me too")))
      const recent = JSON.parse((await get(`${runner.url}/get_recent_history/Tian`)).text)
      assert.include(recent, "I adopted a cat")
      const bad = await post(`${runner.url}/cache/a..b`, history(turn("x", "y")))
      assert.strictEqual(bad.status, 400)
      const query = await post(`${runner.url}/query_memory/Tian`, JSON.stringify({ query: "cat" }))
      assert.strictEqual(query.status, 200)
      const candidates = [
        { text: "Tian's cat is named Miso", entity: "master", target: "facts", source_file: "MEMORY.md" },
        { text: "Keeps bees on the roof", entity: "master", target: "persona", source_file: "USER.md" }
      ]
      const imported = await post(
        `${runner.url}/internal/memory/import_external_markdown`,
        JSON.stringify({ character_name: "Tian", source_format: "openclaw", imported_files: ["MEMORY.md"], candidates })
      )
      assert.deepInclude(JSON.parse(imported.text), { status: "success", added_persona: 1, added_facts: 1 })
      const miso = await post(`${runner.url}/query_memory/Tian`, JSON.stringify({ query: "Miso", language: "en" }))
      assert.include(miso.text, "Tian's cat is named Miso", "the import went through the Character entity")
      const segment = (id: string, text: string, owner: boolean) =>
        JSON.stringify({
          segments: [
            {
              input_history: JSON.stringify([{ role: "user", content: text }]),
              subject: { subject_kind: "group_participant", subject_id: `qq:100:${id}` },
              speaker_label: owner ? "Owner" : "Bob",
              speaker_id: `qq:${id}`,
              speaker_tier: owner ? "admin" : "normal",
              speaker_is_owner: owner
            }
          ]
        })
      await post(`${runner.url}/internal/trust/waive_legacy_barrier`, JSON.stringify({ platform: "qq" }))
      await post(`${runner.url}/internal/memory/Tian/scoped_history`, segment("222", "I am vegetarian.", false))
      const corrected = await post(
        `${runner.url}/internal/memory/Tian/scoped_history`,
        segment("999", "Bob is not vegetarian.", true)
      )
      assert.deepInclude(
        JSON.parse(corrected.text).segments[0].trust_events[0],
        { kind: "correction", speaker_id: "qq:222" },
        "owner signals go through the Character entity"
      )

      const single = await startServer(temp.memory).then(
        () => "started",
        (e: unknown) => String(e)
      )
      assert.include(single, "is using the memory root", "a single-process server stays out of a cluster's root")
      const logs = ownerLogs(temp.memory)
      assert.deepStrictEqual([...logs.keys()].sort(), ["Mio", "Tian"])
      for (const log of logs.values()) {
        assert.deepStrictEqual(
          log.map((e) => [e.runner, e.event]),
          [[runner.id, "acquired"]]
        )
      }
      const journal = readFileSync(path.join(temp.memory, "Tian", "events.ndjson"), "utf8")
      assert.include(journal, "I adopted a cat")
      const db = new Database(shardDb, { readonly: true })
      const runners = db.prepare("SELECT address FROM cluster_runners").all()
      db.close()
      assert.deepStrictEqual(runners, [{ address: runner.id }])
    } finally {
      await runner.stop()
    }
    for (const log of ownerLogs(temp.memory).values()) {
      assert.deepStrictEqual(overlaps(log), [])
      assert.strictEqual(log.at(-1)?.event, "released")
    }
    temp.cleanup()
  })
})
