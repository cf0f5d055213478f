import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { flushRecent, history, post, serverSuite, turn, type RunningServer } from "../support/server.js"

interface Item {
  readonly type: string
  readonly data: { readonly content: unknown }
}
/** recent.json on disk, once the server has written what it holds for the next checkpoint. */
const readRecent = async (url: string, memory: string, name: string): Promise<ReadonlyArray<Item>> => {
  await flushRecent(url, name)
  return JSON.parse(readFileSync(path.join(memory, name, "recent.json"), "utf8"))
}

const readRows = (memory: string, name: string) => {
  const db = new Database(path.join(memory, name, "time_indexed.db"), { readonly: true })
  try {
    return db.prepare("SELECT session_id, message, timestamp FROM time_indexed_original ORDER BY id").all() as Array<{
      session_id: string
      message: string
      timestamp: string
    }>
  } finally {
    db.close()
  }
}

describe("turn ingestion over loopback HTTP", () => {
  let server: RunningServer | undefined
  const { temp, start } = serverSuite()

  it("keeps 200 /cache requests, 50 of them concurrent, complete and ordered", async () => {
    server = await start(temp.memory)
    const send = async (i: number) => {
      const r = await post(`${server!.url}/cache/Tian`, history(turn(`u${i}`, `a${i}`)))
      assert.strictEqual(r.status, 200)
      assert.deepStrictEqual(JSON.parse(r.text), { status: "cached", count: 2 })
    }
    for (let i = 0; i < 100; i++) await send(i)
    await Promise.all(Array.from({ length: 50 }, (_, k) => send(100 + k)))
    for (let i = 150; i < 200; i++) await send(i)

    const items = await readRecent(server.url, temp.memory, "Tian")
    assert.strictEqual(items.length, 400)
    const texts = items.map((m) => m.data.content)
    for (let i = 0; i < 200; i++) {
      const at = texts.indexOf(`u${i}`)
      assert.isAtLeast(at, 0, `u${i} missing`)
      assert.strictEqual(texts.lastIndexOf(`u${i}`), at, `u${i} duplicated`)
      assert.strictEqual(texts[at + 1], `a${i}`, `request ${i} not contiguous`)
      assert.strictEqual(items[at]?.type, "human")
      assert.strictEqual(items[at + 1]?.type, "ai")
    }
    const sequential = [...Array.from({ length: 100 }, (_, i) => i), ...Array.from({ length: 50 }, (_, i) => 150 + i)]
    const positions = sequential.map((i) => texts.indexOf(`u${i}`))
    assert.deepStrictEqual(
      positions,
      [...positions].sort((a, b) => a - b)
    )

    const rows = readRows(temp.memory, "Tian")
    assert.strictEqual(rows.length, 400)
    const contents = rows.map((r) => JSON.parse(r.message).data.content as string)
    assert.strictEqual(new Set(contents).size, 400)
    for (const r of rows) {
      assert.match(r.timestamp, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/)
      assert.deepStrictEqual(Object.keys(JSON.parse(r.message)), ["type", "data"])
    }
    const byRequest = new Map<string, Set<string>>()
    rows.forEach((r) => byRequest.set(r.session_id, (byRequest.get(r.session_id) ?? new Set()).add(r.timestamp)))
    assert.strictEqual(byRequest.size, 200)
    for (const stamps of byRequest.values()) assert.strictEqual(stamps.size, 1)
  })

  it("accepts OpenAI-style, on-disk and unknown message shapes", async () => {
    server = await start(temp.memory)
    const r = await post(
      `${server.url}/process/Shapes`,
      history([
        {
          role: "user",
          content: [
            { type: "text", text: "part one" },
            { type: "text", text: "part two" }
          ]
        },
        { type: "ai", data: { content: "on disk" } },
        { role: "system", content: "notice" },
        "bare string",
        { something: "else" }
      ])
    )
    assert.deepStrictEqual(JSON.parse(r.text), { status: "processed" })
    const items = await readRecent(server.url, temp.memory, "Shapes")
    assert.deepStrictEqual(
      items.map((m) => m.type),
      ["human", "ai", "system", "human", "human"]
    )
    assert.deepStrictEqual(items[0]?.data.content, [
      { type: "text", text: "part one" },
      { type: "text", text: "part two" }
    ])
    assert.strictEqual(items[4]?.data.content, JSON.stringify({ something: "else" }))
  })

  it("answers each write route with N.E.K.O.'s body and an empty cache with count 0", async () => {
    server = await start(temp.memory)
    const body = history(turn("hello", "hi"))
    assert.deepStrictEqual(JSON.parse((await post(`${server.url}/renew/Routes`, body)).text), { status: "processed" })
    assert.deepStrictEqual(JSON.parse((await post(`${server.url}/settle/Routes`, history([]))).text), {
      status: "settled"
    })
    assert.deepStrictEqual(JSON.parse((await post(`${server.url}/cache/Routes`, history([]))).text), {
      status: "cached",
      count: 0
    })
    assert.strictEqual((await readRecent(server.url, temp.memory, "Routes")).length, 2)
  })
})
