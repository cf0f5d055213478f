import { assert, describe, it } from "@effect/vitest"
import { rebuttalStart, rebuttalWindow } from "../../src/reflection/evidence/RebuttalWindow.js"

const HOUR = 3_600_000
const now = 10 * HOUR
const row = (ts: number) => ({ ts, text: `m${ts}` })
const tss = (rows: ReadonlyArray<{ readonly ts: number }>) => rows.map((r) => r.ts)

describe("rebuttal window", () => {
  it("starts at the cursor, or an hour back when it is missing or in the future", () => {
    assert.strictEqual(rebuttalStart(5 * HOUR, now), 5 * HOUR)
    assert.strictEqual(rebuttalStart(now, now), now)
    assert.strictEqual(rebuttalStart(undefined, now), 9 * HOUR)
    assert.strictEqual(rebuttalStart(now + 1, now), 9 * HOUR)
    assert.strictEqual(rebuttalStart(undefined, now, 1000), now - 1000)
  })

  it("takes everything after a missing cursor and advances to the last row", () => {
    const rows = [row(8 * HOUR), row(9 * HOUR), row(9 * HOUR + 5), row(9 * HOUR + 9)]
    const w = rebuttalWindow({ cursor: undefined, now, rows })
    assert.strictEqual(w.from, 9 * HOUR)
    assert.deepStrictEqual(tss(w.take), [9 * HOUR + 5, 9 * HOUR + 9])
    assert.strictEqual(w.nextCursor, 9 * HOUR + 9)
  })

  it("resets a future cursor to the lookback", () => {
    const rows = [row(now - 10), row(now - 5)]
    const w = rebuttalWindow({ cursor: now + HOUR, now, rows, lookbackMs: 7 })
    assert.strictEqual(w.from, now - 7)
    assert.deepStrictEqual(tss(w.take), [now - 5])
    assert.strictEqual(w.nextCursor, now - 5)
  })

  it("drains a batch at a time, extending the batch over ties at its boundary", () => {
    const rows = [row(1), row(2), row(3), row(3), row(3), row(4), row(5)]
    const first = rebuttalWindow({ cursor: 0, now, rows, batch: 3 })
    assert.deepStrictEqual(tss(first.take), [1, 2, 3, 3, 3])
    assert.strictEqual(first.nextCursor, 3)
    const second = rebuttalWindow({ cursor: first.nextCursor, now, rows: rows.slice(5), batch: 3 })
    assert.deepStrictEqual(tss(second.take), [4, 5])
    assert.strictEqual(second.nextCursor, 5)
    const noTie = rebuttalWindow({ cursor: 0, now, rows, batch: 2 })
    assert.deepStrictEqual(tss(noTie.take), [1, 2])
    assert.strictEqual(noTie.nextCursor, 2)
    const allTied = rebuttalWindow({ cursor: 0, now, rows: [row(7), row(7), row(7)], batch: 1 })
    assert.deepStrictEqual(tss(allTied.take), [7, 7, 7])
    assert.strictEqual(allTied.nextCursor, 7)
  })

  it("uses a default batch of 20", () => {
    const rows = Array.from({ length: 25 }, (_, i) => row(i + 1))
    const w = rebuttalWindow({ cursor: 0, now, rows })
    assert.strictEqual(w.take.length, 20)
    assert.strictEqual(w.nextCursor, 20)
  })

  it("advances to now when there is nothing to check", () => {
    assert.deepStrictEqual(rebuttalWindow({ cursor: 5 * HOUR, now, rows: [] }), {
      from: 5 * HOUR,
      take: [],
      nextCursor: now
    })
    const stale = rebuttalWindow({ cursor: 5 * HOUR, now, rows: [row(4 * HOUR), row(5 * HOUR)] })
    assert.deepStrictEqual(stale.take, [])
    assert.strictEqual(stale.nextCursor, now)
  })
})
