import { assert, describe, it } from "@effect/vitest"
import { mkdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { history, post, serverSuite } from "../support/server.js"
import { storedFact as fact } from "../support/facts.js"

const facts = [
  fact("zh_cat", "主人家有一只橘猫，叫馒头"),
  fact("zh_dog", "主人养了一只柯基，名字叫可乐"),
  fact("zh_age", "主人今年三十一岁"),
  fact("zh_work", "主人在深圳一家手机公司上班"),
  fact("zh_home", "主人家在杭州西湖区"),
  fact("zh_grandpa", "主人的爷爷今年八十五岁"),
  fact("zh_hant", "主人最喜歡的歌手是周杰倫"),
  fact("ja_sister", "主人の姉は名古屋でパン屋を経営している"),
  fact("ja_partner", "主人の恋人は翔太という名前だ"),
  fact("ja_age", "主人は31歳だ"),
  fact("ja_work", "主人は横浜の病院で看護師として働いている"),
  fact("en_partner", "Master's girlfriend Sophie plays the violin in an orchestra"),
  fact("en_brother", "Master's brother Arjun writes software for a bank"),
  fact("en_market", "The stock market fell sharply")
]

/** Paraphrased questions: none shares a content word with its fact; a concept table links them. */
const questions: ReadonlyArray<readonly [string, string]> = [
  ["我家的貓叫什麼名字？", "zh_cat"],
  ["我的狗叫什么？", "zh_dog"],
  ["我多大了？", "zh_age"],
  ["我在哪里工作？", "zh_work"],
  ["我住哪儿？", "zh_home"],
  ["我祖父多大年纪了？", "zh_grandpa"],
  ["我最喜欢的歌手是谁？", "zh_hant"],
  ["お姉ちゃんは何をしてる？", "ja_sister"],
  ["私の彼氏の名前は何？", "ja_partner"],
  ["私って何歳だっけ？", "ja_age"],
  ["私の仕事は何？", "ja_work"],
  ["What instrument does my partner play?", "en_partner"],
  ["What does my sibling do?", "en_brother"]
]

describe("recall of paraphrased questions over HTTP with vectors on", () => {
  const { temp, startWithVectors } = serverSuite()

  const answers = async (root: string, env: Readonly<Record<string, string>>) => {
    const memory = path.join(temp.root, root, "memory")
    mkdirSync(path.join(memory, "Kon"), { recursive: true })
    writeFileSync(path.join(memory, "Kon", "facts.json"), JSON.stringify(facts))
    const server = await startWithVectors(memory, [], env)
    await post(`${server.url}/internal/maintenance/run_once`, JSON.stringify({ character: "Kon" }))
    const out = new Map<string, ReadonlyArray<string>>()
    for (const [query] of questions) {
      const res = await post(`${server.url}/query_memory/Kon`, JSON.stringify({ query }))
      if (!res.text.includes("results")) throw new Error(res.text)
      out.set(
        query,
        (JSON.parse(res.text).results as ReadonlyArray<{ id: string }>).map((r) => r.id)
      )
    }
    await server.stop()
    return out
  }

  it("finds the fact through concepts (kinds, kin, partners, age, work, home) in both Chinese scripts", async () => {
    const found = await answers("on", {})
    for (const [query, id] of questions) {
      const ids = found.get(query) ?? []
      assert.include(ids.slice(0, 2), id, `${query} → ${ids.join(", ")}`)
      assert.notInclude(ids, "en_market", query)
    }
  })

  it("misses the CJK paraphrases with recall_concepts off", async () => {
    const found = await answers("off", { KIOKU_RECALL_CONCEPTS: "false" })
    const cjk = questions.filter(([q]) => /[\u3040-\u30ff\u4e00-\u9fff]/.test(q))
    const hits = cjk.filter(([query, id]) => (found.get(query) ?? []).slice(0, 2).includes(id))
    assert.isBelow(hits.length, cjk.length / 2, hits.map(([q]) => q).join(" "))
  })

  it("answers with the facts made from the turns, not the turns again nor the replies that only echo them", async () => {
    const server = await startWithVectors(temp.memory)
    const said = [
      ["我姐姐是一名律师，在北京工作。", "这样啊！"],
      ["我养了一只柯基，名字叫可乐。", "好可爱！"],
      ["My older sister Rachel is a pediatrician in Denver.", "Oh nice!"]
    ]
    for (const [user, reply] of said) {
      const res = await post(
        `${server.url}/cache/Echo`,
        history([
          { role: "user", content: user },
          { role: "assistant", content: reply }
        ])
      )
      assert.strictEqual(res.status, 200)
    }
    await post(`${server.url}/internal/maintenance/run_once`, JSON.stringify({ character: "Echo" }))
    const ask = async (query: string) =>
      JSON.parse((await post(`${server.url}/query_memory/Echo`, JSON.stringify({ query }))).text)
        .results as ReadonlyArray<{
        tier: string
        text: string
      }>
    for (const [query, key, reply] of [
      ["我姊姊做什麼工作？", "律师", "这样啊！"],
      ["我的狗叫什么？", "可乐", "好可爱！"],
      ["What does my sister do for a living?", "pediatrician", "Oh nice!"]
    ] as const) {
      const rows = await ask(query)
      assert.strictEqual(rows[0]?.tier, "fact", `${query}: ${JSON.stringify(rows)}`)
      assert.include(rows[0]?.text, key)
      assert.isUndefined(
        rows.find((r) => r.tier === "turn" && r.text.includes(key)),
        "the fact stands in for its turn"
      )
      assert.isUndefined(
        rows.find((r) => r.text === reply),
        "the reply only echoes it"
      )
    }
  })
})
