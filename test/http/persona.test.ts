import { assert, describe, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { request } from "node:http"
import * as path from "node:path"
import { get, serverSuite, type RunningServer } from "../support/server.js"

const cardId = (entity: string, field: string) =>
  `card_${createHash("sha256").update(`${entity}:${field}`).digest("hex").slice(0, 8)}`

interface Entry {
  readonly id: string
  readonly text: string
  readonly source: string
  readonly protected: boolean
}
type Persona = Record<string, { readonly facts: ReadonlyArray<Entry> }>

const cards = (p: Persona, section: string) =>
  (p[section]?.facts ?? []).map((e): Array<string | boolean> => [e.id, e.text, e.source, e.protected])

/** A GET whose path goes out as written (fetch would resolve `..`). */
const rawGet = (port: number, urlPath: string) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method: "GET", path: urlPath }, (res) => {
      let text = ""
      res.on("data", (c: Buffer) => (text += c.toString()))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }))
    })
    req.on("error", reject)
    req.end()
  })

describe("persona routes", () => {
  let server: RunningServer | undefined
  const { temp, start } = serverSuite()
  const configDir = path.join(temp.root, "config")
  const writeCharacters = (characters: unknown) => {
    mkdirSync(configDir, { recursive: true })
    writeFileSync(path.join(configDir, "characters.json"), JSON.stringify(characters))
  }
  const getJson = async (route: string) => {
    const r = await get(`${server?.url}${route}`)
    assert.strictEqual(r.status, 200, `${route}: ${r.text}`)
    assert.match(r.type, /^application\/json/)
    return JSON.parse(r.text)
  }
  const onDisk = (name: string): Persona =>
    JSON.parse(readFileSync(path.join(temp.memory, name, "persona.json"), "utf8"))

  it("syncs the character card into /get_persona and persona.json, and follows changes to characters.json", async () => {
    writeCharacters({
      主人: { 档案名: "Alex", 昵称: ["小A", "阿历"], live2d: "ignored" },
      猫娘: { Tian: { 性格: "温柔", 爱好: ["唱歌", "画画"], voice_id: "v1", 外观: { 发色: "黑" }, 口头禅: "喵" } }
    })
    server = await start(temp.memory)
    const persona: Persona = await getJson("/get_persona/Tian")
    const nekoCards = [
      [cardId("neko", "性格"), "性格: 温柔", "character_card", true],
      [cardId("neko", "爱好"), "爱好: 唱歌、画画", "character_card", true],
      [cardId("neko", "口头禅"), "口头禅: 喵", "character_card", true]
    ]
    const masterCards = [
      [cardId("master", "档案名"), "档案名: Alex", "character_card", true],
      [cardId("master", "昵称"), "昵称: 小A、阿历", "character_card", true]
    ]
    assert.deepStrictEqual(cards(persona, "neko"), nekoCards)
    assert.deepStrictEqual(cards(persona, "master"), masterCards)
    assert.deepStrictEqual(cards(persona, "relationship"), [])
    assert.deepStrictEqual(cards(onDisk("Tian"), "neko"), nekoCards)
    assert.deepStrictEqual(cards(onDisk("Tian"), "master"), masterCards)

    writeCharacters({
      主人: { 档案名: "Alex", 昵称: ["小A", "阿历"] },
      猫娘: { Tian: { 性格: "活泼", 口头禅: "喵" } }
    })
    const changed: Persona = await getJson("/get_persona/Tian")
    const expected = [
      [cardId("neko", "性格"), "性格: 活泼", "character_card", true],
      [cardId("neko", "口头禅"), "口头禅: 喵", "character_card", true]
    ]
    assert.deepStrictEqual(cards(changed, "neko"), expected)
    assert.deepStrictEqual(cards(changed, "master"), masterCards)
    assert.deepStrictEqual(cards(onDisk("Tian"), "neko"), expected)
    assert.strictEqual(
      changed["neko"]?.facts[0]?.["created_at" as keyof Entry],
      persona["neko"]?.facts[0]?.["created_at" as keyof Entry],
      "the changed line is the same entry, updated in place"
    )
    assert.strictEqual(
      await getJson("/get_settings/Tian"),
      "### About Tian\n- 性格: 活泼\n- 口头禅: 喵\n\n### About Alex\n- 档案名: Alex\n- 昵称: 小A、阿历"
    )
    assert.strictEqual(
      await getJson("/get_settings/Tian?render_language=zh-CN"),
      "### 关于Tian\n- 性格: 活泼\n- 口头禅: 喵\n\n### 关于Alex\n- 档案名: Alex\n- 昵称: 小A、阿历",
      "without a stored language, render_language picks the headers"
    )
  })

  it("renders the persona markdown in /get_settings, the same block /new_dialog shows, in the asked language", async () => {
    writeCharacters({ 主人: { 档案名: "Alex" }, 猫娘: { Mika: { 性格: "冷静" } } })
    const dir = path.join(temp.memory, "Mika")
    mkdirSync(dir, { recursive: true })
    const manual = (id: string, text: string, extra: Readonly<Record<string, unknown>> = {}) => ({
      id,
      text,
      source: "manual",
      created_at: "2026-01-01T00:00:00.000000",
      reinforcement: 1,
      ...extra
    })
    writeFileSync(
      path.join(dir, "persona.json"),
      JSON.stringify({
        neko: { facts: [] },
        master: { facts: [manual("manual_1", "likes green tea")] },
        relationship: { facts: [manual("manual_2", "they met at a concert")] }
      })
    )
    writeFileSync(path.join(dir, "prompt_locale.json"), JSON.stringify({ language: "ja", order: 1, reserved_order: 1 }))
    server = await start(temp.memory)
    const en = await getJson("/get_settings/Mika?language=en")
    assert.strictEqual(
      en,
      "### About Mika\n- 性格: 冷静\n\n### About Alex\n- 档案名: Alex\n- likes green tea\n\n" +
        "### Relationship\n- they met at a concert"
    )
    const zh = await getJson("/get_settings/Mika?language=zh")
    assert.strictEqual(
      zh,
      "### 关于Mika\n- 性格: 冷静\n\n### 关于Alex\n- 档案名: Alex\n- likes green tea\n\n### 关系动态\n- they met at a concert"
    )
    const ja =
      "### Mikaについて\n- 性格: 冷静\n\n### Alexについて\n- 档案名: Alex\n- likes green tea\n\n### 関係性\n- they met at a concert"
    assert.strictEqual(await getJson("/get_settings/Mika"), ja, "the stored prompt language")
    assert.strictEqual(
      await getJson("/get_settings/Mika?render_language=zh"),
      ja,
      "a stored language beats render_language"
    )
    const dialog = await get(`${server.url}/new_dialog/Mika?language=en`)
    assert.isTrue(dialog.text.startsWith(`\n======Mika's Long-term Memory======\n${en}\n\n======Mika's Inner Thoughts`))
    const zhDialog = await get(`${server.url}/new_dialog/Mika?language=zh`)
    assert.isTrue(zhDialog.text.startsWith(`\n======Mika的长期记忆======\n${zh}\n\n======以下是Mika的内心活动`))
  })

  it("migrates a legacy settings.json into persona entries once, for a character whose persona is empty", async () => {
    writeCharacters({ 猫娘: { Legacy: {} } })
    const dir = path.join(temp.memory, "Legacy")
    mkdirSync(dir, { recursive: true })
    writeFileSync(
      path.join(dir, "settings.json"),
      JSON.stringify({ Legacy: { 性格: "安静", 空: "" }, 主人: { 职业: "engineer", 爱好: ["读书", "跑步"] } })
    )
    server = await start(temp.memory)
    assert.strictEqual(
      await getJson("/get_settings/Legacy"),
      "### About Legacy\n- 性格: 安静\n\n### About Master\n- 职业: engineer\n- 爱好: 读书、跑步"
    )
    const persona = JSON.parse(readFileSync(path.join(dir, "persona.json"), "utf8"))
    const legacy = [...persona.neko.facts, ...persona.master.facts]
    assert.deepStrictEqual(
      legacy.map((e: { source: string; text: string }) => [e.source, e.text]),
      [
        ["settings", "性格: 安静"],
        ["settings", "职业: engineer"],
        ["settings", "爱好: 读书、跑步"]
      ]
    )
    const id = `legacy_${createHash("sha256").update("性格: 安静").digest("hex").slice(0, 8)}`
    assert.strictEqual(persona.neko.facts[0].id, id)
    const again = await getJson("/get_persona/Legacy")
    assert.strictEqual(JSON.stringify(again).split("legacy_").length - 1, 3, "migrated once")
  })

  it("answers <name>记得{} for an unknown character and creates nothing", async () => {
    writeCharacters({ 主人: { 档案名: "Alex" }, 猫娘: { Tian: {} } })
    server = await start(temp.memory)
    assert.strictEqual(await getJson("/get_settings/Nobody"), "Nobody记得{}")
    assert.strictEqual(await getJson(`/get_settings/${encodeURIComponent("小天 Tian2")}`), "小天 Tian2记得{}")
    assert.isFalse(existsSync(path.join(temp.memory, "Nobody")))
  })

  it("rejects invalid names on both routes with N.E.K.O.'s error body", async () => {
    server = await start(temp.memory)
    const cases: Array<[string, string]> = [
      ["..", "Invalid characters in lanlan_name"],
      ["%2E%2E", "Invalid characters in lanlan_name"],
      ["a%2Fb", "Invalid characters in lanlan_name"],
      ["CON", "Invalid characters in lanlan_name"],
      ["trailing.", "Invalid characters in lanlan_name"],
      ["x".repeat(51), "Invalid lanlan_name length"],
      ["%20%20", "Invalid lanlan_name length"]
    ]
    for (const [name, message] of cases) {
      for (const route of ["get_settings", "get_persona"]) {
        const r = await rawGet(server.port, `/${route}/${name}`)
        assert.strictEqual(r.status, 400, `${route}/${name}`)
        assert.deepStrictEqual(JSON.parse(r.text), { detail: message }, `${route}/${name}`)
      }
    }
  })
})
