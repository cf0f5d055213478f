import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { mkdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { history, post, serverSuite } from "../support/server.js"
import { storedFact as fact } from "../support/facts.js"

interface Row {
  readonly id: string
  readonly text: string
  readonly tier: string
  readonly entity: string
  readonly source_row_ids?: ReadonlyArray<number>
}
const rowsOf = (text: string): ReadonlyArray<Row> => JSON.parse(text).results

const plantFacts = (memory: string, name: string, facts: ReadonlyArray<ReturnType<typeof fact>>) => {
  mkdirSync(path.join(memory, name), { recursive: true })
  writeFileSync(path.join(memory, name, "facts.json"), JSON.stringify(facts))
}

const count = (file: string, sql: string) => {
  const db = new Database(file, { readonly: true })
  try {
    return Number(db.prepare(sql).pluck().get())
  } finally {
    db.close()
  }
}

describe("recall over HTTP with vectors on (the default embedding model)", () => {
  const { temp, startWithVectors } = serverSuite()

  it("finds a turn sent as a list of parts through the raw-turn tier, on by default, and embeds the turns", async () => {
    const server = await startWithVectors(temp.memory)
    const parts = (...texts: ReadonlyArray<string>) => texts.map((text) => ({ type: "text", text }))
    const cached = await post(
      `${server.url}/cache/Parts`,
      history([
        { role: "user", content: parts("My hamster Biscuit", "hoards sunflower seeds in his cheeks.") },
        { role: "assistant", content: parts("Biscuit sounds adorable!") },
        { role: "user", content: [{ type: "image_url", image_url: { url: "data:," } }] }
      ])
    )
    assert.strictEqual(cached.status, 200)
    const ran = await post(`${server.url}/internal/maintenance/run_once`, JSON.stringify({ character: "Parts" }))
    assert.strictEqual(ran.status, 200)
    const dir = path.join(temp.memory, "Parts")
    assert.strictEqual(count(path.join(dir, "turn_vectors.db"), "SELECT COUNT(*) FROM turn_vectors WHERE dim > 0"), 2)
    assert.strictEqual(count(path.join(dir, "turn_vectors.db"), "SELECT COUNT(*) FROM turn_vectors"), 3)
    const ask = async (query: string) =>
      rowsOf((await post(`${server.url}/query_memory/Parts`, JSON.stringify({ query }))).text)
    // The user's turn became a fact, which stands in its place: one row for one statement.
    const seeds = await ask("sunflower seeds")
    assert.strictEqual(seeds[0]?.tier, "fact")
    assert.include(seeds[0]?.text, "sunflower seeds")
    assert.isUndefined(seeds.find((r) => r.tier === "turn" && r.text.includes("sunflower")))
    // The character's reply, also a list of parts, made no fact and is found as a turn.
    const turn = (await ask("sounds adorable")).find((r) => r.tier === "turn")
    assert.strictEqual(turn?.text, "Biscuit sounds adorable!")
    assert.strictEqual(turn?.entity, "self_said")
    assert.strictEqual(turn?.source_row_ids?.length, 1)
    const md = await post(
      `${server.url}/query_memory/Parts?format=markdown`,
      JSON.stringify({ query: "sounds adorable" })
    )
    assert.include(md.text, "[conversation/I said] Biscuit sounds adorable!")
  })

  it("finds a fact only the cosine list can reach once run_once has backfilled its vector", async () => {
    plantFacts(temp.memory, "Vec", [
      fact("fact_scope", "I bought a telescope"),
      fact("fact_market", "The stock market fell")
    ])
    const server = await startWithVectors(temp.memory)
    const url = `${server.url}/query_memory/Vec`
    const before = rowsOf((await post(url, JSON.stringify({ query: "astronomy gear" }))).text)
    assert.deepStrictEqual(before, [], "no shared words and no vectors yet: nothing")
    await post(`${server.url}/internal/maintenance/run_once`, JSON.stringify({ character: "Vec" }))
    assert.strictEqual(count(path.join(temp.memory, "Vec", "vectors.db"), "SELECT COUNT(*) FROM vectors"), 2)
    const after = rowsOf((await post(url, JSON.stringify({ query: "astronomy gear" }))).text)
    assert.strictEqual(after[0]?.id, "fact_scope")
  })

  it("keeps an unrelated fact out of the answer with the relative floors, and lets it in with the floors at 0", async () => {
    const facts = [
      fact("fact_cat", "I adopted a cat named Mochi"),
      fact("fact_market", "The stock market fell sharply")
    ]
    const ask = async (env: Readonly<Record<string, string>>) => {
      const root = path.join(temp.root, `floor-${Object.keys(env).length}`)
      plantFacts(path.join(root, "memory"), "Floor", facts)
      const server = await startWithVectors(path.join(root, "memory"), [], env)
      await post(`${server.url}/internal/maintenance/run_once`, JSON.stringify({ character: "Floor" }))
      const ids = async (query: string) =>
        rowsOf((await post(`${server.url}/query_memory/Floor`, JSON.stringify({ query }))).text).map((r) => r.id)
      const answers = { cat: await ids("my cat Mochi"), market: await ids("shares fell on the stock market") }
      await server.stop()
      return answers
    }
    // N.E.K.O.'s absolute cosine threshold (0.3) is off, so only the relative floors stand in the way.
    const noThreshold = { KIOKU_HYBRID_RECALL_COSINE_THRESHOLD: "0" }
    assert.deepStrictEqual(await ask(noThreshold), { cat: ["fact_cat"], market: ["fact_market"] })
    const open = await ask({
      ...noThreshold,
      KIOKU_RECALL_COSINE_RELATIVE_FLOOR: "0",
      KIOKU_RECALL_BM25_RELATIVE_FLOOR: "0"
    })
    assert.deepStrictEqual(open.cat, ["fact_cat", "fact_market"])
    assert.deepStrictEqual(open.market, ["fact_market", "fact_cat"])
  })
})
