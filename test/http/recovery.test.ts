import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { spawnSync } from "node:child_process"
import { appendFileSync, existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs"
import * as path from "node:path"
import { Schema } from "effect"
import { EventLine } from "../../src/store/EventLog.js"
import { distBin, get, history, post, serverSuite, turn, turnsEvent, type RunningServer } from "../support/server.js"

const decodeEvent = Schema.decodeUnknownSync(Schema.parseJson(EventLine))

const recentTexts = (dir: string): Array<unknown> =>
  (JSON.parse(readFileSync(path.join(dir, "recent.json"), "utf8")) as Array<{ data: { content: unknown } }>).map(
    (m) => m.data.content
  )

const rowCount = (dir: string): number => {
  const db = new Database(path.join(dir, "time_indexed.db"), { readonly: true })
  try {
    return Number(db.prepare("SELECT COUNT(*) FROM time_indexed_original").pluck().get())
  } finally {
    db.close()
  }
}

const outboxLines = (dir: string): Array<{ op_id: string; status: string; type?: string }> =>
  (existsSync(path.join(dir, "outbox.ndjson")) ? readFileSync(path.join(dir, "outbox.ndjson"), "utf8") : "")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l))

describe("durability and startup recovery", () => {
  let server: RunningServer | undefined
  const { temp, start } = serverSuite()

  it("keeps every acknowledged /cache after SIGKILL", async () => {
    const memory = path.join(temp.root, "kill", "memory")
    server = await start(memory)
    const acked: Array<number> = []
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const r = await post(`${server!.url}/cache/Kill`, history(turn(`kill-u${i}`, `kill-a${i}`)))
        if (JSON.parse(r.text).status === "cached") acked.push(i)
      })
    )
    await server.kill9()
    server = await start(memory)
    assert.strictEqual(acked.length, 40)
    const texts = recentTexts(path.join(memory, "Kill"))
    for (const i of acked) assert.include(texts, `kill-u${i}`)
    assert.strictEqual(texts.length, 80)
    assert.strictEqual(rowCount(path.join(memory, "Kill")), 80)
  })

  it("runs the extraction of acknowledged turns whose ops were held in memory at SIGKILL", async () => {
    const memory = path.join(temp.root, "held", "memory")
    server = await start(memory, [], { KIOKU_OUTBOX_DRAIN_INTERVAL_MS: "600000" })
    for (let i = 0; i < 5; i++) await post(`${server.url}/cache/Held`, history(turn(`held-u${i}`, `held-a${i}`)))
    const dir = path.join(memory, "Held")
    const turnIds = readFileSync(path.join(dir, "events.ndjson"), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => decodeEvent(l))
      .filter((e) => e.type === "turns.appended")
      .map((e) => e.event_id)
    assert.strictEqual(turnIds.length, 5)
    // The first turn's op ran at once; the other four wait for the next drain, held in memory only.
    assert.deepStrictEqual(
      outboxLines(dir).filter((l) => turnIds.includes(l.op_id)),
      []
    )
    await server.kill9()
    server = await start(memory)
    await server.waitFor(/outbox ops done/)
    const lines = outboxLines(dir)
    const done = new Set(lines.filter((l) => l.status === "done").map((l) => l.op_id))
    for (const id of turnIds.slice(1)) assert.isTrue(done.has(id), `the op of turn ${id} ran after the restart`)
    const open = new Set(lines.filter((l) => l.status === "pending" && !done.has(l.op_id)).map((l) => l.op_id))
    assert.deepStrictEqual([...open], [])
  })

  it("re-applies a journal event whose views were never written, once", async () => {
    const memory = path.join(temp.root, "replay", "memory")
    server = await start(memory)
    await post(`${server.url}/cache/Replay`, history(turn("first", "reply")))
    await server.stop()
    const dir = path.join(memory, "Replay")
    const event = turnsEvent("7f2c1a4e-0000-4000-8000-000000000001", "2026-11-30 10:00:00.000000", [
      { type: "human", data: { content: "written only to the journal" } }
    ])
    appendFileSync(path.join(dir, "events.ndjson"), JSON.stringify(event) + "\n")
    for (let round = 0; round < 2; round++) {
      server = await start(memory)
      if (round === 0) await server.waitFor(/outbox ops done/)
      await server.stop()
      server = undefined
      assert.deepStrictEqual(recentTexts(dir), ["first", "reply", "written only to the journal"])
      assert.strictEqual(rowCount(dir), 3)
      const ops = outboxLines(dir).filter((l) => l.op_id === event.event_id)
      assert.deepStrictEqual(
        ops.map((l) => l.status),
        ["pending", "done"]
      )
    }
    const sentinel = JSON.parse(readFileSync(path.join(dir, "events_applied.json"), "utf8"))
    const journal = readFileSync(path.join(dir, "events.ndjson"), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => decodeEvent(l))
    const at = journal.findIndex((e) => e.event_id === event.event_id)
    assert.isAtLeast(at, 0)
    // Persona ensure (the one-time evidence migration) journals after the replayed event.
    assert.strictEqual(sentinel.last_applied_event_id, journal[journal.length - 1]?.event_id)
  })

  it("skips an unreadable journal line with a record instead of stalling", async () => {
    const memory = path.join(temp.root, "torn", "memory")
    server = await start(memory)
    await post(`${server.url}/cache/Torn`, history(turn("before", "tear")))
    await server.stop()
    const dir = path.join(memory, "Torn")
    appendFileSync(path.join(dir, "events.ndjson"), '{"event_id":"torn-half","type":"turns.app')
    server = await start(memory)
    await post(`${server.url}/cache/Torn`, history(turn("after", "tear")))
    await server.stop()
    server = await start(memory)
    assert.deepStrictEqual(recentTexts(dir), ["before", "tear", "after", "tear"])
    const rejected = readFileSync(path.join(dir, "events_rejected.ndjson"), "utf8")
    assert.include(rejected, "unparseable event line")
  })

  it("runs an outbox op left pending again at startup", async () => {
    const memory = path.join(temp.root, "outbox", "memory")
    const dir = path.join(memory, "Outbox")
    mkdirSync(dir, { recursive: true })
    const pending = {
      op_id: "op-left-pending",
      type: "extract_facts",
      payload: { messages: [{ type: "human", data: { content: "hi" } }] },
      status: "pending",
      ts: "2026-11-30T09:00:00.000000"
    }
    writeFileSync(path.join(dir, "outbox.ndjson"), JSON.stringify(pending) + "\n")
    server = await start(memory)
    await server.waitFor(/outbox ops done/)
    assert.deepStrictEqual(
      outboxLines(dir).map((l) => l.status),
      ["pending", "done"]
    )
  })

  it("answers 409 storage_startup_blocked until startup continues", async () => {
    const memory = path.join(temp.root, "blocked", "memory")
    server = await start(memory, ["--start-blocked"])
    const health = await get(`${server.url}/health`)
    assert.strictEqual(health.status, 200)
    assert.strictEqual(JSON.parse(health.text).app, "N.E.K.O")
    const blocked = await post(`${server.url}/cache/Blocked`, history(turn("x", "y")))
    assert.strictEqual(blocked.status, 409)
    assert.deepInclude(JSON.parse(blocked.text), {
      ok: false,
      error_code: "storage_startup_blocked",
      blocking_reason: "startup_blocked",
      limited_mode: true
    })
    assert.strictEqual((await get(`${server.url}/new_dialog/Blocked`)).status, 409)
    const cont = await post(`${server.url}/internal/storage/startup/continue`, "{}")
    assert.deepStrictEqual(JSON.parse(cont.text), { ok: true, initialized: true })
    assert.strictEqual(
      JSON.parse((await post(`${server.url}/cache/Blocked`, history(turn("x", "y")))).text).status,
      "cached"
    )
    const block = await post(`${server.url}/internal/storage/startup/block`, JSON.stringify({ reason: "moving" }))
    assert.deepStrictEqual(JSON.parse(block.text), { ok: true, limited_mode: true, reason: "moving" })
    const again = await post(`${server.url}/cache/Blocked`, history(turn("x", "y")))
    assert.strictEqual(JSON.parse(again.text).blocking_reason, "storage_startup_blocked_after_init")
  })

  it("refuses a second process on the same memory root with a clear message", async () => {
    const memory = path.join(temp.root, "lock", "memory")
    server = await start(memory)
    const second = spawnSync(process.execPath, [distBin, "serve", "--port", "0", "--data-dir", memory], {
      encoding: "utf8",
      timeout: 20_000
    })
    assert.notStrictEqual(second.status, 0)
    assert.match(second.stderr, /another kioku process \(pid \d+\) is using the memory root/)
  })
})
