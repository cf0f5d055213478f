import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { Effect, Option, Schema } from "effect"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import * as Cursors from "../../src/store/Cursors.js"
import { sweepTemps } from "../../src/store/DurableFs.js"
import * as EventLog from "../../src/store/EventLog.js"
import * as Outbox from "../../src/store/Outbox.js"
import * as TimeIndex from "../../src/store/TimeIndex.js"
import * as ViewFile from "../../src/store/ViewFile.js"

const tempDir = () => mkdtempSync(path.join(tmpdir(), "kioku-store-"))
const Doc = Schema.Struct({ n: Schema.Number, name: Schema.String })

describe("ViewFile", () => {
  it.effect("round-trips a view with indent 2 and non-ASCII text", () =>
    Effect.gen(function* () {
      const view = ViewFile.make(Doc, path.join(tempDir(), "doc.json"))
      assert.deepStrictEqual(yield* view.read, Option.none())
      yield* view.write({ n: 1, name: "小天" })
      assert.deepStrictEqual(yield* view.read, Option.some({ n: 1, name: "小天" }))
      assert.strictEqual(readFileSync(view.file, "utf8"), '{\n  "n": 1,\n  "name": "小天"\n}')
    })
  )

  it.effect("reports a corrupt view as a typed decode error", () =>
    Effect.gen(function* () {
      const view = ViewFile.make(Doc, path.join(tempDir(), "doc.json"))
      writeFileSync(view.file, '{"n": 1, "name"')
      const error = yield* Effect.flip(view.read)
      assert.strictEqual(error._tag, "ViewDecodeError")
      writeFileSync(view.file, '{"n": "one", "name": "x"}')
      assert.strictEqual((yield* Effect.flip(view.read))._tag, "ViewDecodeError")
    })
  )

  it.effect("keeps the old view when a crash leaves a temp file behind before the rename", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const view = ViewFile.make(Doc, path.join(dir, "doc.json"))
      yield* view.write({ n: 1, name: "old" })
      writeFileSync(path.join(dir, "doc.json.deadbeef.tmp"), '{"n": 2, "na')
      assert.deepStrictEqual(yield* view.read, Option.some({ n: 1, name: "old" }))
      yield* view.write({ n: 3, name: "new" })
      assert.deepStrictEqual(yield* view.read, Option.some({ n: 3, name: "new" }))
    })
  )

  it.effect("sweeps the temp files a crash left, here and in archive directories, and nothing else", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const files = ["doc.json.deadbeef.tmp", "shards/2026-11-30_0123abcd.json.cafe0042.tmp", "notes.tmp", "doc.json"]
      mkdirSync(path.join(dir, "shards"))
      for (const f of files) writeFileSync(path.join(dir, f), "x")
      assert.strictEqual(yield* sweepTemps(dir), 2)
      assert.deepStrictEqual(readdirSync(dir, { recursive: true, encoding: "utf8" }).sort(), [
        "doc.json",
        "notes.tmp",
        "shards"
      ])
    })
  )
})

