/**
 * Chaos (c): real disk faults under the real server. First only the view writes fail (a nearly full disk
 * with room for a journal line but not for recent.json; a character directory without write permission),
 * then the journal too (a full disk; a read-only journal). Throughout: no 5xx, the server keeps serving,
 * the old views stay byte-identical and decodable, no temp file or torn journal line is left, every
 * acknowledged turn reaches recent.json and time_indexed.db once the fault heals and after a restart.
 */
import { assert, describe, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { chmodSync, mkdirSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { get, history, makeTempRoot, post, startServer, type Launch, type RunningServer } from "../support/server.js"
import { tinyDisk, unprivileged } from "./disks.js"
import { quiet, recentTexts, rowTexts, undecodable } from "./inspect.js"

const Answer = Schema.parseJson(
  Schema.Union(
    Schema.Struct({ status: Schema.Literal("cached"), count: Schema.Number }),
    Schema.Struct({ status: Schema.Literal("error"), message: Schema.String })
  )
)
const decodeAnswer = Schema.decodeUnknownEither(Answer)

interface Fault {
  /** Makes view writes fail while the journal can still take a line. */
  readonly views: () => void
  /** Makes the journal fail too. */
  readonly journal: () => void
  readonly heal: () => void
}

/**
 * Drives one character through: healthy turns, view faults, journal faults, healing, restart. `memory` is the
 * memory root as the test sees it, `serverMemory` as the server sees it.
 */
const scenario = async (
  memory: string,
  serverMemory: string,
  launch: Launch,
  fault: (dir: string) => Fault
): Promise<{ acked: number; refused: number }> => {
  const name = "Disk"
  const dir = path.join(memory, name)
  const acked: Array<string> = []
  let refused = 0
  let server: RunningServer = await startServer(serverMemory, [], {}, launch)
  const cache = async (text: string, mustAck: boolean) => {
    const r = await post(`${server.url}/cache/${name}`, history([{ role: "user", content: text }]))
    assert.strictEqual(r.status, 200, r.text)
    const answer = decodeAnswer(r.text)
    assert.isTrue(Either.isRight(answer), r.text)
    if (Either.isRight(answer) && answer.right.status === "cached") acked.push(text)
    else {
      assert.isFalse(mustAck, `${text} refused: ${r.text}`)
      refused++
    }
  }
  const serving = async () => {
    assert.strictEqual((await get(`${server.url}/health`)).status, 200)
    const dialog = await get(`${server.url}/new_dialog/${name}`)
    assert.strictEqual(dialog.status, 200)
    for (const t of acked) assert.include(dialog.text, t.slice(0, 40))
  }
  try {
    for (let i = 0; i < 10; i++) await cache(`healthy ${i} ` + "x".repeat(8000), true)
    await quiet(memory, [name])
    const recent = readFileSync(path.join(dir, "recent.json"))
    const f = fault(dir)
    f.views()
    await cache("while views fail", true)
    await serving()
    // Writes run on the thread pool: a retry still failing on the full disk may hold its temp file a moment.
    await quiet(memory, [name])
    assert.deepStrictEqual(readFileSync(path.join(dir, "recent.json")), recent, "recent.json changed")
    assert.deepStrictEqual(undecodable(dir, false), [])
    f.journal()
    await cache("while the journal fails " + "y".repeat(9000), false)
    await cache("again while the journal fails", false)
    await serving()
    // Writes run on the thread pool: a retry still failing on the full disk may hold its temp file a moment.
    await quiet(memory, [name])
    assert.deepStrictEqual(readFileSync(path.join(dir, "recent.json")), recent, "recent.json changed")
    assert.deepStrictEqual(undecodable(dir, false), [])
    f.heal()
    await cache("after healing", true)
    await serving()
    const check = () => {
      const recentNow = recentTexts(dir)
      const rows = rowTexts(dir)
      for (const t of acked) {
        assert.include(recentNow, t)
        assert.strictEqual(rows.filter((r) => r === t).length, 1, t.slice(0, 40))
      }
      assert.deepStrictEqual(undecodable(dir), [])
    }
    await quiet(memory, [name])
    check()
    await server.stop()
    server = await startServer(serverMemory, [], {}, launch)
    await quiet(memory, [name])
    check()
    return { acked: acked.length, refused }
  } catch (e) {
    console.log(server.output().slice(-6000))
    throw e
  } finally {
    await server.kill9()
  }
}

describe("chaos: disk faults", () => {
  it("ENOSPC: a full disk never costs an acknowledged turn or an old view", async (ctx) => {
    const temp = makeTempRoot()
    const memory = path.join(temp.root, "memory")
    mkdirSync(memory)
    const disk = await tinyDisk(memory, 4 * 1024 * 1024)
    if (typeof disk === "string") {
      console.log(`chaos ENOSPC skipped: ${disk}`)
      temp.cleanup()
      return ctx.skip()
    }
    try {
      const figures = await scenario(disk.seen, memory, disk.launch, () => ({
        views: () => disk.fill(64 * 1024),
        journal: () => disk.fill(0),
        heal: () => disk.free()
      }))
      console.log(`chaos ENOSPC figures: ${JSON.stringify(figures)}`)
    } finally {
      disk.close()
      temp.cleanup()
    }
  })

  it("EACCES: a directory and a journal without write permission", async (ctx) => {
    const temp = makeTempRoot()
    const launch = unprivileged(temp.root)
    if (typeof launch === "string") {
      console.log(`chaos EACCES skipped: ${launch}`)
      temp.cleanup()
      return ctx.skip()
    }
    try {
      const figures = await scenario(temp.memory, temp.memory, launch, (dir) => ({
        views: () => chmodSync(dir, 0o555),
        journal: () => chmodSync(path.join(dir, "events.ndjson"), 0o444),
        heal: () => {
          chmodSync(dir, 0o755)
          chmodSync(path.join(dir, "events.ndjson"), 0o644)
        }
      }))
      console.log(`chaos EACCES figures: ${JSON.stringify(figures)}`)
    } finally {
      temp.cleanup()
    }
  })
})
