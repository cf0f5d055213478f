import { assert, describe, it } from "@effect/vitest"
import { recallByTime } from "../../src/recall/Hybrid.js"
import * as Corpus from "../../src/recall/RecallCorpus.js"
import { parseInstant } from "../../src/recall/RecallEntry.js"
import { makeSubject, subjectMarker } from "../../src/domain/Subject.js"
import { Either } from "effect"
import { parseTimeWindow } from "../../src/recall/TimeWindow.js"
import { corpusOf, fact, NOW, recall, reflection, t } from "../support/recall.js"

const subjectKey = (kind: string, id: string, scope: string) =>
  Either.getOrUndefined(Either.map(makeSubject(kind, id, scope), subjectMarker))

const parseInstantLocal = (text: string) => parseInstant(text) ?? Number.NaN
const ids = (rows: ReadonlyArray<{ readonly id: string }>) => rows.map((r) => r.id).sort()
const group = { subject_kind: "group_chat", subject_id: "qq:42", scope: "group_chat:qq:42" }

describe("the recall hard filter and pools", () => {
  const pools = {
    facts: [
      fact("f_ok", "tea time"),
      fact("f_protected", "tea protected", { protected: true }),
      fact("f_negative", "tea stored negative", { score: -1 }),
      fact("f_blank", "   "),
      fact("f_group", "tea in the group", group),
      fact("f_partial", "tea partial subject", { subject_kind: "group_chat" }),
      fact("f_both", "tea active copy")
    ],
    reflections: [
      reflection("r_pending", "tea pending"),
      reflection("r_confirmed", "tea confirmed", { status: "confirmed", reinforcement: 1, disputation: 0.5 }),
      reflection("r_disputed", "tea disputed", { reinforcement: 0, disputation: 1, disp_last_signal_at: null }),
      reflection("r_ignored", "tea ignored only", { reinforcement: -0.2 }),
      reflection("r_suppressed", "tea suppressed", { suppress: true }),
      reflection("r_denied", "tea denied", { status: "denied" }),
      reflection("r_promoted", "tea promoted", { status: "promoted" })
    ],
    archive: [
      fact("a_old", "tea archived"),
      fact("f_both", "tea archived copy"),
      fact("a_marked", "tea subject archived", { subject_archived_at: "2026-06-01T00:00:00" })
    ]
  }

  it("drops computed negative scores, suppressed, protected, terminal, blank and overlapping rows", () => {
    const corpus = corpusOf(pools)
    const window = parseTimeWindow("2026-05-01", NOW)
    if (window === undefined) return assert.fail("window")
    const pool = recallByTime(corpus, { partitions: ["legacy_private"], window, nowMillis: NOW }, t)
    // the disputed reflection scores 0 − 1 < 0 now; a merely ignored one (no disputation) stays
    assert.deepStrictEqual(ids(pool.rows), ["a_old", "f_both", "f_ok", "r_confirmed", "r_ignored", "r_pending"].sort())
    assert.strictEqual(pool.candidatesTotal, 6)
    assert.strictEqual(pool.rows.find((r) => r.id === "f_both")?.text, "tea active copy")
    assert.strictEqual(pool.rows.find((r) => r.id === "a_old")?.tier, "fact_archive")
    assert.strictEqual(recall(corpus, "tea").candidatesTotal, 6)
    assert.deepStrictEqual(
      ids(recall(corpus, "protected stored negative suppressed denied promoted disputed").rows),
      []
    )
  })

  it("scores as if the dropped rows had never been in the pool", () => {
    const filtered = corpusOf({
      facts: [fact("f_ok", "tea time"), fact("f_both", "tea active copy")],
      reflections: [
        reflection("r_pending", "tea pending"),
        reflection("r_confirmed", "tea confirmed", { status: "confirmed", reinforcement: 1, disputation: 0.5 }),
        reflection("r_ignored", "tea ignored only", { reinforcement: -0.2 })
      ],
      archive: [fact("a_old", "tea archived")]
    })
    const both = [recall(corpusOf(pools), "tea time archived"), recall(filtered, "tea time archived")]
    assert.deepStrictEqual(both[0], both[1])
  })

  it("searches only the requested subjects, and private memory only without subjects", () => {
    const corpus = corpusOf(pools)
    const key = subjectKey("group_chat", "qq:42", "group_chat:qq:42") ?? ""
    assert.deepStrictEqual(ids(recall(corpus, "group", { partitions: [key] }).rows), ["f_group"])
    assert.deepStrictEqual(ids(recall(corpus, "group").rows), [])
    assert.deepStrictEqual(ids(recall(corpus, "partial", { partitions: [key, "legacy_private"] }).rows), [])
    assert.isUndefined(subjectKey("group_participant", "qq:42", "x"))
    assert.isUndefined(subjectKey("group_chat", "qq:42", "legacy_private"))
    assert.isUndefined(subjectKey("dm", "qq:42", "dm:qq:42"))
  })

  it("follows changes incrementally and ends equal to a corpus built from the final views", () => {
    const live = Corpus.make(["Master", "Tian"])
    corpusOf(pools, live)
    const facts = [
      ...pools.facts.filter((f) => f.id !== "f_ok" && f.id !== "f_both"),
      fact("f_both", "green tea now"),
      fact("f_new", "jasmine tea")
    ]
    const reflections = pools.reflections.map((r) => (r.id === "r_suppressed" ? { ...r, suppress: false } : r))
    const archive = [...pools.archive, fact("f_ok", "tea time")]
    corpusOf({ facts, reflections, archive }, live)
    const rebuilt = corpusOf({ facts, reflections, archive })
    for (const q of ["tea", "green tea", "jasmine", "time", "suppressed"])
      assert.deepStrictEqual(recall(live, q), recall(rebuilt, q), q)
    assert.strictEqual(recall(live, "time").rows[0]?.tier, "fact_archive")
  })
})

