/**
 * `kioku mcp --http` (Streamable HTTP at /mcp), the real binary driven by the MCP SDK's client: the same
 * tools and flow as over stdio, and the guard `kioku serve` applies (a foreign Origin or Host is refused
 * before anything runs; with a token only the bearer gets in; a non-loopback host needs a token).
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { request } from "node:http"
import * as path from "node:path"
import { mcpSuite, textOf } from "../support/mcp.js"
import { makeTempRoot, vectorEnv } from "../support/server.js"

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "probe", version: "1" } }
})
const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" }

/** A POST of `initialize` with the Host header as given (fetch cannot set Host). */
const postWithHost = (url: URL, host: string) =>
  new Promise<number>((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: url.port, method: "POST", path: url.pathname, headers: { ...mcpHeaders, host } },
      (res) => {
        res.resume()
        res.on("end", () => resolve(res.statusCode ?? 0))
      }
    )
    req.on("error", reject)
    req.end(initialize)
  })

describe("kioku mcp over Streamable HTTP", () => {
  const temp = makeTempRoot()
  afterAll(() => temp.cleanup())
  const { spawnHttp, http, exitOf } = mcpSuite()

  it("initializes, lists the tools, remembers, recalls, extracts and gives the context", async () => {
    const { url, stderr } = await spawnHttp(path.join(temp.root, "flow"), [], await vectorEnv())
    const { client, errors } = await http(url)
    assert.strictEqual(client.getServerVersion()?.name, "kioku")
    const { tools } = await client.listTools()
    assert.deepStrictEqual(
      tools.map((t) => [t.name, t.inputSchema.type]),
      [
        ["remember", "object"],
        ["recall_memory", "object"],
        ["get_context", "object"],
        ["list_characters", "object"],
        ["forget", "object"]
      ]
    )
    const stored = await client.callTool({
      name: "remember",
      arguments: { character: "Yui", statement: "I run every morning before work.", extract_now: true }
    })
    assert.match(textOf(stored), /Remembered 1 message\(s\) for Yui; [1-9]\d* fact\(s\) extracted\./)
    const recalled = textOf(
      await client.callTool({ name: "recall_memory", arguments: { character: "Yui", query: "running every morning" } })
    )
    assert.match(recalled, /^Found \d+ relevant memories:\n1\. \[fact\/about the user\] .*every morning before work/)
    const context = textOf(await client.callTool({ name: "get_context", arguments: { character: "Yui" } }))
    assert.include(context, "I run every morning before work.")
    const { contents } = await client.readResource({ uri: "kioku://Yui/facts" })
    assert.include(contents[0] !== undefined && "text" in contents[0] ? contents[0].text : "", "every morning")
    assert.deepStrictEqual(errors, [])
    assert.include(stderr(), "kioku mcp runs the memory runtime on the root")
    const get = await fetch(url)
    assert.strictEqual(get.status, 405)
    const elsewhere = await fetch(new URL("/query_memory/Yui", url), { method: "POST", body: "{}" })
    assert.strictEqual(elsewhere.status, 404)
  })

  it("refuses a foreign Origin or Host before anything runs", async () => {
    const { url } = await spawnHttp(path.join(temp.root, "guard"))
    const origin = await fetch(url, {
      method: "POST",
      headers: { ...mcpHeaders, origin: "http://evil.example" },
      body: initialize
    })
    assert.strictEqual(origin.status, 403)
    assert.deepStrictEqual(await origin.json(), { detail: "Forbidden origin" })
    assert.strictEqual(await postWithHost(url, "evil.example"), 403)
    assert.strictEqual(await postWithHost(url, `localhost:${url.port}`), 200)
    const local = await fetch(url, {
      method: "POST",
      headers: { ...mcpHeaders, origin: `http://localhost:${url.port}` },
      body: initialize
    })
    assert.strictEqual(local.status, 200)
    assert.strictEqual(
      ((await local.json()) as { result: { serverInfo: { name: string } } }).result.serverInfo.name,
      "kioku"
    )
  })

  it("with --auth-token answers only the bearer, and a non-loopback host needs a token", async () => {
    const { url } = await spawnHttp(path.join(temp.root, "token"), ["--auth-token", "s3cret"])
    const anonymous = await fetch(url, { method: "POST", headers: mcpHeaders, body: initialize })
    assert.strictEqual(anonymous.status, 401)
    const { client } = await http(url, { authorization: "Bearer s3cret" })
    assert.strictEqual(
      textOf(await client.callTool({ name: "list_characters", arguments: {} })),
      JSON.stringify({ characters: [] })
    )
    const open = await exitOf(path.join(temp.root, "open"), ["--http", "0", "--host", "0.0.0.0"], {
      KIOKU_AUTH_TOKEN: ""
    })
    assert.strictEqual(open.code, 1)
    assert.include(open.stderr, "binding 0.0.0.0 needs --auth-token")
  })
})
