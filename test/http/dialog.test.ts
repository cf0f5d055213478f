import { assert, describe, it } from "@effect/vitest"
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { get, history, post, serverSuite, turn, turnsEvent, type RunningServer } from "../support/server.js"

describe("read routes", () => {
  let server: RunningServer | undefined
  const { temp, start } = serverSuite()

  it("renders /new_dialog as text/plain with the inner-thoughts block and the recent messages", async () => {
    mkdirSync(path.join(temp.root, "config"), { recursive: true })
    writeFileSync(
      path.join(temp.root, "config", "characters.json"),
      JSON.stringify({ 主人: { 档案名: "Alex" }, 猫娘: { Tian: {}, Quiet: {} } })
    )
    server = await start(temp.memory)
    await post(`${server.url}/cache/Tian`, history(turn("I got a cat [smiles]", "What is its name? (curious)")))
    const r = await get(`${server.url}/new_dialog/Tian`)
    assert.strictEqual(r.status, 200)
    assert.match(r.type, /^text\/plain/)
    assert.include(r.text, "\n\n======Tian's Inner Thoughts======\n")
    assert.match(
      r.text,
      /The current time is \w+day, \w+ \d{2}, \d{4} at \d{2}:\d{2} [AP]M\. Before the conversation begins, Tian is mentally reviewing recent events\.\n/
    )
    assert.isTrue(r.text.endsWith("Alex | I got a cat\nTian | What is its name?\n"))
    assert.notInclude(r.text, "It has been")

    const zh = await get(`${server.url}/new_dialog/Tian?language=zh-CN`)
    assert.include(zh.text, "======以下是Tian的内心活动======")
    const known = await get(`${server.url}/new_dialog/Quiet`)
    assert.include(known.text, "Quiet's Inner Thoughts")
    const unknown = await get(`${server.url}/new_dialog/Nobody`)
    assert.strictEqual(unknown.status, 200)
    assert.strictEqual(unknown.text, "")
  })

  it("adds the gap hint after a long pause and reports the gap", async () => {
    const dir = path.join(temp.memory, "Gap")
    mkdirSync(dir, { recursive: true })
    const event = turnsEvent("00000000-0000-4000-8000-0000000000aa", "2020-01-01 00:00:00.000000", [
      { type: "human", data: { content: "long ago" } }
    ])
    appendFileSync(path.join(dir, "events.ndjson"), JSON.stringify(event) + "\n")
    server = await start(temp.memory)
    const gap = JSON.parse((await get(`${server.url}/last_conversation_gap/Gap`)).text)
    const expected = (Date.now() - new Date(2020, 0, 1).getTime()) / 1000
    assert.approximately(gap.gap_seconds, expected, 120)
    const dialog = await get(`${server.url}/new_dialog/Gap`)
    assert.match(
      dialog.text,
      /Alex \| long ago\nThe current time is \d{4}-\d{2}-\d{2} \d{2}:\d{2}\.It has been \d+ days( and \d+ hours)? since the last conversation with Alex\.Gap realizes it has been quite a while since talking to Alex\. What happened during this time\? Gap is curious about how Alex has been\.\n$/
    )
    const empty = JSON.parse((await get(`${server.url}/last_conversation_gap/Nobody`)).text)
    assert.deepStrictEqual(empty, { gap_seconds: -1 })
  })

  it("returns /get_recent_history as a JSON string", async () => {
    server = await start(temp.memory)
    await post(
      `${server.url}/cache/History`,
      history([{ role: "system", content: "Memo from prior conversations: cats" }])
    )
    await post(`${server.url}/cache/History`, history(turn("hi (waves)", "hello")))
    const r = await get(`${server.url}/get_recent_history/History`)
    assert.match(r.type, /^application\/json/)
    assert.strictEqual(
      JSON.parse(r.text),
      "Before the chat begins, History mentally reviews recent events.\nMemo from prior conversations: cats\nAlex | hi (waves)\nHistory | hello\n"
    )
    const none = await get(`${server.url}/get_recent_history/Nobody?language=ja`)
    assert.strictEqual(JSON.parse(none.text), "会話を始める前、履歴はありません。\n")
  })

  it("counts journaled transitions in the funnel and rejects bad windows", async () => {
    server = await start(temp.memory)
    await post(`${server.url}/cache/Funnel`, history(turn("hi", "hello")))
    const ok = await get(`${server.url}/api/memory/funnel/Funnel`)
    assert.strictEqual(ok.status, 200)
    const body = JSON.parse(ok.text)
    assert.strictEqual(body.lanlan_name, "Funnel")
    assert.deepStrictEqual(Object.keys(body.counts).length, 10)
    assert.match(body.since, /^\d{4}-\d{2}-\d{2}T/)
    assert.strictEqual((await get(`${server.url}/api/memory/funnel/Funnel?since=yesterday`)).status, 400)
    const reversed = await get(
      `${server.url}/api/memory/funnel/Funnel?since=2026-11-30T10:00:00&until=2026-11-01T00:00:00`
    )
    assert.strictEqual(reversed.status, 400)
    const aware = await get(
      `${server.url}/api/memory/funnel/Funnel?since=2026-01-01T00:00:00Z&until=2030-01-01T00:00:00%2B09:00`
    )
    assert.strictEqual(aware.status, 200)
  })

  it("persists an explicit language as the character's prompt locale", async () => {
    server = await start(temp.memory)
    await post(`${server.url}/cache/Locale`, history(turn("こんにちは", "やあ"), { language: "ja" }))
    const r = await get(`${server.url}/new_dialog/Locale`)
    assert.include(r.text, "======Localeの心の声======")
    const fallback = await get(`${server.url}/new_dialog/Other?render_language=ko`)
    assert.strictEqual(fallback.text, "")
  })
})
