/**
 * The write routes' direct path (http/Routes.ts `directWrites`): on a loopback server of its own it takes the
 * plain write requests and answers each as the router of the real server does (same request sent chunked, which
 * the direct path leaves to the router), and leaves every other request to the router.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Ref, Runtime } from "effect"
import { createServer, request } from "node:http"
import type { AddressInfo } from "node:net"
import { appLayer } from "../../src/App.js"
import { directWrites } from "../../src/http/Routes.js"
import { Tokenizer } from "../../src/llm/Tokenizer.js"
import { MemoryService } from "../../src/MemoryService.js"
import { RuntimeStatus } from "../../src/RuntimeStatus.js"
import * as Startup from "../../src/Startup.js"
import { testSettings } from "../support/layers.js"
import { history, serverSuite, turn } from "../support/server.js"

interface Answer {
  readonly status: number
  readonly type: string
  readonly text: string
}

/** One request; `chunked` sends the body without a Content-Length. */
const send = (
  port: number,
  method: string,
  path: string,
  body: string,
  headers: Readonly<Record<string, string>> = {},
  chunked = false
) =>
  new Promise<Answer>((resolve, reject) => {
    const framing = chunked ? { "transfer-encoding": "chunked" } : { "content-length": String(Buffer.byteLength(body)) }
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        headers: { "content-type": "application/json", ...framing, ...headers }
      },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            type: res.headers["content-type"] ?? "",
            text: Buffer.concat(chunks).toString()
          })
        )
      }
    )
    req.on("error", reject)
    req.end(body)
  })

/** A loopback server answering only through `directWrites`; what it leaves answers 599. */
const directOnly = (runtime: Runtime.Runtime<MemoryService | RuntimeStatus>, authToken?: string) =>
  Effect.acquireRelease(
    Effect.async<ReturnType<typeof createServer>>((resume) => {
      const direct = directWrites(runtime, { authToken, maxBodyBytes: 1024 })
      const server = createServer((req, res) => {
        if (direct(req, res)) return
        req.resume()
        res.writeHead(599).end()
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
    }),
    (server) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
  ).pipe(Effect.map((server) => (server.address() as AddressInfo).port))

const deep = JSON.stringify({ input_history: JSON.stringify(JSON.parse("[".repeat(70) + "]".repeat(70))) })

describe("the write routes' direct path", () => {
  const { temp, start } = serverSuite()

  it.scopedLive("answers the plain write requests as the router does and leaves the others to it", () =>
    Effect.gen(function* () {
      const settings = testSettings({ max_body_bytes: 1024 })
      const ctx = yield* Layer.build(appLayer({ settings, tokenizer: Tokenizer.Heuristic, maintenance: false }))
      yield* Effect.provide(Startup.recover, ctx)
      const runtime = yield* Effect.provide(Effect.runtime<MemoryService | RuntimeStatus>(), ctx)
      const port = yield* directOnly(runtime)
      const router = yield* Effect.promise(() => start(temp.memory))
      const alike = async (path: string, body: string) => {
        const direct = await send(port, "POST", path, body)
        const routed = await send(router.port, "POST", path, body, {}, true)
        assert.notStrictEqual(direct.status, 599, `${path} ${body} was left to the router`)
        assert.deepStrictEqual(direct, routed, `${path} ${body}`)
        return direct
      }
      const valid = history(turn("I adopted a cat named Mochi.", "Mochi is a lovely name!"))
      yield* Effect.promise(async () => {
        assert.strictEqual((await alike("/cache/Tian", valid)).text, '{"status":"cached","count":2}')
        for (const kind of ["process", "renew", "settle"]) await alike(`/${kind}/Tian`, history([]))
        await alike("/cache/%E5%B0%8F%E5%85%AB?source=test", valid)
        for (const body of ['{"input_history":"x"}', "{}", "not json", deep, '{"input_history":"[]","language":"xx"}'])
          await alike("/cache/Tian", body)
        await alike("/cache/a%2Fb", valid)
        await alike("/cache/%20", valid)
      })
      const recent = yield* Effect.provide(
        Effect.flatMap(MemoryService, (m) => m.recentHistory("小八")),
        ctx
      )
      assert.include(recent, "Mochi")

      const left = async (method: string, path: string, body: string, headers = {}, chunked = false) =>
        assert.strictEqual((await send(port, method, path, body, headers, chunked)).status, 599, `${method} ${path}`)
      yield* Effect.promise(async () => {
        await left("GET", "/cache/Tian", "")
        await left("POST", "/new_dialog/Tian", valid)
        for (const path of ["/cache/Tian/x", "/cache/Tian/", "/cache/Tian;x", "/CACHE/Tian", "/cache/%ZZ"])
          await left("POST", path, valid)
        await left("POST", `/cache/${"n".repeat(101)}`, valid)
        await left("POST", "/cache/Tian", valid, {}, true)
        await left("POST", "/cache/Tian", valid, { "content-type": "text/plain" })
        await left("POST", "/cache/Tian", valid, { host: "evil.example" })
        await left("POST", "/cache/Tian", valid, { origin: "https://evil.example" })
        await left("POST", "/cache/Tian", JSON.stringify({ input_history: "x".repeat(2000) }))
      })

      const guarded = yield* directOnly(runtime, "s3cret")
      yield* Effect.promise(async () => {
        assert.strictEqual((await send(guarded, "POST", "/cache/Tian", valid)).status, 599)
        const allowed = await send(guarded, "POST", "/cache/Tian", valid, { authorization: "Bearer s3cret" })
        assert.strictEqual(allowed.text, '{"status":"cached","count":2}')
      })

      const status = yield* Effect.provide(RuntimeStatus, ctx)
      yield* Ref.set(status, { _tag: "reblocked", reason: "operator" })
      const blocked = yield* Effect.promise(() => send(port, "POST", "/cache/Blocked", valid))
      assert.strictEqual(blocked.status, 409)
      assert.include(blocked.text, '"blocking_reason":"storage_startup_blocked_after_init"')
      yield* Ref.set(status, { _tag: "ready" })
      const listed = yield* Effect.provide(
        Effect.flatMap(MemoryService, (m) => m.recentHistory("Blocked")),
        ctx
      )
      assert.notInclude(listed, "Mochi")
    })
  )
})
