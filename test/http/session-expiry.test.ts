import { HttpRouter, HttpServer, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { createServer } from "node:http"
import { guard } from "../../src/http/Guard.js"
import { MAX_SESSIONS, secretsMatch, Sessions } from "../../src/http/Sessions.js"
import { RuntimeStatus } from "../../src/RuntimeStatus.js"

const TOKEN = "expiry-token"
const TTL_SECONDS = 3600

/** The guard in front of one route, on real loopback HTTP in this process, so TestClock drives session time. */
const serve = Effect.gen(function* () {
  const app = guard({ authToken: TOKEN, maxBodyBytes: 1 << 20 })(
    HttpRouter.empty.pipe(HttpRouter.get("/api/ping", HttpServerResponse.text("pong")))
  )
  const context = yield* Layer.build(
    HttpServer.serve(app).pipe(
      Layer.provide(Sessions.layer(TTL_SECONDS)),
      Layer.provide(RuntimeStatus.layer({ _tag: "ready" })),
      Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
    )
  )
  const server = yield* Effect.provide(HttpServer.HttpServer, context)
  const address = server.address
  return address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : ""
})

const signIn = (url: string) =>
  Effect.promise(async () => {
    const res = await fetch(`${url}/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: TOKEN })
    })
    return (res.headers.getSetCookie()[0] ?? "").split(";")[0] ?? ""
  })

const ping = (url: string, cookie: string) =>
  Effect.promise(() => fetch(`${url}/api/ping`, { headers: { cookie } }).then((res) => res.status))

describe("browser sessions", () => {
  it.scoped("a session admits requests until its TTL has passed, then answers 401 (TestClock)", () =>
    Effect.gen(function* () {
      const url = yield* serve
      const cookie = yield* signIn(url)
      assert.match(cookie, /^kioku_session_\d+=/)
      assert.strictEqual(yield* ping(url, cookie), 200)
      yield* TestClock.adjust(`${TTL_SECONDS - 1} seconds`)
      assert.strictEqual(yield* ping(url, cookie), 200)
      const later = yield* signIn(url)
      yield* TestClock.adjust("1 second")
      assert.strictEqual(yield* ping(url, cookie), 401)
      assert.strictEqual(yield* ping(url, later), 200)
      yield* TestClock.adjust(`${TTL_SECONDS} seconds`)
      assert.strictEqual(yield* ping(url, later), 401)
    })
  )

  it.effect("keeps at most MAX_SESSIONS; a new one beyond replaces the one that expires first", () =>
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const first = yield* sessions.create
      yield* TestClock.adjust("1 second")
      const rest = yield* Effect.all(Array.from({ length: MAX_SESSIONS }, () => sessions.create))
      assert.isFalse(yield* sessions.valid(first))
      assert.isTrue((yield* Effect.all(rest.map(sessions.valid))).every((v) => v))
      yield* sessions.revoke(rest[0] ?? "")
      assert.isFalse(yield* sessions.valid(rest[0] ?? ""))
    }).pipe(Effect.provide(Sessions.layer(TTL_SECONDS)))
  )

  it("compares secrets whole: equal, differing in the last byte, a prefix, longer", () => {
    assert.isTrue(secretsMatch("Bearer abc", "Bearer abc"))
    assert.isFalse(secretsMatch("Bearer abd", "Bearer abc"))
    assert.isFalse(secretsMatch("Bearer ab", "Bearer abc"))
    assert.isFalse(secretsMatch("Bearer abcd", "Bearer abc"))
    assert.isFalse(secretsMatch("", "Bearer abc"))
  })
})
