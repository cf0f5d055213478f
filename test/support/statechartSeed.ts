/** A character directory with reflections in several states, an archive shard, persona and a journal. */
import { mkdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"

const reflection = (id: string, status: string, extra: Readonly<Record<string, unknown>> = {}) => ({
  id,
  text: `reflection ${id}`,
  entity: "master",
  status,
  source_fact_ids: [],
  created_at: "2026-11-01T10:00:00",
  reinforcement: 1.5,
  ...extra
})

export const seed = (dir: string) => {
  mkdirSync(path.join(dir, "reflection_archive"), { recursive: true })
  const json = (file: string, value: unknown) => writeFileSync(path.join(dir, file), JSON.stringify(value, null, 2))
  json("reflections.json", [
    reflection("ref_p1", "pending"),
    reflection("ref_p2", "pending"),
    reflection("ref_c1", "confirmed"),
    reflection("ref_d1", "denied")
  ])
  json(path.join("reflection_archive", "2026-11-20_0a1b2c3d.json"), [
    reflection("ref_a1", "archived", {
      archived_at: "2026-11-20T10:00:00",
      archive_shard_path: "2026-11-20_0a1b2c3d.json"
    })
  ])
  json("persona.json", {
    master: {
      facts: [
        { id: "manual_1", text: "likes tea", source: "manual", suppress: true },
        { id: "manual_2", text: "lives in Kyoto", source: "manual" }
      ]
    }
  })
  const events = [
    {
      event_id: "e1",
      type: "reflection.synthesized",
      ts: "2026-11-01T10:00:00",
      payload: { reflection: reflection("ref_c1", "pending") }
    },
    {
      event_id: "e2",
      type: "reflection.state_changed",
      ts: "2026-11-02T10:00:00",
      payload: {
        reflection_id: "ref_c1",
        from: "pending",
        to: "confirmed",
        entry_snapshot: reflection("ref_c1", "confirmed")
      }
    }
  ]
  writeFileSync(path.join(dir, "events.ndjson"), events.map((e) => JSON.stringify(e)).join("\n") + "\n")
  json("events_applied.json", { last_applied_event_id: "e2", ts: "2026-11-02T10:00:00" })
}