describe("EventLog", () => {
  const line = (id: string): EventLog.EventLine => ({ event_id: id, type: "turns.appended", ts: "t", payload: {} })

  it.effect("returns the events after the sentinel, the whole file without one", () =>
    Effect.gen(function* () {
      const log = EventLog.make(tempDir())
      yield* log.append([line("a"), line("b"), line("c")])
      assert.deepStrictEqual(
        (yield* log.unapplied).events.map((e) => e.event_id),
        ["a", "b", "c"]
      )
      yield* log.setSentinel("b", "t")
      const after = yield* log.unapplied
      assert.deepStrictEqual(
        after.events.map((e) => e.event_id),
        ["c"]
      )
      assert.strictEqual(after.lastEventId, "c")
      yield* log.setSentinel("zzz", "t")
      assert.strictEqual((yield* log.unapplied).events.length, 3)
    })
  )

  it.effect("makes its directory for the first append, and again when it has gone, appending in it", () =>
    Effect.gen(function* () {
      const dir = path.join(tempDir(), "character", "nested")
      const log = EventLog.make(dir)
      yield* log.append([line("a")])
      rmSync(path.join(dir, ".."), { recursive: true })
      yield* log.append([line("b")])
      assert.deepStrictEqual(
        (yield* log.unapplied).events.map((e) => e.event_id),
        ["b"]
      )
      const occupied = path.join(tempDir(), "occupied")
      writeFileSync(occupied, "")
      assert.strictEqual(
        (yield* Effect.flip(EventLog.make(occupied).append([line("c")])))._tag,
        "StoreError",
        "a file where the directory should be"
      )
    })
  )

  it.effect("starts a new line after a torn tail, and reports the torn line", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const log = EventLog.make(dir)
      yield* log.append([line("a")])
      writeFileSync(log.file, readFileSync(log.file, "utf8") + '{"event_id":"torn"')
      const fresh = EventLog.make(dir)
      yield* fresh.append([line("b")])
      const pending = yield* fresh.unapplied
      assert.deepStrictEqual(
        pending.events.map((e) => e.event_id),
        ["a", "b"]
      )
      assert.deepStrictEqual(pending.rejected, [{ line: 2, reason: "unparseable event line" }])
    })
  )
})

describe("Outbox", () => {
  it.effect("tracks pending ops across reloads and dead-letters after the attempt limit", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const box = Outbox.make(dir, { maxAttempts: 5, compactAt: 1000 })
      yield* box.load
      yield* box.register([{ opId: "op1", type: "extract_facts", payload: { messages: [] } }], "t")
      yield* box.register([{ opId: "op1", type: "extract_facts", payload: { messages: [] } }], "t")
      assert.strictEqual(box.pending().length, 1)
      for (let i = 0; i < 4; i++) assert.isFalse(yield* box.fail("op1", "t"))
      const reloaded = Outbox.make(dir, { maxAttempts: 5, compactAt: 1000 })
      yield* reloaded.load
      assert.strictEqual(reloaded.pending()[0]?.attempts, 4)
      assert.isTrue(yield* reloaded.fail("op1", "t"))
      assert.strictEqual(reloaded.pending().length, 0)
      const last = readFileSync(path.join(dir, "outbox.ndjson"), "utf8").trim().split("\n").pop() ?? ""
      assert.deepInclude(JSON.parse(last), { op_id: "op1", status: "done", dead_letter: true })
    })
  )

  it.effect("compacts the file once nothing is pending and it has grown past the limit", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const box = Outbox.make(dir, { maxAttempts: 5, compactAt: 6 })
      yield* box.load
      for (let i = 0; i < 3; i++) {
        yield* box.register([{ opId: `op${i}`, type: "extract_facts", payload: {} }], "t")
        yield* box.sync
        yield* box.complete([`op${i}`], "t")
      }
      assert.strictEqual(readFileSync(path.join(dir, "outbox.ndjson"), "utf8"), "")
    })
  )

  it.effect("holds registered ops in memory and writes only those that outlive a sync or fail", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const file = path.join(dir, "outbox.ndjson")
      const box = Outbox.make(dir, { maxAttempts: 5, compactAt: 1000 })
      yield* box.load
      const op = (opId: string) => ({ opId, type: "extract_facts", payload: { messages: [] } })
      yield* box.register([op("quick"), op("slow"), op("failing")], "t1")
      yield* box.complete(["quick"], "t2")
      assert.strictEqual(readFileSync(file, "utf8"), "", "an op done before any sync leaves no line")
      assert.deepStrictEqual(
        box.pending().map((o) => o.opId),
        ["slow", "failing"]
      )
      assert.isFalse(yield* box.fail("failing", "t3"))
      assert.deepStrictEqual(
        readFileSync(file, "utf8")
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l).status),
        ["pending", "attempt"]
      )
      yield* box.sync
      yield* box.sync
      const statuses = (text: string) =>
        text
          .trim()
          .split("\n")
          .map((l) => [JSON.parse(l).op_id, JSON.parse(l).status, JSON.parse(l).ts])
      assert.deepStrictEqual(statuses(readFileSync(file, "utf8")), [
        ["failing", "pending", "t1"],
        ["failing", "attempt", "t3"],
        ["slow", "pending", "t1"]
      ])
      yield* box.register([op("quick")], "t4")
      const reloaded = Outbox.make(dir, { maxAttempts: 5, compactAt: 1000 })
      yield* reloaded.load
      assert.deepStrictEqual(
        reloaded.pending().map((o) => [o.opId, o.attempts]),
        [
          ["failing", 1],
          ["slow", 0]
        ]
      )
    })
  )
})