describe("recall time windows", () => {
  const at = (y: number, mo: number, d: number, h = 0) => new Date(y, mo - 1, d, h).getTime()

  it("parses N.E.K.O.'s ISO forms into half-open local windows", () => {
    const w = (s: string) => parseTimeWindow(s, NOW)
    assert.deepStrictEqual(w("2026"), { start: at(2026, 1, 1), end: at(2027, 1, 1) })
    assert.deepStrictEqual(w("2026-05"), { start: at(2026, 5, 1), end: at(2026, 6, 1) })
    assert.deepStrictEqual(w("2026-12"), { start: at(2026, 12, 1), end: at(2027, 1, 1) })
    assert.deepStrictEqual(w("2026-05-31"), { start: at(2026, 5, 31), end: at(2026, 6, 1) })
    assert.deepStrictEqual(w("2026-05-01T14"), { start: at(2026, 5, 1, 14), end: at(2026, 5, 1, 15) })
    assert.deepStrictEqual(w("2026-05-01 14"), w("2026-05-01T14"))
    assert.deepStrictEqual(w("2026-05-01T14:35:10.5"), w("2026-05-01T14"))
    assert.deepStrictEqual(w("2026-05-01/2026-05-07"), { start: at(2026, 5, 1), end: at(2026, 5, 8) })
    assert.deepStrictEqual(w("2026-05-07..2026-05-01"), w("2026-05-01/2026-05-07"))
    assert.deepStrictEqual(w("2026-05-01T09/2026-05-01T18"), { start: at(2026, 5, 1, 9), end: at(2026, 5, 1, 19) })
    const utc = new Date(Date.UTC(2026, 4, 1, 14, 30))
    const hourStart = new Date(utc.getFullYear(), utc.getMonth(), utc.getDate(), utc.getHours()).getTime()
    assert.deepStrictEqual(w("2026-05-01T14:30:00Z")?.start, hourStart)
    for (const bad of ["", "2026-02-30", "2026-13", "9999", "2026-05-01T24", "2026-05-01/nope"])
      assert.isUndefined(w(bad), bad)
  })

  const entries = corpusOf({
    facts: [
      fact("in_late", "walk", { event_start_at: "2026-05-01T10:00:00" }),
      fact("before", "walk", { created_at: "2026-04-28T00:00:00" }),
      fact("after", "walk", { created_at: "2026-06-03T00:00:00" }),
      fact("spanning", "walk", { event_start_at: "2026-04-30T00:00:00", event_end_at: "2026-05-02T00:00:00" }),
      fact("at_end", "walk", { created_at: "2026-06-01T00:00:00" }),
      fact("timeless", "walk", { created_at: "someday" })
    ],
    reflections: [reflection("r_in", "walk", { created_at: "2026-05-20T08:00:00" })]
  })
  const may = parseTimeWindow("2026-05", NOW)

  it("hard-filters hybrid recall to entries meeting the window", () => {
    const found = recall(entries, "walk", { window: may })
    assert.deepStrictEqual(ids(found.rows), ["in_late", "r_in", "spanning"].sort())
    assert.strictEqual(found.candidatesTotal, 3)
  })

  it("orders time-only recall: inside first (later start first), then by distance; no score", () => {
    if (may === undefined) return assert.fail("window")
    const found = recallByTime(entries, { partitions: ["legacy_private"], window: may, nowMillis: NOW }, t)
    // inside: r_in (May 20) > in_late (May 1 10:00) > spanning (Apr 30); outside: at_end (0 s past the end),
    // after (2 days past), before (3 days before); timeless has no time and is left out
    assert.deepStrictEqual(
      found.rows.map((r) => r.id),
      ["r_in", "in_late", "spanning", "at_end", "after", "before"]
    )
    assert.isTrue(found.rows.every((r) => r.score === null))
    assert.strictEqual(found.candidatesTotal, 7)
  })

  it("finds on the timeline what a full scan finds, for random spans and windows", () => {
    let seed = 42
    const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32
    const base = at(2026, 1, 1)
    const hour = 3_600_000
    const iso = (m: number) => new Date(m).toISOString().slice(0, 19)
    const spec = Array.from({ length: 400 }, (_, i) => {
      const s = base + Math.floor(random() * 2000) * hour
      const span = random() < 0.1 ? Math.floor(random() * 300) * hour : 0
      return { id: `f${String(i).padStart(3, "0")}`, s, e: s + span, i }
    })
    const factsOf = (xs: typeof spec) =>
      xs.map((x) => fact(x.id, "walk", { created_at: iso(x.s), event_start_at: iso(x.s), event_end_at: iso(x.e) }))
    const corpus = corpusOf({ facts: factsOf(spec) })
    const local = (m: number) => parseInstantLocal(iso(m))
    const check = (live: typeof spec) => {
      for (let round = 0; round < 30; round++) {
        const from = base + Math.floor(random() * 2200) * hour
        const window = { start: from, end: from + Math.floor(random() * 200 + 1) * hour }
        const expected = live
          .map((x) => {
            const [s, e] = [local(x.s), local(x.e)]
            const inside = s < window.end && e >= window.start
            const distance = inside ? 0 : e < window.start ? window.start - e : s - window.end
            return { id: x.id, key: [inside ? 0 : 1, distance, -s, x.i] as const, inside }
          })
          .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2] || a.key[3] - b.key[3])
        const found = recallByTime(corpus, { partitions: ["legacy_private"], window, nowMillis: NOW }, t)
        assert.deepStrictEqual(
          found.rows.map((r) => r.id),
          expected.slice(0, 8).map((x) => x.id)
        )
        assert.strictEqual(recall(corpus, "walk", { window }).candidatesTotal, expected.filter((x) => x.inside).length)
      }
    }
    check(spec)
    // then half the entries leave and a tenth move: the timeline follows
    const moved = spec
      .filter((x) => x.i % 2 === 0)
      .map((x) => (x.i % 10 === 0 ? { ...x, s: x.s + 500 * hour, e: x.e + 520 * hour } : x))
    corpusOf({ facts: factsOf(moved) }, corpus)
    check(moved)
  })
})
