import { assert, describe, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { flushRecent, get, history, post, serverSuite, turn } from "../support/server.js"

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex")

const load = async (url: string, file: string) => {
  const r = await get(`${url}/api/memory/recent_file?filename=${encodeURIComponent(file)}`)
  assert.strictEqual(r.status, 200, r.text)
  const body = JSON.parse(r.text)
  return { content: String(body.content), fingerprint: String(body.fingerprint), identity: String(body.identity_token) }
}

const save = (url: string, body: Readonly<Record<string, unknown>>) =>
  post(`${url}/api/memory/recent_file/save`, JSON.stringify(body))

const edited = [
  { role: "system", text: "Memo from prior conversations: they talked about cats" },
  { role: "human", text: "I have a cat named Mochi" },
  { role: "ai", text: "Mochi is a lovely name" }
]

describe("memory browser API", () => {
  const { temp, start } = serverSuite()

  it("lists recent files, serves one with its tokens, and saves an edit through the journal", async () => {
    mkdirSync(path.join(temp.memory, "Empty"), { recursive: true })
    let server = await start(temp.memory)
    await post(`${server.url}/cache/Tian`, history(turn("I have a dog", "What is its name?")))
    await post(`${server.url}/cache/Aoi`, history(turn("hello", "hi")))
    const list = await get(`${server.url}/api/memory/recent_files`)
    assert.deepStrictEqual(JSON.parse(list.text), { files: ["recent_Aoi.json", "recent_Tian.json"] })

    const file = path.join(temp.memory, "Tian", "recent.json")
    const before = await load(server.url, "recent_Tian.json")
    assert.strictEqual(before.content, readFileSync(file, "utf8"))
    assert.strictEqual(before.fingerprint, sha256(before.content))
    assert.match(before.identity, /^[0-9a-f]{64}$/)

    const saved = await save(server.url, {
      filename: "recent_Tian.json",
      fingerprint: before.fingerprint,
      identity_token: before.identity,
      chat: edited
    })
    assert.strictEqual(saved.status, 200, saved.text)
    const text = readFileSync(file, "utf8")
    assert.deepStrictEqual(JSON.parse(saved.text), {
      success: true,
      need_refresh: true,
      catgirl_name: "Tian",
      fingerprint: sha256(text),
      identity_token: before.identity
    })
    const lc = { additional_kwargs: {}, response_metadata: {}, name: null, id: null, example: false }
    assert.deepStrictEqual(JSON.parse(text), [
      { type: "system", data: { content: edited[0]?.text, ...lc, type: "system" } },
      { type: "human", data: { content: edited[1]?.text, ...lc, type: "human" } },
      {
        type: "ai",
        data: {
          content: edited[2]?.text,
          ...lc,
          type: "ai",
          tool_calls: [],
          invalid_tool_calls: [],
          usage_metadata: null
        }
      }
    ])
    const events = readFileSync(path.join(temp.memory, "Tian", "events.ndjson"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
    const edit = events.find((e) => e.type === "recent.spliced" && e.payload.reason === "edit")
    assert.isDefined(edit)
    assert.strictEqual(edit.payload.fingerprints.length, 2)
    assert.strictEqual(edit.payload.items.length, 3)

    await server.stop()
    server = await start(temp.memory)
    const after = await load(server.url, "recent_Tian.json")
    assert.strictEqual(after.content, text)
    assert.strictEqual(after.identity, before.identity)
    const dialog = await get(`${server.url}/new_dialog/Tian`)
    assert.include(dialog.text, "I have a cat named Mochi")
    assert.notInclude(dialog.text, "I have a dog")
  })

  it("answers 400 for bad names and payloads, 404 for a missing file, and writes nothing", async () => {
    const server = await start(temp.memory)
    await post(`${server.url}/cache/Bad`, history(turn("keep me", "kept")))
    for (const name of ["../x.json", "recent_a/b.json", "recent_a\\b.json", "notes.json", "recent_x.txt", ""]) {
      const r = await get(`${server.url}/api/memory/recent_file?filename=${encodeURIComponent(name)}`)
      assert.strictEqual(r.status, 400, name)
      assert.strictEqual(JSON.parse(r.text).success, false)
    }
    const missing = await get(`${server.url}/api/memory/recent_file?filename=recent_Nobody.json`)
    assert.strictEqual(missing.status, 404)
    assert.deepStrictEqual(JSON.parse(missing.text), { success: false, error: "文件不存在" })

    const file = path.join(temp.memory, "Bad", "recent.json")
    const original = readFileSync(file, "utf8")
    const tokens = await load(server.url, "recent_Bad.json")
    const base = { filename: "recent_Bad.json", fingerprint: tokens.fingerprint, identity_token: tokens.identity }
    const long = "x".repeat(32_768)
    const bad: ReadonlyArray<Readonly<Record<string, unknown>>> = [
      { ...base, filename: "../recent_Bad.json", chat: edited },
      { ...base, filename: "other.json", chat: edited },
      { ...base, chat: "not a list" },
      { ...base, chat: [{ role: "user", text: "x" }] },
      { ...base, chat: [{ role: "human", text: 3 }] },
      { ...base, chat: Array.from({ length: 10_001 }, () => ({ role: "human", text: "x" })) },
      { ...base, chat: [{ role: "human", text: long + "x" }] },
      { ...base, chat: Array.from({ length: 65 }, () => ({ role: "human", text: long })) },
      { ...base, fingerprint: 7, chat: edited }
    ]
    for (const body of bad) {
      const r = await save(server.url, body)
      assert.strictEqual(r.status, 400, r.text)
      assert.strictEqual(JSON.parse(r.text).success, false)
    }
    const garbage = await post(`${server.url}/api/memory/recent_file/save`, "{not json")
    assert.strictEqual(garbage.status, 400)
    assert.strictEqual(readFileSync(file, "utf8"), original)
    const ok = await save(server.url, { ...base, chat: [{ role: "human" }] })
    assert.strictEqual(ok.status, 200, ok.text)
    assert.deepStrictEqual(
      JSON.parse(readFileSync(file, "utf8")).map((m: { data: { content: string } }) => m.data.content),
      [""]
    )
  })

  it("answers 409 RECENT_FILE_CONFLICT when the file changed after the read or the tokens are missing", async () => {
    const server = await start(temp.memory)
    await post(`${server.url}/cache/Race`, history(turn("first", "one")))
    const stale = await load(server.url, "recent_Race.json")
    await post(`${server.url}/cache/Race`, history(turn("second", "two")))
    await flushRecent(server.url, "Race")
    const file = path.join(temp.memory, "Race", "recent.json")
    const current = readFileSync(file, "utf8")

    const r = await save(server.url, {
      filename: "recent_Race.json",
      fingerprint: stale.fingerprint,
      identity_token: stale.identity,
      chat: edited
    })
    assert.strictEqual(r.status, 409)
    const body = JSON.parse(r.text)
    assert.strictEqual(body.success, false)
    assert.strictEqual(body.code, "RECENT_FILE_CONFLICT")
    assert.strictEqual(body.fingerprint, sha256(current))
    assert.strictEqual(body.identity_token, stale.identity)
    assert.strictEqual(readFileSync(file, "utf8"), current)

    const noTokens = await save(server.url, { filename: "recent_Race.json", chat: edited })
    assert.strictEqual(noTokens.status, 409)
    assert.strictEqual(JSON.parse(noTokens.text).code, "RECENT_FILE_CONFLICT")
    const wrongIdentity = await save(server.url, {
      filename: "recent_Race.json",
      fingerprint: body.fingerprint,
      identity_token: "0".repeat(64),
      chat: edited
    })
    assert.strictEqual(wrongIdentity.status, 409)
    const gone = await save(server.url, {
      filename: "recent_Ghost.json",
      fingerprint: body.fingerprint,
      identity_token: body.identity_token,
      chat: edited
    })
    assert.strictEqual(gone.status, 409)
    assert.strictEqual(JSON.parse(gone.text).fingerprint, null)
    assert.strictEqual(readFileSync(file, "utf8"), current)
    assert.isFalse(existsSync(path.join(temp.memory, "Ghost", "recent.json")))

    const retry = await save(server.url, {
      filename: "recent_Race.json",
      fingerprint: body.fingerprint,
      identity_token: body.identity_token,
      chat: edited
    })
    assert.strictEqual(retry.status, 200, retry.text)
  })

  it("renames a character's memory with its actor stopped; the follow-up call is an idempotent no-op", async () => {
    mkdirSync(path.join(temp.root, "config"), { recursive: true })
    const charactersFile = path.join(temp.root, "config", "characters.json")
    writeFileSync(
      charactersFile,
      JSON.stringify({ 主人: { 档案名: "Alex" }, 猫娘: { First: {}, Old: { note: 1 } }, 当前猫娘: "Old" })
    )
    const server = await start(temp.memory)
    await post(`${server.url}/cache/Old`, history(turn("remember the lighthouse", "I will")))
    const rename = (old_name: unknown, new_name: unknown) =>
      post(`${server.url}/api/memory/update_catgirl_name`, JSON.stringify({ old_name, new_name }))

    const renamed = await rename("Old", "New")
    assert.strictEqual(renamed.status, 200, renamed.text)
    assert.deepStrictEqual(JSON.parse(renamed.text), {
      success: true,
      memory_renamed: true,
      memory_server_reloaded: true
    })
    assert.isFalse(existsSync(path.join(temp.memory, "Old")))
    assert.isTrue(existsSync(path.join(temp.memory, "New", "recent.json")))
    const config = JSON.parse(readFileSync(charactersFile, "utf8"))
    assert.deepStrictEqual(Object.keys(config.猫娘), ["First", "New"])
    assert.deepStrictEqual(config.猫娘.New, { note: 1 })
    assert.strictEqual(config.当前猫娘, "New")

    const dialog = await get(`${server.url}/new_dialog/New`)
    assert.include(dialog.text, "remember the lighthouse")
    const again = await rename("Old", "New")
    assert.deepStrictEqual(JSON.parse(again.text), {
      success: true,
      changed: false,
      exists_after: true,
      already_renamed: true
    })
    assert.isFalse(existsSync(path.join(temp.memory, "Old")))

    for (const [a, b] of [
      ["", "X"],
      ["New", undefined],
      ["New", "a/b"],
      ["../New", "X"],
      ["New", "api"],
      ["New", "New"]
    ]) {
      const r = await rename(a, b)
      assert.strictEqual(r.status, 400, `${a} -> ${b}`)
      assert.strictEqual(JSON.parse(r.text).success, false)
    }
    await post(`${server.url}/cache/Other`, history(turn("mine", "yours")))
    const both = await rename("New", "Other")
    assert.strictEqual(both.status, 409)
    assert.isTrue(existsSync(path.join(temp.memory, "New", "recent.json")))
    const none = await rename("Nobody", "Somebody")
    assert.strictEqual(none.status, 404)
    await post(`${server.url}/cache/New`, history(turn("after the rename", "noted")))
    assert.include((await get(`${server.url}/new_dialog/New`)).text, "after the rename")
  })
})
