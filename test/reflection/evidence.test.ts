import { assert, describe, it } from "@effect/vitest"
import { tunablesFrom } from "../../src/Config.js"
import { localIso } from "../../src/domain/LocalTime.js"
import {
  applySignal,
  decayed,
  effective,
  emptyEvidence,
  reinforcementSeed,
  score,
  tallySubZero,
  tier
} from "../../src/reflection/evidence/Evidence.js"

const t = tunablesFrom({})
const DAY = 86_400_000
const now = new Date(2026, 10, 30, 12).getTime()
const ago = (days: number) => localIso(now - days * DAY)

describe("evidence", () => {
  it("decays reinforcement over 30 days and disputation over 180 days", () => {
    assert.strictEqual(decayed(1, 30 * DAY, 30), 0.5)
    assert.strictEqual(decayed(2, 60 * DAY, 30), 0.5)
    assert.strictEqual(decayed(1, 180 * DAY, 180), 0.5)
    assert.strictEqual(decayed(1, -5 * DAY, 30), 1)
    const e = {
      ...emptyEvidence,
      reinforcement: 2,
      disputation: 1,
      rein_last_signal_at: ago(30),
      disp_last_signal_at: ago(180)
    }
    assert.deepStrictEqual(effective(e, now, t), { reinforcement: 1, disputation: 0.5 })
    assert.strictEqual(score(e, now, t), 0.5)
    assert.closeTo(score({ ...e, rein_last_signal_at: ago(15) }, now, t), 2 * Math.SQRT1_2 - 0.5, 1e-12)
    assert.strictEqual(score({ ...e, rein_last_signal_at: ago(-3), disp_last_signal_at: "garbage" }, now, t), 1)
    assert.strictEqual(score(e, now, t, true), Number.POSITIVE_INFINITY)
  })

  it("maps scores to tiers", () => {
    assert.deepStrictEqual(
      [2, 1.99, 1, 0, -1.99, -2].map((s) => tier(s, t)),
      ["promoted", "confirmed", "confirmed", "pending", "pending", "archive_candidate"]
    )
  })

  it("applies signals to the raw values, resetting only the touched clock, with the user_fact combo", () => {
    const stamp = ago(0)
    let e = applySignal(emptyEvidence, { reinforcement: 0.5, source: "user_fact" }, stamp, t)
    assert.deepStrictEqual(
      [e.reinforcement, e.user_fact_reinforce_count, e.rein_last_signal_at, e.disp_last_signal_at],
      [0.5, 1, stamp, null]
    )
    e = applySignal(e, { reinforcement: 0.5, source: "user_fact" }, stamp, t)
    assert.strictEqual(e.reinforcement, 1)
    e = applySignal(e, { reinforcement: 0.5, source: "user_fact" }, stamp, t)
    assert.deepStrictEqual([e.reinforcement, e.user_fact_reinforce_count], [2, 3])
    e = applySignal(e, { reinforcement: 1, source: "user_confirm" }, stamp, t)
    assert.deepStrictEqual([e.reinforcement, e.user_fact_reinforce_count], [3, 3])
    const d = applySignal({ ...emptyEvidence, disputation: 0.5 }, { disputation: -2, source: "user_rebut" }, stamp, t)
    assert.strictEqual(d.disputation, 0)
    const r = applySignal(emptyEvidence, { reinforcement: -0.2, source: "user_ignore" }, stamp, t)
    assert.strictEqual(r.reinforcement, -0.2)
  })

  it("tallies sub-zero days at most once per calendar day", () => {
    let e = tallySubZero(emptyEvidence, -0.1, "2026-11-29")
    e = tallySubZero(e, -0.1, "2026-11-29")
    assert.deepStrictEqual([e.sub_zero_days, e.sub_zero_last_increment_date], [1, "2026-11-29"])
    e = tallySubZero(e, -0.1, "2026-11-30")
    assert.strictEqual(e.sub_zero_days, 2)
    assert.strictEqual(tallySubZero(e, 0, "2026-12-01").sub_zero_days, 2)
  })

  it("seeds reinforcement from the highest fact importance", () => {
    assert.deepStrictEqual([10, 9, 8, 7, 6, 1].map(reinforcementSeed), [0.8, 0.6, 0.4, 0.2, 0, 0])
  })
})
