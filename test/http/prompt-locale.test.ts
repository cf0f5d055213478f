import { assert, describe, it } from "@effect/vitest"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { get, history, post, serverSuite, turn } from "../support/server.js"

const put = async (url: string, body: string) => {
  const res = await fetch(url, { method: "PUT", body, headers: { "content-type": "application/json" } })
  return { status: res.status, text: await res.text() }
}

describe("prompt-locale and search_for_memory routes", () => {
  const { temp, start } = serverSuite()
  const onDisk = (name: string): { language: string; order: number; reserved_order: number } =>
    JSON.parse(readFileSync(path.join(temp.memory, name, "prompt_locale.json"), "utf8"))

  it("reads no language for a new character, sets one with an increasing order, and the dialog follows it", async () => {
    const server = await start(temp.memory)
    const first = await get(`${server.url}/prompt-locale/Hana`)
    assert.strictEqual(first.status, 200)
    assert.deepStrictEqual(JSON.parse(first.text), {
      success: true,
      language: null,
      order: null,
      effective_language: "en"
    })
    const set = await put(`${server.url}/prompt-locale/Hana`, JSON.stringify({ language: "zh-CN" }))
    assert.strictEqual(set.status, 200, set.text)
    const body = JSON.parse(set.text)
    assert.deepInclude(body, { success: true, language: "zh-CN", previous_language: null, changed: true })
    assert.strictEqual(onDisk("Hana").language, "zh-CN")
    assert.strictEqual(onDisk("Hana").order, body.order)

    const again = JSON.parse((await put(`${server.url}/prompt-locale/Hana`, JSON.stringify({ language: "zh" }))).text)
    assert.deepInclude(again, { language: "zh-CN", previous_language: "zh-CN", changed: false })
    assert.isAbove(again.order, body.order)
    const ja = JSON.parse((await put(`${server.url}/prompt-locale/Hana`, JSON.stringify({ language: "ja-JP" }))).text)
    assert.deepInclude(ja, { language: "ja", previous_language: "zh-CN", changed: true })
    assert.isAbove(ja.order, again.order)
    assert.deepStrictEqual(JSON.parse((await get(`${server.url}/prompt-locale/Hana`)).text), {
      success: true,
      language: "ja",
      order: ja.order,
      effective_language: "ja"
    })

    await post(`${server.url}/cache/Hana`, history(turn("おはよう", "おはよう！")))
    const dialog = await get(`${server.url}/new_dialog/Hana`)
    assert.include(dialog.text, "の心の声", "the stored language renders the dialog")
  })

  it("keeps an order a N.E.K.O. file already holds, even one beyond exact integers", async () => {
    const dir = path.join(temp.memory, "Rin")
    mkdirSync(dir, { recursive: true })
    const nekoOrder = 1_764_000_000_000_000_000
    writeFileSync(
      path.join(dir, "prompt_locale.json"),
      JSON.stringify({ language: "en", order: nekoOrder, reserved_order: nekoOrder })
    )
    const server = await start(temp.memory)
    const before = JSON.parse((await get(`${server.url}/prompt-locale/Rin`)).text)
    assert.deepInclude(before, { language: "en", order: nekoOrder })
    const set = JSON.parse((await put(`${server.url}/prompt-locale/Rin`, JSON.stringify({ language: "ko" }))).text)
    assert.deepInclude(set, { language: "ko", previous_language: "en", changed: true })
    assert.isAbove(set.order, nekoOrder)
  })

  it("answers 422 without a language, 400 for an unsupported one or a bad name, and writes nothing", async () => {
    const server = await start(temp.memory)
    const missing = await put(`${server.url}/prompt-locale/Aoi`, JSON.stringify({ lang: "en" }))
    assert.strictEqual(missing.status, 422)
    const notString = await put(`${server.url}/prompt-locale/Aoi`, JSON.stringify({ language: 3 }))
    assert.strictEqual(notString.status, 422)
    const unsupported = await put(`${server.url}/prompt-locale/Aoi`, JSON.stringify({ language: "fr" }))
    assert.strictEqual(unsupported.status, 400)
    assert.deepStrictEqual(JSON.parse(unsupported.text), { detail: "Unsupported language" })
    const badName = await put(`${server.url}/prompt-locale/..%2Fx`, JSON.stringify({ language: "en" }))
    assert.strictEqual(badName.status, 400)
    const badGet = await get(`${server.url}/prompt-locale/a%00b`)
    assert.strictEqual(badGet.status, 400)
    assert.isFalse(existsSync(path.join(temp.memory, "Aoi")))
  })

  it("answers the deprecated search_for_memory with a placeholder naming /query_memory, in the request language", async () => {
    const server = await start(temp.memory)
    const en = await get(`${server.url}/search_for_memory/Hana/${encodeURIComponent("my cat")}`)
    assert.strictEqual(en.status, 200)
    const text: string = JSON.parse(en.text)
    assert.include(text, "Hana")
    assert.include(text, "my cat")
    assert.include(text, "/query_memory")
    const ja: string = JSON.parse((await get(`${server.url}/search_for_memory/Hana/neko?language=ja`)).text)
    assert.include(ja, "思い出")
    assert.strictEqual((await get(`${server.url}/search_for_memory/a%00b/x`)).status, 400)
  })
})
