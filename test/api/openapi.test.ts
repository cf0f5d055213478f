/**
 * The route table's three views agree: the OpenAPI document validates as OpenAPI 3.1 (with the 3.1 JSON Schema
 * of @seriousme/openapi-schema-validator), lists exactly the routes the server's router mounts and exactly
 * those of docs/routes.md's table (a route missing on either side fails), and is what a real server serves at
 * `/openapi.json`, rendered at `/docs` as a page with no script.
 */
import { assert, describe, it } from "@effect/vitest"
import { HttpRouter, HttpServerResponse } from "@effect/platform"
import { Validator } from "@seriousme/openapi-schema-validator"
import { Chunk, Effect, Schema } from "effect"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { openApiDocument } from "../../src/api/OpenApi.js"
import { apiRouter } from "../../src/http/Server.js"
import { VERSION } from "../../src/Version.js"
import { get, serverSuite } from "../support/server.js"

const Paths = Schema.Struct({
  paths: Schema.Record({ key: Schema.String, value: Schema.Record({ key: Schema.String, value: Schema.Unknown }) })
})

/** `METHOD /path/{param}` for every operation of a document. */
const documented = (document: unknown): ReadonlyArray<string> =>
  Object.entries(Schema.decodeUnknownSync(Paths)(document).paths)
    .flatMap(([p, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${p}`))
    .sort()

/** `METHOD /path/{param}` for every route a router mounts. */
const mounted = <E, R>(router: HttpRouter.HttpRouter<E, R>): ReadonlyArray<string> =>
  Chunk.toReadonlyArray(router.routes)
    .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z_]+)/g, "{$1}")}`)
    .sort()

/** `METHOD /path/{param}` for every row of docs/routes.md's table (`GET · PUT` rows count twice). */
const listed = (markdown: string): ReadonlyArray<string> =>
  [...markdown.matchAll(/^\| ([A-Z][A-Z ·]*) \| `([^`]+)`/gm)]
    .flatMap((m) => (m[1] ?? "").split("·").map((method) => `${method.trim()} ${(m[2] ?? "").split("?")[0]}`))
    .sort()

/** What is on one side only: `{ onlyLeft, onlyRight }`. */
const difference = (left: ReadonlyArray<string>, right: ReadonlyArray<string>) => ({
  onlyLeft: left.filter((x) => !right.includes(x)),
  onlyRight: right.filter((x) => !left.includes(x))
})

describe("the OpenAPI document", () => {
  const document = openApiDocument(VERSION)
  const { temp, start } = serverSuite()

  it("validates as OpenAPI 3.1", async () => {
    const validator = new Validator()
    const result = await validator.validate({ ...document })
    assert.deepStrictEqual(result.errors, undefined)
    assert.isTrue(result.valid)
    assert.strictEqual(validator.version, "3.1")
  })

  it("lists exactly the routes the server mounts, and exactly those of docs/routes.md", () => {
    const ops = documented(document)
    assert.isAtLeast(ops.length, 49)
    assert.deepStrictEqual(difference(mounted(apiRouter), ops), { onlyLeft: [], onlyRight: [] })
    const md = readFileSync(path.resolve(import.meta.dirname, "../../docs/routes.md"), "utf8")
    assert.deepStrictEqual(difference(listed(md), ops), { onlyLeft: [], onlyRight: [] })
  })

  it("notices a route mounted beside the table or missing from routes.md (the check itself)", () => {
    const extra = HttpRouter.get("/extra/:name", Effect.succeed(HttpServerResponse.empty()))(apiRouter)
    assert.deepStrictEqual(difference(mounted(extra), documented(document)), {
      onlyLeft: ["GET /extra/{name}"],
      onlyRight: []
    })
    assert.deepStrictEqual(listed("| GET · PUT | `/prompt-locale/{name}` | x |\n| POST | `/reload?x=` | y |\n"), [
      "GET /prompt-locale/{name}",
      "POST /reload",
      "PUT /prompt-locale/{name}"
    ])
  })

  it("is what the server serves at /openapi.json, and /docs renders it without a script", async () => {
    const server = await start(temp.memory)
    const served = await get(`${server.url}/openapi.json`)
    assert.strictEqual(served.status, 200)
    assert.deepStrictEqual(JSON.parse(served.text), JSON.parse(JSON.stringify(document)))
    const page = await get(`${server.url}/docs`)
    assert.strictEqual(page.status, 200)
    assert.match(page.type, /^text\/html/)
    assert.notInclude(page.text, "<script")
    assert.include(page.text, "<code>/query_memory/{name}</code>")
    assert.include(page.text, "{ status: &quot;cached&quot;; count: number }")
    assert.include(page.text, `${documented(document).length} operations`)
  })
})
