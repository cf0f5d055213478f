import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { distBin, history, post, serverSuite, turn } from "../support/server.js"

const english: ReadonlyArray<string> = [
  "Hi Tian!",
  "My name is Alex Kim.",
  "I live in Osaka.",
  "I work at Nintendo as a QA tester.",
  "I love spicy ramen.",
  "My sister Mei is a nurse.",
  "I adopted a kitten named Mochi last week.",
  "I hate cold weather.",
  "My birthday is on 14 March.",
  "I'm 29 years old."
]
const chinese: ReadonlyArray<string> = [
  "你好呀！",
  "我叫小林。",
  "我住在上海。",
  "我在腾讯工作。",
  "我非常喜欢猫。",
  "我有一只叫豆豆的狗。",
  "我的生日是五月三号。",
  "我今年28岁。",
  "昨天我去了动物园。",
  "我讨厌下雨天。"
]

type Fact = { text: string; source_row_ids: Array<number>; importance: number; event_when_raw: unknown }
const factsOf = (memory: string, name: string): Array<Fact> =>
  JSON.parse(readFileSync(path.join(memory, name, "facts.json"), "utf8"))

const maintain = (port: number) => {
  const r = spawnSync(process.execPath, [distBin, "maintain", "--once", "--port", String(port)], { encoding: "utf8" })
  assert.strictEqual(r.status, 0, r.stderr)
  return JSON.parse(r.stdout)
}

describe("fact extraction end to end with the local provider", () => {
  const { temp, start } = serverSuite()

  it("extracts the stated facts of an English and a Chinese conversation, once", async () => {
    const server = await start(temp.memory)
    for (let i = 0; i < 30; i++) {
      await post(`${server.url}/cache/Tian`, history(turn(english[i % english.length] ?? "", `Nice! (${i})`)))
      await post(`${server.url}/cache/小天`, history(turn(chinese[i % chinese.length] ?? "", `好的（${i}）`)))
    }
    const report = maintain(server.port)
    assert.strictEqual(report.ran.length, 2)
    const en = factsOf(temp.memory, "Tian")
    const enTexts = en.map((f) => f.text)
    for (const expected of [
      "Master's name is Alex Kim",
      "Master lives in Osaka",
      "Master works at Nintendo as a QA tester",
      "Master loves spicy ramen",
      "Master's sister Mei is a nurse",
      "Master adopted a kitten named Mochi last week",
      "Master hates cold weather",
      "Master's birthday is on 14 March",
      "Master is 29 years old"
    ]) {
      assert.include(enTexts, expected)
    }
    assert.strictEqual(new Set(enTexts).size, enTexts.length)
    assert.strictEqual(enTexts.length, 9, "no fact from greetings or the replies")
    const name = en.find((f) => f.text === "Master's name is Alex Kim")
    assert.strictEqual(name?.importance, 10)
    assert.isAbove(name?.source_row_ids.length ?? 0, 0)
    const zh = factsOf(temp.memory, "小天").map((f) => f.text)
    for (const expected of [
      "Master叫小林",
      "Master住在上海",
      "Master在腾讯工作",
      "Master非常喜欢猫",
      "Master有一只叫豆豆的狗",
      "Master的生日是五月三号",
      "Master今年28岁",
      "Master讨厌下雨天"
    ]) {
      assert.include(zh, expected)
    }
    const zoo = factsOf(temp.memory, "小天").find((f) => f.text === "昨天Master去了动物园")
    assert.deepStrictEqual(zoo?.event_when_raw, { start: { offset: -1, unit: "day" }, end: null })

    await post(`${server.url}/cache/Tian`, history(turn("I live in Osaka. I love spicy ramen.", "I know!")))
    maintain(server.port)
    assert.strictEqual(factsOf(temp.memory, "Tian").length, en.length)
  })
})
