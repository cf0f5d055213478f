/**
 * A N.E.K.O. app directory as N.E.K.O. leaves it on disk (neko-compat §2): `config/` with core_config.json and
 * characters.json, `memory/Mochi/` in the per-character layout (views, time index, journal with a N.E.K.O.
 * event and its sentinel, outbox, cursors, an archive shard) and Bob in the legacy flat layout.
 */
import Database from "better-sqlite3"
import { mkdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"

const json = (file: string, value: unknown) => {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, JSON.stringify(value, null, 2))
}

const msg = (type: string, content: string) => ({ type, data: { content } })

export const nekoApp = (app: string) => {
  const memory = path.join(app, "memory")
  const mochi = path.join(memory, "Mochi")
  json(path.join(app, "config", "core_config.json"), {
    powerful_memory_enabled: false,
    recent_memory_auto_review: true
  })
  json(path.join(app, "config", "characters.json"), {
    主人: { 档案名: "Ren" },
    猫娘: { Mochi: { 性格: "calm" }, Bob: {} },
    当前猫娘: "Mochi"
  })
  json(path.join(mochi, "recent.json"), [
    msg("system", "Memo from prior conversations: Ren talked about tea."),
    msg("human", "I brewed sencha this morning"),
    msg("ai", "Sencha again? You really love green tea")
  ])
  json(path.join(mochi, "facts.json"), [
    {
      id: "fact_20260102100000_1a2b3c4d",
      text: "Ren drinks sencha every morning",
      importance: 6,
      entity: "master",
      source: "user_observation",
      tags: [],
      hash: "1a2b3c4d5e6f7a8b",
      created_at: "2026-01-02T10:00:00.000000",
      event_when_raw: null,
      event_start_at: "2026-01-02T10:00:00.000000",
      event_end_at: null,
      schema_version: 2,
      absorbed: false,
      signal_processed: true,
      embedding: null
    }
  ])
  json(path.join(mochi, "reflections.json"), [
    {
      id: "ref_0123456789abcdef",
      text: "Ren finds calm in tea rituals",
      entity: "master",
      status: "confirmed",
      source_fact_ids: ["fact_20260102100000_1a2b3c4d"],
      created_at: "2026-01-03T09:00:00.000000",
      feedback: null,
      reinforcement: 1,
      disputation: 0
    }
  ])
  json(path.join(mochi, "persona.json"), {
    neko: { facts: [] },
    master: {
      facts: [{ id: "manual_20260101000000_abcd1234", text: "Ren is a night owl", source: "manual", protected: false }]
    },
    relationship: { facts: [] }
  })
  json(path.join(mochi, "cursors.json"), { rebuttal_checked_until: "2026-01-03T00:00:00.000000" })
  json(path.join(mochi, "surfaced.json"), [])
  json(path.join(mochi, "reflection_archive", "2026-01-01_abcdef01.json"), [
    { id: "ref_fedcba9876543210", text: "Ren disliked coffee", status: "archived", created_at: "2025-12-01T00:00:00" }
  ])
  const eventId = "5b0e8a52-0000-4000-8000-000000000001"
  writeFileSync(
    path.join(mochi, "events.ndjson"),
    JSON.stringify({
      event_id: eventId,
      type: "reflection.evidence_updated",
      ts: "2026-01-03T09:00:00.000000",
      payload: { reflection_id: "ref_0123456789abcdef", reinforcement: 1, disputation: 0, source: "user_confirm" }
    }) + "\n"
  )
  json(path.join(mochi, "events_applied.json"), { last_applied_event_id: eventId, ts: "2026-01-03T09:00:00.000000" })
  writeFileSync(
    path.join(mochi, "outbox.ndjson"),
    [
      { op_id: "op-1", type: "extract_facts", payload: { messages: [] }, status: "pending", ts: "2026-01-02T10:00:00" },
      { op_id: "op-1", status: "done", ts: "2026-01-02T10:00:01" }
    ]
      .map((l) => JSON.stringify(l))
      .join("\n") + "\n"
  )
  const db = new Database(path.join(mochi, "time_indexed.db"))
  db.exec(
    "CREATE TABLE time_indexed_original (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, message TEXT, timestamp DATETIME)"
  )
  const insert = db.prepare("INSERT INTO time_indexed_original (session_id, message, timestamp) VALUES (?, ?, ?)")
  insert.run("s1", JSON.stringify(msg("human", "I brewed sencha this morning")), "2026-01-02 10:00:00.000000")
  insert.run("s1", JSON.stringify(msg("ai", "Sencha again? You really love green tea")), "2026-01-02 10:00:00.000000")
  db.close()
  json(path.join(memory, "recent_Bob.json"), [msg("human", "Bob here, I fix bicycles"), msg("ai", "Nice to meet you")])
  json(path.join(memory, "settings_Bob.json"), { Ren: { hobby: "cycling" } })
  json(path.join(memory, "idle_maintenance_state.json"), {})
  return { memory, mochi }
}
