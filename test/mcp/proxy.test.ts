/**
 * `kioku mcp` on a memory root that a running `kioku serve` holds: instead of failing on the root lock it
 * finds the server's announced url (`.kioku.lock.server`) and talks to it, so both see one memory. A holder
 * that serves no HTTP (another `kioku mcp` on stdio) is refused with the lock's message.
 */
import { assert, describe, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { mcpSuite, textOf } from "../support/mcp.js"
import { get, post, serverSuite } from "../support/server.js"

describe("kioku mcp through the kioku server that holds the root", () => {
  const { temp, startWithVectors } = serverSuite()
  const { stdio, exitOf } = mcpSuite()

  it("remembers through the server, which extracts in its maintenance; recall, context, resources and forget", async () => {
    const server = await startWithVectors(temp.memory)
    const announced = JSON.parse(readFileSync(path.join(temp.memory, ".kioku.lock.server"), "utf8"))
    assert.deepStrictEqual(announced, { pid: server.child.pid, url: `${server.url}/` })
    const { client, errors, stderr } = await stdio(temp.memory, ["--character", "Mio"])
    assert.include(stderr(), "memory root held by a kioku server; kioku mcp talks to it")
    const stored = await client.callTool({
      name: "remember",
      arguments: { statement: "My grandmother grows tomatoes in her garden in Nara." }
    })
    assert.include(textOf(stored), "Remembered 1 message(s) for Mio")
    // The turn is the server's: its own route sees it, and its maintenance extracts the fact.
    assert.include((await get(`${server.url}/new_dialog/Mio`)).text, "grows tomatoes")
    const ran = await post(`${server.url}/internal/maintenance/run_once`, JSON.stringify({ character: "Mio" }))
    assert.isAbove(JSON.parse(ran.text).ran[0].factsAdded, 0)
    const recalled = textOf(await client.callTool({ name: "recall_memory", arguments: { query: "tomatoes garden" } }))
    assert.match(recalled, /^Found \d+ relevant memories:\n1\. \[fact\/[^\]]+\] .*tomatoes/)
    const direct = await post(
      `${server.url}/query_memory/Mio?format=markdown`,
      JSON.stringify({ query: "tomatoes garden", language: "en" })
    )
    assert.strictEqual(recalled, direct.text, "the rendered text of /query_memory?format=markdown")
    const context = textOf(await client.callTool({ name: "get_context", arguments: {} }))
    assert.include(context, "My grandmother grows tomatoes in her garden in Nara.")
    const { contents } = await client.readResource({ uri: "kioku://Mio/facts" })
    const facts: Array<{ id: string; text: string }> = JSON.parse(
      contents[0] !== undefined && "text" in contents[0] ? contents[0].text : "{}"
    ).facts
    const tomato = facts.find((f) => f.text.includes("tomatoes"))
    assert.isDefined(tomato)
    const persona = await client.readResource({ uri: "kioku://Mio/persona" })
    assert.deepStrictEqual(
      JSON.parse(persona.contents[0] !== undefined && "text" in persona.contents[0] ? persona.contents[0].text : ""),
      JSON.parse((await get(`${server.url}/get_persona/Mio`)).text)
    )
    const forgot = await client.callTool({ name: "forget", arguments: { kind: "fact", id: tomato?.id ?? "" } })
    assert.strictEqual(textOf(forgot), `Forgot fact ${tomato?.id} of Mio (forgotten).`)
    const left = JSON.parse(readFileSync(path.join(temp.memory, "Mio", "facts.json"), "utf8"))
    assert.isUndefined(left.find((f: { id: string }) => f.id === tomato?.id))
    const unknown = await client.callTool({ name: "forget", arguments: { kind: "persona", id: "nope" } })
    assert.deepStrictEqual([unknown.isError, textOf(unknown)], [true, "Mio has no persona entry nope"])
    assert.deepStrictEqual(
      textOf(await client.callTool({ name: "list_characters", arguments: {} })),
      JSON.stringify({ characters: ["Mio"] })
    )
    assert.deepStrictEqual(errors, [])
    await server.stop()
    assert.isFalse(existsSync(path.join(temp.memory, ".kioku.lock.server")), "the announcement leaves with the server")
  })

  it("refuses a root held by a process that serves no HTTP", async () => {
    const root = path.join(temp.root, "held")
    const { client } = await stdio(root)
    assert.strictEqual(textOf(await client.callTool({ name: "list_characters", arguments: {} })), '{"characters":[]}')
    const second = await exitOf(root, [])
    assert.strictEqual(second.code, 1)
    assert.match(
      second.stderr,
      /another kioku process \(pid \d+\) is using the memory root .* serves no kioku HTTP api/
    )
  })
})
