/**
 * `kioku mcp` over stdio, the real binary driven by the MCP SDK's client: the handshake, the five tools with
 * their JSON Schemas and localized descriptions, remember → recall → maintenance → context, the resources,
 * and a journaled forget. Vectors are on (the default embedding model), as a real install runs.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { toolDescription } from "../../src/recall/RecallLabels.js"
import { mcpSuite, textOf } from "../support/mcp.js"
import { makeTempRoot, vectorEnv } from "../support/server.js"

const toolNames = ["remember", "recall_memory", "get_context", "list_characters", "forget"]

describe("kioku mcp over stdio", () => {
  const temp = makeTempRoot()
  afterAll(() => temp.cleanup())
  const { stdio } = mcpSuite()

  it("initializes and lists the tools with JSON Schemas; character is required without --character", async () => {
    const { client, errors } = await stdio(path.join(temp.root, "schemas"))
    assert.strictEqual(client.getServerVersion()?.name, "kioku")
    assert.isDefined(client.getServerCapabilities()?.tools)
    assert.isDefined(client.getServerCapabilities()?.resources)
    const { tools } = await client.listTools()
    assert.deepStrictEqual(
      tools.map((t) => t.name),
      toolNames
    )
    const byName = new Map(tools.map((t) => [t.name, t]))
    for (const t of tools) {
      assert.strictEqual(t.inputSchema.type, "object")
      assert.isAbove(t.description?.length ?? 0, 10)
    }
    const recall = byName.get("recall_memory")
    assert.strictEqual(recall?.description, toolDescription.en)
    assert.includeMembers(Object.keys(recall?.inputSchema.properties ?? {}), ["character", "query", "time", "subjects"])
    assert.deepStrictEqual(recall?.inputSchema.required, ["character"])
    const remember = byName.get("remember")?.inputSchema
    assert.includeMembers(Object.keys(remember?.properties ?? {}), ["statement", "messages", "extract_now"])
    assert.deepStrictEqual(byName.get("forget")?.inputSchema.required, ["kind", "id", "character"])
    assert.deepStrictEqual(byName.get("list_characters")?.inputSchema.required, [])
    const refused = await client.callTool({ name: "recall_memory", arguments: { query: "anything" } })
    assert.strictEqual(refused.isError, true)
    assert.strictEqual(textOf(refused), "character is required")
    const bad = await client.callTool({ name: "forget", arguments: { character: "Tian", kind: "reflection", id: "x" } })
    assert.strictEqual(bad.isError, true)
    assert.include(textOf(bad), "invalid arguments")
    assert.deepStrictEqual(errors, [])
  })

  it("describes its tools in Japanese with --language ja, and makes --character the default", async () => {
    const { client } = await stdio(path.join(temp.root, "ja"), ["--language", "ja", "--character", "Tian"])
    const { tools } = await client.listTools()
    const recall = tools.find((t) => t.name === "recall_memory")
    assert.strictEqual(recall?.description, toolDescription.ja)
    assert.deepStrictEqual(recall?.inputSchema.required, [])
    assert.include(JSON.stringify(recall?.inputSchema.properties?.["character"]), "Tian")
  })

  it("remembers, recalls, extracts in maintenance, gives the context, lists and reads resources, forgets", async () => {
    const memory = path.join(temp.root, "flow")
    const { client, errors, stderr } = await stdio(memory, ["--character", "Tian"], await vectorEnv())
    const statement = "My hamster Biscuit hoards sunflower seeds in his cheeks."
    const stored = await client.callTool({ name: "remember", arguments: { statement } })
    assert.strictEqual(stored.isError, false)
    assert.include(textOf(stored), "background maintenance")
    // Before extraction the raw turn is found by the turn tier.
    const early = textOf(await client.callTool({ name: "recall_memory", arguments: { query: "sunflower seeds" } }))
    assert.include(early, "Biscuit hoards sunflower seeds")
    const ran = await client.callTool({
      name: "remember",
      arguments: { messages: [{ role: "user", content: "I work as a nurse in Kobe." }], extract_now: true }
    })
    assert.match(textOf(ran), /Remembered 1 message\(s\) for Tian; [1-9]\d* fact\(s\) extracted\./)
    const recalled = textOf(await client.callTool({ name: "recall_memory", arguments: { query: "sunflower seeds" } }))
    assert.match(recalled, /^Found \d+ relevant memories:\n1\. \[fact\/about the user\] .*sunflower seeds/)
    const context = textOf(await client.callTool({ name: "get_context", arguments: {} }))
    assert.include(context, "======Tian's Inner Thoughts======")
    assert.include(context, statement)
    assert.strictEqual(
      textOf(await client.callTool({ name: "list_characters", arguments: {} })),
      JSON.stringify({ characters: ["Tian"] })
    )
    const { resources } = await client.listResources()
    assert.deepStrictEqual(
      resources.map((r) => [r.uri, r.mimeType]),
      [
        ["kioku://Tian/persona", "application/json"],
        ["kioku://Tian/facts", "application/json"]
      ]
    )
    const { resourceTemplates } = await client.listResourceTemplates()
    assert.deepStrictEqual(
      resourceTemplates.map((t) => t.uriTemplate),
      ["kioku://{character}/persona", "kioku://{character}/facts"]
    )
    const readFacts = async () => {
      const { contents } = await client.readResource({ uri: "kioku://Tian/facts" })
      const text = contents[0] !== undefined && "text" in contents[0] ? contents[0].text : ""
      return (JSON.parse(text) as { facts: Array<{ id: string; text: string }> }).facts
    }
    const hamster = (await readFacts()).find((f) => f.text.includes("sunflower seeds"))
    assert.isDefined(hamster)
    const persona = await client.readResource({ uri: "kioku://Tian/persona" })
    assert.strictEqual(persona.contents[0]?.mimeType, "application/json")
    const forgot = await client.callTool({ name: "forget", arguments: { kind: "fact", id: hamster?.id ?? "" } })
    assert.strictEqual(textOf(forgot), `Forgot fact ${hamster?.id} of Tian (forgotten).`)
    assert.isUndefined((await readFacts()).find((f) => f.id === hamster?.id))
    const journal = readFileSync(path.join(memory, "Tian", "events.ndjson"), "utf8")
    assert.include(journal, `"type":"fact.forgotten"`)
    const after = textOf(await client.callTool({ name: "recall_memory", arguments: { query: "sunflower seeds" } }))
    assert.notMatch(after, /\[fact\/[^\]]*\] [^\n]*sunflower/)
    const again = await client.callTool({ name: "forget", arguments: { kind: "fact", id: hamster?.id ?? "" } })
    assert.strictEqual(textOf(again), `Forgot fact ${hamster?.id} of Tian (forgotten).`, "idempotent")
    assert.notInclude(readFileSync(path.join(memory, "Tian", "events.ndjson"), "utf8"), hamster?.text ?? "?")
    const unknown = await client.readResource({ uri: "kioku://Tian/diary" }).then(
      () => "answered",
      (e: unknown) => (e instanceof Error ? e.message : String(e))
    )
    assert.include(unknown, "unknown resource kioku://Tian/diary")
    assert.deepStrictEqual(errors, [], "stdout carried only protocol messages")
    assert.include(stderr(), "kioku mcp ready on stdio")
  })
})
