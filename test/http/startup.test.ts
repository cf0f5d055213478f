import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { Schema } from "effect"
import { RecentFile } from "../../src/domain/Message.js"
import { get, history, post, serverSuite, turn, turnsEvent } from "../support/server.js"

const neko = (type: "human" | "ai", content: string) => ({ type, data: { content } })

/** A N.E.K.O. `time_indexed_<name>.db` holding one row. */
const legacyTimeIndex = (file: string, text: string) => {
  const db = new Database(file)
  try {
    db.exec(
      "CREATE TABLE time_indexed_original (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, message TEXT, timestamp DATETIME)"
    )
    db.prepare("INSERT INTO time_indexed_original (session_id, message, timestamp) VALUES (?, ?, ?)").run(
      "s1",
      JSON.stringify(neko("human", text)),
      "2026-01-02 10:00:00.000000"
    )
  } finally {
    db.close()
  }
}

describe("startup order", () => {
  const { temp, start } = serverSuite()

  it("answers 409 on every route but /health until recovery is done", async () => {
    const memory = path.join(temp.root, "slow", "memory")
    for (let i = 0; i < 40; i++) {
      const dir = path.join(memory, `C${i}`)
      mkdirSync(dir, { recursive: true })
      const event = turnsEvent(`00000000-0000-4000-8000-${String(i).padStart(12, "0")}`, "2026-11-30 10:00:00.000000", [
        neko("human", `journal only ${i}`)
      ])
      writeFileSync(path.join(dir, "events.ndjson"), JSON.stringify(event) + "\n")
    }
    const server = await start(memory, [], {}, { untilRecovered: false })
    const during = await post(`${server.url}/cache/Probe`, history(turn("early", "reply")))
    const health = await get(`${server.url}/health`)
    assert.strictEqual(health.status, 200)
    assert.strictEqual(during.status, 409)
    assert.deepInclude(JSON.parse(during.text), {
      error_code: "storage_startup_blocked",
      blocking_reason: "runtime_initializing"
    })
    assert.strictEqual((await get(`${server.url}/new_dialog/C1`)).status, 409)
    await server.waitFor(/startup recovery done/)
    const after = await post(`${server.url}/cache/Probe`, history(turn("late", "reply")))
    assert.strictEqual(JSON.parse(after.text).status, "cached")
    const recent = Schema.decodeUnknownSync(Schema.parseJson(RecentFile))(
      readFileSync(path.join(memory, "C39", "recent.json"), "utf8")
    )
    assert.deepStrictEqual(
      recent.map((m) => m.data.content),
      ["journal only 39"]
    )
  })

  it("moves a legacy flat N.E.K.O. layout into character directories and serves it", async () => {
    const root = path.join(temp.root, "legacy")
    const memory = path.join(root, "memory")
    mkdirSync(memory, { recursive: true })
    mkdirSync(path.join(root, "config"), { recursive: true })
    writeFileSync(
      path.join(root, "config", "characters.json"),
      JSON.stringify({ 主人: { 档案名: "Ren" }, 猫娘: { Mochi: { 性格: "gentle" } }, 当前猫娘: "Mochi" })
    )
    writeFileSync(
      path.join(memory, "recent_Mochi.json"),
      JSON.stringify([neko("human", "I moved to Kyoto last spring"), neko("ai", "Kyoto suits you")])
    )
    writeFileSync(path.join(memory, "settings_Mochi.json"), JSON.stringify({ Ren: { city: "Kyoto" } }))
    writeFileSync(
      path.join(memory, "reflections_archive_Mochi.json"),
      JSON.stringify([{ id: "ref_0123456789abcdef", text: "old", archived_at: "2026-01-02T10:00:00" }])
    )
    legacyTimeIndex(path.join(memory, "time_indexed_Mochi.db"), "I moved to Kyoto last spring")
    mkdirSync(path.join(memory, "Taken"))
    writeFileSync(path.join(memory, "Taken", "recent.json"), JSON.stringify([neko("human", "per-character wins")]))
    writeFileSync(path.join(memory, "recent_Taken.json"), JSON.stringify([neko("human", "flat loses")]))

    const server = await start(memory)
    const dir = path.join(memory, "Mochi")
    assert.sameMembers(
      readdirSync(memory).filter((f) => !f.startsWith(".kioku")),
      ["Mochi", "Taken", "recent_Taken.json"]
    )
    for (const f of ["recent.json", "settings.json", "time_indexed.db", "persona.json"]) {
      assert.isTrue(existsSync(path.join(dir, f)), f)
    }
    assert.isTrue(existsSync(path.join(dir, "reflection_archive", ".migrated_from_flat")))
    const recent = await get(`${server.url}/get_recent_history/Mochi`)
    assert.strictEqual(recent.status, 200)
    assert.include(recent.text, "I moved to Kyoto last spring")
    const persona = readFileSync(path.join(dir, "persona.json"), "utf8")
    assert.include(persona, "性格: gentle")
    assert.include(persona, "city: Kyoto")
    assert.include((await get(`${server.url}/get_recent_history/Taken`)).text, "per-character wins")
    await post(`${server.url}/cache/Mochi`, history(turn("still here", "welcome back")))
    const db = new Database(path.join(dir, "time_indexed.db"), { readonly: true })
    try {
      assert.strictEqual(Number(db.prepare("SELECT COUNT(*) FROM time_indexed_original").pluck().get()), 3)
    } finally {
      db.close()
    }
  })
})