describe("TimeIndex", () => {
  const rows = (eventId: string, n: number): TimeIndex.TurnRows => ({
    eventId,
    sessionId: `s-${eventId}`,
    timestamp: "2026-11-30 10:00:00.000000",
    messages: Array.from({ length: n }, (_, i) =>
      JSON.stringify({ type: "human", data: { content: `${eventId}${i}` } })
    )
  })

  it.effect("inserts each event's rows once, however often it is applied", () =>
    Effect.gen(function* () {
      const ti = yield* TimeIndex.open(path.join(tempDir(), "time_indexed.db"))
      assert.strictEqual(yield* ti.applyTurns([rows("e1", 2), rows("e2", 1)]), 3)
      assert.strictEqual(yield* ti.applyTurns([rows("e2", 1), rows("e3", 2)]), 2)
      assert.strictEqual((yield* ti.rows()).length, 5)
      assert.strictEqual(yield* ti.lastTimestamp, "2026-11-30 10:00:00.000000")
      yield* ti.close
    })
  )

  it.effect("opens a database N.E.K.O. created and records the migrations once", () =>
    Effect.gen(function* () {
      const file = path.join(tempDir(), "time_indexed.db")
      const neko = new Database(file)
      neko.exec(
        "CREATE TABLE time_indexed_original (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, message TEXT, timestamp DATETIME);" +
          "INSERT INTO time_indexed_original (session_id, message, timestamp) VALUES ('s', '{}', '2025-01-01 00:00:00.000000');"
      )
      neko.close()
      for (let i = 0; i < 2; i++) {
        const ti = yield* TimeIndex.open(file)
        assert.strictEqual((yield* ti.rows()).length, 1)
        yield* ti.close
      }
      const db = new Database(file, { readonly: true })
      assert.deepStrictEqual(
        db.prepare("SELECT version FROM kioku_migrations ORDER BY version").pluck().all(),
        [1, 2, 3]
      )
      assert.strictEqual(db.pragma("journal_mode", { simple: true }), "wal")
      db.close()
    })
  )
})

describe("temp files", () => {
  it("leaves no temp files after writes", async () => {
    const dir = tempDir()
    const view = ViewFile.make(Doc, path.join(dir, "doc.json"))
    await Effect.runPromise(Effect.forEach([1, 2, 3], (n) => view.write({ n, name: "x" })))
    assert.deepStrictEqual(readdirSync(dir), ["doc.json"])
    assert.isTrue(existsSync(view.file))
  })
})

describe("Cursors", () => {
  it.effect("keeps unknown keys and refuses to overwrite a corrupt file", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const cursors = Cursors.make(dir)
      assert.deepStrictEqual(yield* cursors.get("rebuttal_checked_until"), Option.none())
      writeFileSync(cursors.file, JSON.stringify({ rebuttal_checked_until: "2026-11-30T10:00:00.000000", other: 1 }))
      yield* cursors.set({ extracted_until: "2026-11-30T11:00:00.000000" })
      assert.deepStrictEqual(JSON.parse(readFileSync(cursors.file, "utf8")), {
        rebuttal_checked_until: "2026-11-30T10:00:00.000000",
        other: 1,
        extracted_until: "2026-11-30T11:00:00.000000"
      })
      assert.deepStrictEqual(yield* cursors.get("extracted_until"), Option.some("2026-11-30T11:00:00.000000"))
      writeFileSync(cursors.file, "{broken")
      const failed = yield* Effect.flip(cursors.set({ extracted_until: "x" }))
      assert.strictEqual(failed._tag, "ViewDecodeError")
      assert.strictEqual(readFileSync(cursors.file, "utf8"), "{broken")
    })
  )
})
