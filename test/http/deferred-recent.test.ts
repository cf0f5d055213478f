/**
 * recent.json written at journal checkpoints (`recent_write_at_checkpoint`, `recent_write_defer_bytes` once the
 * file is that large, or `recent_write_interval_ms` after the file's last write): a `/cache` turn is acknowledged once its journal line is fsynced, while the file on disk
 * may still lack it. A SIGKILL in that window loses nothing acknowledged: the restart replays the journal past the
 * sentinel into recent.json, each turn once, in order; a clean stop writes what is held. The checkpoint interval
 * and the idle delay are set far out so the window stays open.
 */
import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { existsSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { flushRecent, history, post, serverSuite, turn, type RunningServer } from "../support/server.js"

const far = { KIOKU_JOURNAL_CHECKPOINT_INTERVAL_MS: "600000", KIOKU_RECENT_WRITE_IDLE_MS: "600000" }
/** Every turn held, or (the default policy with a tiny threshold) every turn once the file exists. */
const configurations = [
  { held: "always (recent_write_at_checkpoint)", env: { ...far, KIOKU_RECENT_WRITE_AT_CHECKPOINT: "true" } },
  { held: "once the file is large (recent_write_defer_bytes)", env: { ...far, KIOKU_RECENT_WRITE_DEFER_BYTES: "1" } },
  {
    held: "within the write interval (recent_write_interval_ms)",
    env: { ...far, KIOKU_RECENT_WRITE_INTERVAL_MS: "600000" }
  }
]

const recentTexts = (dir: string): Array<unknown> =>
  (JSON.parse(readFileSync(path.join(dir, "recent.json"), "utf8")) as Array<{ data: { content: unknown } }>).map(
    (m) => m.data.content
  )

const rowTexts = (dir: string): Array<unknown> => {
  const db = new Database(path.join(dir, "time_indexed.db"), { readonly: true })
  try {
    const messages = db.prepare("SELECT message FROM time_indexed_original ORDER BY id").pluck().all()
    return messages.map((m) => (JSON.parse(String(m)) as { data: { content: unknown } }).data.content)
  } finally {
    db.close()
  }
}

const journalLines = (dir: string) =>
  readFileSync(path.join(dir, "events.ndjson"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "").length

describe.each(configurations)("recent.json written at checkpoints, turns held $held", ({ env }) => {
  let server: RunningServer | undefined
  const { temp, start } = serverSuite()

  it("loses no acknowledged turn held for the checkpoint when SIGKILLed, and replays each once", async () => {
    const memory = path.join(temp.root, "deferred", "memory")
    const dir = path.join(memory, "Held")
    server = await start(memory, [], env)
    const send = async (u: string, a: string) => {
      const r = await post(`${server!.url}/cache/Held`, history(turn(u, a)))
      assert.deepStrictEqual(JSON.parse(r.text), { status: "cached", count: 2 })
    }
    await send("a0", "r0")
    await send("a1", "r1")
    await send("a2", "r2")
    // The first turn created the file; the later ones are acknowledged (journaled) but held in memory.
    assert.deepStrictEqual(recentTexts(dir), ["a0", "r0"])
    assert.strictEqual(journalLines(dir), 3)
    assert.isFalse(existsSync(path.join(dir, "events_applied.json")))
    await flushRecent(server.url, "Held")
    assert.deepStrictEqual(recentTexts(dir), ["a0", "r0", "a1", "r1", "a2", "r2"])
    await send("b0", "s0")
    await send("b1", "s1")
    assert.deepStrictEqual(recentTexts(dir), ["a0", "r0", "a1", "r1", "a2", "r2"])

    await server.kill9()
    server = await start(memory, [], env)
    const all = ["a0", "r0", "a1", "r1", "a2", "r2", "b0", "s0", "b1", "s1"]
    assert.deepStrictEqual(recentTexts(dir), all)
    assert.deepStrictEqual(rowTexts(dir), all)

    await send("c0", "t0")
    await server.stop()
    server = undefined
    assert.deepStrictEqual(recentTexts(dir), [...all, "c0", "t0"])
    assert.deepStrictEqual(rowTexts(dir), [...all, "c0", "t0"])
  })
})
