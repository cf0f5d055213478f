import { assert, describe, it } from "@effect/vitest"
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { Effect, Layer } from "effect"
import { CharacterRegistry } from "../../src/character/CharacterRegistry.js"
import { MemoryService } from "../../src/MemoryService.js"
import * as Startup from "../../src/Startup.js"
import { outboxPending, replayPending } from "../../src/store/JournalTail.js"
import { turnsLine } from "../../src/recent/RecentEvents.js"
import { testRuntime } from "../support/layers.js"

const line = (id: string) =>
  JSON.stringify({ event_id: id, type: "turns.appended", ts: "2026-12-03T09:00:00", payload: {} })
const sentinel = (id: string | null) => JSON.stringify({ last_applied_event_id: id, ts: "2026-12-03T09:00:00" })

describe("journal tail", () => {
  it("says whether the journal runs past its sentinel, and counts what it cannot read as pending", () => {
    const root = mkdtempSync(path.join(tmpdir(), "kioku-tail-"))
    const dir = (name: string, journal?: string, applied?: string) => {
      const d = path.join(root, name)
      mkdirSync(d)
      if (journal !== undefined) writeFileSync(path.join(d, "events.ndjson"), journal)
      if (applied !== undefined) writeFileSync(path.join(d, "events_applied.json"), applied)
      return d
    }
    assert.isFalse(replayPending(dir("none")), "no journal")
    assert.isFalse(replayPending(dir("empty", "\n\n")), "an empty journal")
    assert.isFalse(replayPending(dir("settled", `${line("a")}\n${line("b")}\n`, sentinel("b"))))
    assert.isTrue(replayPending(dir("behind", `${line("a")}\n${line("b")}\n`, sentinel("a"))))
    assert.isTrue(replayPending(dir("torn", `${line("a")}\n{"event_id":"b","ty`, sentinel("a"))), "a torn last line")
    assert.isTrue(replayPending(dir("nosentinel", `${line("a")}\n`)), "no sentinel")
    assert.isTrue(replayPending(dir("badsentinel", `${line("a")}\n`, "{")), "an undecodable sentinel")
    assert.isTrue(replayPending(dir("nullsentinel", `${line("a")}\n`, sentinel(null))))
    const long = `${line("a")}\n${JSON.stringify({ ...JSON.parse(line("b")), payload: { x: "y".repeat(300_000) } })}\n`
    assert.isTrue(replayPending(dir("long", long, sentinel("b"))), "a last line longer than the tail read")
  })

  it("says whether the outbox holds an op without a done line", () => {
    const root = mkdtempSync(path.join(tmpdir(), "kioku-outbox-"))
    const op = (id: string, status: string) =>
      JSON.stringify({
        op_id: id,
        status,
        ts: "2026-12-03T09:00:00",
        ...(status === "pending" ? { type: "extract_facts", payload: {} } : {})
      })
    const dir = (name: string, outbox?: string) => {
      const d = path.join(root, name)
      mkdirSync(d)
      if (outbox !== undefined) writeFileSync(path.join(d, "outbox.ndjson"), outbox)
      return d
    }
    assert.isFalse(outboxPending(dir("none")))
    assert.isFalse(outboxPending(dir("done", `${op("a", "pending")}\n${op("a", "attempt")}\n${op("a", "done")}\n`)))
    assert.isTrue(outboxPending(dir("open", `${op("a", "pending")}\n${op("b", "pending")}\n${op("a", "done")}\n`)))
    assert.isTrue(outboxPending(dir("torn", `${op("a", "done")}\n{"op_id":"b","sta`)), "a torn line")
  })

  it.scoped("startup without a due-work index loads only the characters with journal lines to replay", () =>
    Effect.gen(function* () {
      const rt = testRuntime()
      yield* Effect.scoped(
        Effect.gen(function* () {
          const memory = yield* Effect.provide(MemoryService, yield* Layer.build(rt.layer))
          for (const name of ["Aoi", "Ren"])
            yield* memory.write("cache", name, { messages: [{ role: "user", content: `${name} likes tea` }] })
        })
      )
      // A crash after the journal append and before the views: Ren's journal runs past its sentinel.
      const payload = {
        session_id: "s1",
        row_ts: "2026-12-03 09:00:00",
        kind: "cache" as const,
        messages: [{ type: "human", data: { content: "Ren also likes plums" } }],
        extract: true
      }
      const event = turnsLine("replayed-1", payload, "2026-12-03T09:00:00")
      appendFileSync(path.join(rt.settings.dataDir, "Ren", "events.ndjson"), JSON.stringify(event) + "\n")
      // ...and the due-work index lost with it: the next start cannot tell from the index who is due.
      for (const f of readdirSync(rt.settings.dataDir).filter((f) => f.startsWith(".kioku-due.db")))
        rmSync(path.join(rt.settings.dataDir, f))
      const ctx = yield* Layer.build(rt.layer)
      yield* Effect.provide(Startup.recover, ctx)
      const registry = yield* Effect.provide(CharacterRegistry, ctx)
      assert.deepStrictEqual([...(yield* registry.active)].map(String), ["Ren"])
      const memory = yield* Effect.provide(MemoryService, ctx)
      assert.include(yield* memory.recentHistory("Ren"), "Ren also likes plums")
      assert.include(yield* memory.recentHistory("Aoi"), "Aoi likes tea")
    })
  )
})
