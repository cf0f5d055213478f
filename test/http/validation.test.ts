import { assert, describe, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { request } from "node:http"
import * as path from "node:path"
import { distBin, get, history, post, serverSuite, turn, type RunningServer } from "../support/server.js"

const rawRequest = (
  port: number,
  options: { method: string; path: string; headers?: Record<string, string>; body?: Buffer }
) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    let answered = false
    const req = request(
      { host: "127.0.0.1", port, method: options.method, path: options.path, headers: options.headers },
      (res) => {
        answered = true
        let text = ""
        res.on("data", (c: Buffer) => (text += c.toString()))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }))
        res.on("error", () => resolve({ status: res.statusCode ?? 0, text }))
      }
    )
    req.on("error", (e) => (answered ? undefined : reject(e)))
    if (options.body) req.write(options.body)
    req.end()
  })

describe("hostile and malformed requests", () => {
  let server: RunningServer | undefined
  const { temp, start } = serverSuite()

  it("rejects bad character names with 400 and creates nothing", async () => {
    server = await start(temp.memory)
    const cases: Array<[string, string]> = [
      ["%2E%2E", "Invalid characters in lanlan_name"],
      ["..", "Invalid characters in lanlan_name"],
      ["a%2Fb", "Invalid characters in lanlan_name"],
      ["a/b", "Invalid characters in lanlan_name"],
      ["a%5Cb", "Invalid characters in lanlan_name"],
      ["CON", "Invalid characters in lanlan_name"],
      ["nul.txt", "Invalid characters in lanlan_name"],
      ["trailing.", "Invalid characters in lanlan_name"],
      ["x".repeat(51), "Invalid lanlan_name length"],
      ["%20%20", "Invalid lanlan_name length"]
    ]
    for (const [name, message] of cases) {
      for (const route of ["cache", "process", "renew", "settle"]) {
        const r = await rawRequest(server.port, {
          method: "POST",
          path: `/${route}/${name}`,
          headers: { "content-type": "application/json" },
          body: Buffer.from(history(turn("a", "b")))
        })
        assert.strictEqual(r.status, 400, `${route}/${name}`)
        assert.deepStrictEqual(JSON.parse(r.text), { detail: message })
      }
      const d = await rawRequest(server.port, { method: "GET", path: `/new_dialog/${name}` })
      assert.strictEqual(d.status, 400)
    }
    const created = existsSync(temp.memory) ? readdirSync(temp.memory).filter((f) => !f.startsWith(".kioku")) : []
    assert.deepStrictEqual(created, [])
    const ok = await post(`${server.url}/cache/${encodeURIComponent("小天 Tian")}`, history(turn("hi", "yo")))
    assert.strictEqual(JSON.parse(ok.text).status, "cached")
    assert.isTrue(existsSync(path.join(temp.memory, "小天 Tian", "recent.json")))
  })

  it("answers 422 for malformed bodies and writes nothing", async () => {
    server = await start(temp.memory)
    const bodies = [
      "not json at all",
      "{}",
      JSON.stringify({ input_history: [] }),
      JSON.stringify({ input_history: "not json" }),
      JSON.stringify({ input_history: '{"role":"user"}' }),
      JSON.stringify({ input_history: "[]", language: 5 })
    ]
    for (const body of bodies) {
      const r = await post(`${server.url}/cache/Malformed`, body)
      assert.strictEqual(r.status, 422, body)
      assert.isArray(JSON.parse(r.text).detail)
    }
    assert.isFalse(existsSync(path.join(temp.memory, "Malformed")))
  })

  it("answers 413 above 16 MiB, announced or streamed", async () => {
    server = await start(temp.memory)
    const big = Buffer.alloc(16 * 1024 * 1024 + 10, "a")
    const announced = await rawRequest(server.port, {
      method: "POST",
      path: "/cache/Big",
      headers: { "content-type": "application/json", "content-length": String(big.length) },
      body: big
    })
    assert.strictEqual(announced.status, 413)
    const streamed = await rawRequest(server.port, {
      method: "POST",
      path: "/cache/Big",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      body: big
    })
    assert.strictEqual(streamed.status, 413)
    assert.isFalse(existsSync(path.join(temp.memory, "Big")))
  })

  it("answers 422 for a body not sent as JSON, nested too deep, or a junk maintenance body, and writes nothing", async () => {
    server = await start(temp.memory)
    const valid = history(turn("typed", "wrong"))
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      for (const route of ["cache/Typed", "process/Typed", "query_memory/Typed"]) {
        const r = await post(`${server.url}/${route}`, route.startsWith("query") ? '{"query":"x"}' : valid, {
          "content-type": type
        })
        assert.strictEqual(r.status, 422, `${route} as ${type}`)
      }
    }
    assert.strictEqual(
      (await post(`${server.url}/cache/Typed`, valid, { "content-type": "application/vnd.x+json" })).status,
      200
    )
    const deep = JSON.stringify({ input_history: "[".repeat(100_000) + "]".repeat(100_000) })
    const nested = await post(`${server.url}/cache/Deep`, deep)
    assert.strictEqual(nested.status, 422)
    assert.include(nested.text, "nests deeper")
    assert.strictEqual((await post(`${server.url}/internal/maintenance/run_once`, "not json")).status, 422)
    assert.isFalse(existsSync(path.join(temp.memory, "Deep")))
    assert.deepStrictEqual(readFileSync(path.join(temp.memory, "Typed", "recent.json"), "utf8").match(/typed/g), [
      "typed"
    ])
  })

  it("answers an over-long header with 431 instead of resetting the connection", async () => {
    server = await start(temp.memory)
    const r = await rawRequest(server.port, {
      method: "GET",
      path: "/health",
      headers: { "x-long": "v".repeat(200_000) }
    })
    assert.strictEqual(r.status, 431)
    assert.strictEqual((await get(`${server.url}/health`)).status, 200)
  })

  it("refuses foreign Host and Origin headers", async () => {
    server = await start(temp.memory)
    const evilHost = await rawRequest(server.port, {
      method: "GET",
      path: "/health",
      headers: { host: "evil.example:80" }
    })
    assert.strictEqual(evilHost.status, 403)
    const evilOrigin = await rawRequest(server.port, {
      method: "POST",
      path: "/cache/Origin",
      headers: { origin: "http://evil.example", "content-type": "application/json" },
      body: Buffer.from(history(turn("a", "b")))
    })
    assert.strictEqual(evilOrigin.status, 403)
    const local = await rawRequest(server.port, {
      method: "GET",
      path: "/health",
      headers: { host: `localhost:${server.port}`, origin: `http://localhost:${server.port}` }
    })
    assert.strictEqual(local.status, 200)
    assert.isFalse(existsSync(path.join(temp.memory, "Origin")))
  })

  it("needs an auth token to bind beyond loopback, and then checks it", async () => {
    const refused = spawnSync(process.execPath, [distBin, "serve", "--host", "0.0.0.0", "--data-dir", temp.memory], {
      encoding: "utf8",
      timeout: 20_000
    })
    assert.notStrictEqual(refused.status, 0)
    assert.match(refused.stderr, /needs --auth-token/)
    server = await start(temp.memory, ["--host", "127.0.0.1", "--auth-token", "s3cret"])
    assert.strictEqual((await get(`${server.url}/health`)).status, 401)
    const authed = await fetch(`${server.url}/health`, { headers: { authorization: "Bearer s3cret" } })
    assert.strictEqual(authed.status, 200)
  })

  it("keeps serving on a corrupt recent.json, never overwrites it, and lands the turns once it is repaired", async () => {
    server = await start(temp.memory)
    await post(`${server.url}/cache/Corrupt`, history(turn("kept-u", "kept-a")))
    const file = path.join(temp.memory, "Corrupt", "recent.json")
    const corrupt = '[{"type": "human", "data": {"content": "half'
    writeFileSync(file, corrupt)
    const during = await post(`${server.url}/cache/Corrupt`, history(turn("during-u", "during-a")))
    assert.deepStrictEqual(JSON.parse(during.text), { status: "cached", count: 2 })
    assert.strictEqual(readFileSync(file, "utf8"), corrupt)
    const dialog = await get(`${server.url}/new_dialog/Corrupt`)
    assert.strictEqual(dialog.status, 200)
    assert.include(dialog.text, "during-u")
    await server.stop()
    server = await start(temp.memory)
    assert.strictEqual(readFileSync(file, "utf8"), corrupt)
    writeFileSync(file, JSON.stringify([{ type: "human", data: { content: "repaired" } }]))
    await post(`${server.url}/cache/Corrupt`, history(turn("after-u", "after-a")))
    const items = (JSON.parse(readFileSync(file, "utf8")) as Array<{ data: { content: string } }>).map(
      (m) => m.data.content
    )
    assert.deepStrictEqual(items, ["repaired", "during-u", "during-a", "after-u", "after-a"])
  })
})
