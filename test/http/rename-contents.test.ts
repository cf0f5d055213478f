import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { history, post, serverSuite } from "../support/server.js"

describe("a character rename inside the files", () => {
  const { temp, start } = serverSuite()

  it("rewrites the old name where it names a speaker, never in free text", async () => {
    const dir = path.join(temp.memory, "Old")
    mkdirSync(dir, { recursive: true })
    const planted = [
      { type: "system", data: { content: "Memo from prior conversations: Old likes tea" } },
      { type: "ai", name: "Old", data: { content: "[Old] hello\nOld | waves", speaker: "Old", name: null } },
      { type: "human", data: { content: [{ type: "text", text: "Old: are you there? I asked Old: twice" }] } },
      { type: "ai", data: { content: "Oldham: a town", author: "Olde" } }
    ]
    writeFileSync(path.join(dir, "recent.json"), JSON.stringify(planted))
    const server = await start(temp.memory)
    const turn = [
      { role: "user", content: "Old说：你好" },
      { role: "assistant", content: "I am Old, nice to meet you" }
    ]
    assert.strictEqual((await post(`${server.url}/cache/Old`, history(turn))).status, 200)

    const renamed = await post(`${server.url}/api/memory/update_catgirl_name`, '{"old_name":"Old","new_name":"Neu"}')
    assert.strictEqual(renamed.status, 200, renamed.text)
    const recent = JSON.parse(readFileSync(path.join(temp.memory, "Neu", "recent.json"), "utf8"))
    assert.deepStrictEqual(recent.slice(0, 4), [
      { type: "system", data: { content: "Memo from prior conversations: Old likes tea" } },
      { type: "ai", name: "Neu", data: { content: "[Neu] hello\nNeu | waves", speaker: "Neu", name: null } },
      { type: "human", data: { content: [{ type: "text", text: "Neu: are you there? I asked Old: twice" }] } },
      { type: "ai", data: { content: "Oldham: a town", author: "Olde" } }
    ])
    assert.deepStrictEqual(
      recent.slice(4).map((m: { data: { content: string } }) => m.data.content),
      ["Neu说：你好", "I am Old, nice to meet you"]
    )

    const db = new Database(path.join(temp.memory, "Neu", "time_indexed.db"), { readonly: true })
    const rows = db.prepare("SELECT message FROM time_indexed_original ORDER BY id").pluck().all()
    db.close()
    assert.deepStrictEqual(
      rows.map((r) => JSON.parse(String(r)).data.content),
      ["Neu说：你好", "I am Old, nice to meet you"]
    )
  })
})
