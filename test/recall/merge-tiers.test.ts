import { describe, expect, it } from "@effect/vitest"
import { mergeTiers } from "../../src/recall/MergeTiers.js"
import type { RecallRow } from "../../src/recall/RecallTypes.js"

const row = (tier: RecallRow["tier"], id: string, sources?: ReadonlyArray<number>): RecallRow => ({
  id,
  text: id,
  tier,
  entity: "x",
  subject_kind: null,
  subject_id: null,
  scope: "legacy_private",
  score: null,
  created_at: null,
  event_start_at: null,
  event_end_at: null,
  ...(sources === undefined ? {} : { source_row_ids: sources })
})

const turns = (n: number) => Array.from({ length: n }, (_, i) => row("turn", `turn:${i + 1}`, [i + 1]))
const params = { k: 60, turnWeight: 2, total: 4, memorySlots: 0 }

describe("mergeTiers", () => {
  it("lets a fact take the place of the turn it was made from", () => {
    const merged = mergeTiers([row("fact", "f3")], turns(5), new Map([["f3", [3]]]), params)
    expect(merged.map((r) => r.id)).toEqual(["turn:1", "turn:2", "f3", "turn:4"])
    expect(merged[2]?.score).toBe(Math.round((2 / 63) * 1e6) / 1e6)
  })

  it("without sources, weak memory rows lose every slot to the weighted turns", () => {
    const merged = mergeTiers([row("fact", "f1"), row("fact", "f2")], turns(6), new Map(), params)
    expect(merged.map((r) => r.tier)).toEqual(["turn", "turn", "turn", "turn"])
  })

  it("keeps memorySlots of the rows for memory rows, in place of the weakest turns", () => {
    const memories = [row("fact", "f1"), row("reflection", "r1"), row("fact", "f2")]
    const merged = mergeTiers(memories, turns(6), new Map(), { ...params, memorySlots: 2 })
    expect(merged.map((r) => r.id)).toEqual(["turn:1", "turn:2", "f1", "r1"])
  })

  it("leaves out a short turn that only echoes a neighbour already shown", () => {
    const echo = new Set([2, 5])
    const rows = [
      row("turn", "turn:1", [1]),
      row("turn", "turn:2", [2]),
      row("turn", "turn:5", [5]),
      row("turn", "turn:9", [9])
    ]
    const merged = mergeTiers([], rows, new Map(), { ...params, borrowed: echo })
    expect(merged.map((r) => r.id)).toEqual(["turn:1", "turn:5", "turn:9"])
    const afterFact = mergeTiers(
      [row("fact", "f8")],
      [row("turn", "turn:8", [8]), row("turn", "turn:9", [9])],
      new Map([["f8", [8]]]),
      { ...params, borrowed: new Set([9]) }
    )
    expect(afterFact.map((r) => r.id)).toEqual(["f8"])
  })

  it("reserves no more memory slots than memory rows were found", () => {
    const merged = mergeTiers([row("fact", "f1")], turns(6), new Map(), { ...params, memorySlots: 3 })
    expect(merged.map((r) => r.id)).toEqual(["turn:1", "turn:2", "turn:3", "f1"])
  })
})
