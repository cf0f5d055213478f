/**
 * The state-chart seed plus facts, archived facts (a legacy flat file and a shard), source facts on a
 * reflection and a protected card line, for the memory browser.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { seed as statechartSeed } from "./statechartSeed.js"

const fact = (id: string, text: string, importance: number) => ({
  id,
  text,
  importance,
  entity: "master",
  hash: id.slice(-8).padEnd(16, "0"),
  created_at: "2026-11-01T09:00:00"
})

export const seed = (dir: string) => {
  statechartSeed(dir)
  const json = (file: string, value: unknown) => writeFileSync(path.join(dir, file), JSON.stringify(value, null, 2))
  json("facts.json", [
    fact("fact_20261101090000_aaaa0001", "Tian drinks oolong tea every morning", 7),
    fact("fact_20261101090000_aaaa0002", "Tian moved to Kyoto in spring", 6),
    fact("fact_20261101090000_aaaa0003", "Tian plays the violin on weekends", 5)
  ])
  json("facts_archive.json", [fact("fact_20250101090000_bbbb0001", "Tian lived in Osaka as a student", 4)])
  mkdirSync(path.join(dir, "facts_archive"), { recursive: true })
  const shard = "2026-10-01_0a1b2c3d.json"
  json(path.join("facts_archive", shard), [
    {
      ...fact("fact_20260901090000_bbbb0002", "Tian drank coffee every morning", 5),
      archived_at: "2026-10-01T08:00:00",
      archive_shard_path: shard
    }
  ])
  const reflections: Array<Record<string, unknown>> = JSON.parse(
    readFileSync(path.join(dir, "reflections.json"), "utf8")
  )
  json(
    "reflections.json",
    reflections.map((r) =>
      r["id"] === "ref_p1"
        ? {
            ...r,
            text: "Tian keeps calm morning rituals",
            source_fact_ids: ["fact_20261101090000_aaaa0001"],
            rein_last_signal_at: "2026-11-25T10:00:00"
          }
        : r
    )
  )
  json("persona.json", {
    neko: { facts: [{ id: "card_0a0b0c0d", text: "name: Tian", source: "character_card", protected: true }] },
    master: {
      facts: [
        { id: "manual_1", text: "likes tea", source: "manual", suppress: true },
        { id: "manual_2", text: "lives in Kyoto", source: "manual", reinforcement: 1 }
      ]
    }
  })
}
