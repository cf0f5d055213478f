import { afterAll, assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import * as path from "node:path"
import { post, serverSuite } from "../support/server.js"

const route = "/internal/memory/import_external_markdown"

/** A scripted correction-tier model: fusion prompts get `answers` in turn; the material it saw is recorded. */
const scripted = async (answers: Array<string>) => {
  const seen: Array<string> = []
  const server = createServer((req, res) => {
    let text = ""
    req.on("data", (c: Buffer) => (text += c.toString()))
    req.on("end", () => {
      seen.push(text)
      const content = text.includes("profile material imported for") ? (answers.shift() ?? "{}") : "{}"
      const body = {
        id: "x",
        object: "chat.completion",
        choices: [{ index: 0, message: { role: "assistant", content } }]
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    env: { KIOKU_LLM_CORRECTION_BASE_URL: `http://127.0.0.1:${port}/v1`, KIOKU_LLM_CORRECTION_MODEL: "scripted" },
    fusionCalls: () => seen.filter((s) => s.includes("profile material imported for")),
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

const persona = (text: string, fields: Record<string, unknown> = {}) => ({
  text,
  entity: "master",
  target: "persona",
  source_file: "USER.md",
  ...fields
})
const body = (candidates: ReadonlyArray<unknown>) =>
  JSON.stringify({ character_name: "Yui", source_format: "openclaw", imported_files: ["USER.md"], candidates })
interface Entry {
  readonly text: string
  readonly source: string
  readonly protected: boolean
}
const imported = (memory: string): Array<Entry> =>
  JSON.parse(readFileSync(path.join(memory, "Yui", "persona.json"), "utf8")).master.facts.filter(
    (e: Entry) => e.source === "external_import"
  )

describe("external import persona fusion through a configured model", () => {
  const { temp, start } = serverSuite()
  const providers: Array<{ close: () => Promise<void> }> = []
  afterAll(async () => {
    await Promise.all(providers.map((p) => p.close()))
  })

  it("fuses once per batch, refolds a new batch into a fresh bucket, and answers 500 partial when fusion fails", async () => {
    const model = await scripted([
      JSON.stringify([{ text: "Alex keeps the lighthouse on Hokkaido", importance: 9 }]),
      JSON.stringify([
        { text: "Alex keeps the lighthouse on Hokkaido", importance: 9 },
        { text: "Alex plays the cello", importance: 6 }
      ]),
      "not json"
    ])
    providers.push(model)
    const server = await start(temp.memory, [], model.env)
    const url = `${server.url}${route}`
    const first = [persona("Name: Alex Kim"), persona("Works as a lighthouse keeper on Hokkaido")]

    const a = JSON.parse((await post(url, body(first))).text)
    assert.deepInclude(a, { status: "success", added_persona: 1, skipped_duplicates: 0 })
    assert.deepStrictEqual(
      imported(temp.memory).map((e) => [e.text, e.protected]),
      [["Alex keeps the lighthouse on Hokkaido", false]]
    )
    assert.include(model.fusionCalls()[0] ?? "", "lighthouse keeper on Hokkaido")

    const same = JSON.parse((await post(url, body([...first].reverse()))).text)
    assert.deepInclude(same, { added_persona: 0, skipped_duplicates: 2 })
    assert.lengthOf(model.fusionCalls(), 1, "the same batch again calls no model")

    const more = JSON.parse((await post(url, body([persona("Plays the cello on weekends")]))).text)
    assert.deepInclude(more, { status: "success", added_persona: 2 })
    assert.include(model.fusionCalls()[1] ?? "", "Alex keeps the lighthouse on Hokkaido", "the bucket is fused again")
    assert.deepStrictEqual(
      imported(temp.memory).map((e) => e.text),
      ["Alex keeps the lighthouse on Hokkaido", "Alex plays the cello"]
    )

    const fact = { text: "Alex drinks oolong", entity: "master", target: "facts", source_file: "MEMORY.md" }
    const failed = await post(url, body([persona("Speaks three languages"), fact]))
    assert.strictEqual(failed.status, 500, failed.text)
    assert.deepStrictEqual(JSON.parse(failed.text), {
      detail: "External memory import was only partially completed",
      error_code: "external_import_partial",
      partial_import: { character_name: "Yui", added_persona: 0, added_facts: 0 }
    })
    assert.lengthOf(imported(temp.memory), 2, "a failed fusion keeps the bucket")
    assert.notInclude(readFileSync(path.join(temp.memory, "Yui", "events.ndjson"), "utf8"), "oolong")
  })
})
