import { assert, describe, it } from "@effect/vitest"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { get, post, serverSuite } from "../support/server.js"

const fact = (n: number, text: string) => ({
  id: `fact_2026110${n}090000_0000000${n}`,
  text,
  importance: 6,
  entity: "master",
  hash: `h${n}`,
  created_at: `2026-11-0${n}T09:00:00.000000`
})

const running = [
  fact(1, "Master jogs every morning before work"),
  fact(3, "Master ran a first full marathon in Kyoto last month"),
  fact(4, "Master's running club meets every Sunday at 7am"),
  fact(6, "Master is training for the Tokyo marathon"),
  fact(7, "Master bought new running shoes")
]
const unrelated = [fact(2, "Master works at Nintendo"), fact(5, "Master has a cat named Mochi")]

describe("local reflections through the server binary", () => {
  const { temp, start } = serverSuite()

  it("one maintenance pass turns five related facts into a pending reflection that /new_dialog renders", async () => {
    const dir = path.join(temp.memory, "Tian")
    mkdirSync(dir, { recursive: true })
    writeFileSync(path.join(dir, "facts.json"), JSON.stringify([...running, ...unrelated]))
    const server = await start(temp.memory)
    const ran = await post(`${server.url}/internal/maintenance/run_once`, JSON.stringify({ character: "Tian" }))
    assert.strictEqual(ran.status, 200, ran.text)
    const [reflection, ...more] = JSON.parse(readFileSync(path.join(dir, "reflections.json"), "utf8"))
    assert.deepStrictEqual(more, [])
    const text =
      "Master is a dedicated runner: jogs every morning before work, ran a first full marathon in Kyoto, " +
      "and is training for the Tokyo marathon."
    assert.deepInclude(reflection, { text, status: "pending", entity: "master", relation_type: "habit" })
    assert.deepStrictEqual(reflection.source_fact_ids, running.map((f) => f.id).sort())
    const facts: ReadonlyArray<{ id: string; absorbed: boolean }> = JSON.parse(
      readFileSync(path.join(dir, "facts.json"), "utf8")
    )
    assert.deepStrictEqual(
      facts.filter((f) => !f.absorbed).map((f) => f.id),
      unrelated.map((f) => f.id)
    )
    const dialog = await get(`${server.url}/new_dialog/Tian`)
    assert.strictEqual(dialog.status, 200)
    assert.include(dialog.text, `### Tian's recent impressions (not yet certain)\n- ${text}`)
  })
})
