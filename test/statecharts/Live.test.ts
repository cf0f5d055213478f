import { assert, describe, it } from "@effect/vitest"
import { countBy, historyOf, type LiveEntry } from "../../src/statecharts/Live.js"

const line = (event_id: string, type: string, payload: Readonly<Record<string, unknown>>) => ({
  event_id,
  type,
  ts: `2026-11-0${event_id.slice(1)}T10:00:00`,
  payload
})

describe("state-chart live data", () => {
  it("follows a persona entry through suppression, a correction and its archival", () => {
    const snapshot = (suppress: boolean) => ({ id: "manual_1", text: "likes tea", suppress })
    const events = [
      line("e1", "persona.fact_added", { entity_key: "master", entry_id: "manual_1", entry_snapshot: snapshot(false) }),
      line("e2", "persona.evidence_updated", {
        entity_key: "master",
        entry_id: "manual_1",
        entry_snapshot: snapshot(true)
      }),
      line("e3", "persona.fact_added", { entity_key: "master", entry_id: "other", entry_snapshot: snapshot(false) }),
      line("e4", "correction.queued", { correction: { correction_id: "c1", old_id: "manual_1" } }),
      line("e5", "correction.resolved", { correction_ids: ["c1"], action: "keep_both" }),
      line("e6", "persona.fact_added", {
        entity_key: "master",
        entry_id: "manual_1",
        entry_snapshot: snapshot(false),
        archived_at: "2026-11-06T10:00:00"
      }),
      line("e7", "reflection.state_changed", { reflection_id: "manual_1" })
    ]
    assert.deepStrictEqual(
      historyOf(events, "manual_1").map((s) => [s.type, s.from, s.to]),
      [
        ["persona.fact_added", null, "active"],
        ["persona.evidence_updated", "active", "suppressed"],
        ["correction.queued", "suppressed", "corrected"],
        ["correction.resolved", "corrected", "active"],
        ["persona.fact_added", "active", "archived"]
      ]
    )
  })

  it("counts every state of the machine, including states no entry is in", () => {
    const entry = (state: string): LiveEntry => ({ machine: "reflection", state, id: state, text: "", score: 0 })
    assert.deepStrictEqual(
      countBy([entry("pending"), entry("pending"), entry("denied")], "reflection", ["pending", "confirmed"]),
      {
        pending: 2,
        confirmed: 0,
        denied: 1
      }
    )
  })
})
