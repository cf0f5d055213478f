/**
 * The two ways `kioku mcp` speaks MCP. Over stdio, one session reads stdin and writes only protocol
 * messages to stdout (logs go to stderr) until stdin ends. Over Streamable HTTP, `POST /mcp` runs statelessly:
 * every request gets a fresh session and transport (JSON answers, no SSE stream, so GET and DELETE answer
 * 405), behind the same guard as `kioku serve` (Host/Origin against DNS rebinding on loopback, the bearer
 * token when one is set, the body limit); any other path is a 404.
 */
import { HttpApp, HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import { guard } from "../http/Guard.js"
import { Sessions } from "../http/Sessions.js"
import { detail, json } from "../http/Responses.js"
import type { McpBackend } from "./Backend.js"
import { makeSession } from "./Protocol.js"
import type { ToolContext } from "./Tools.js"

export interface HttpOptions {
  readonly port: number
  readonly host: string
  readonly authToken: string | undefined
  readonly maxBodyBytes: number
}

/** Serves one session on stdin/stdout until stdin ends (or the client closes the session). */
export const serveStdio = (ctx: ToolContext) =>
  Effect.gen(function* () {
    const session = makeSession(yield* Effect.runtime<McpBackend>(), ctx)
    const transport = new StdioServerTransport()
    yield* Effect.acquireRelease(
      Effect.promise(() => session.connect(transport)),
      () => Effect.promise(() => session.close())
    )
    yield* Effect.logInfo("kioku mcp ready on stdio")
    yield* Effect.async<void>((resume) => {
      const done = () => resume(Effect.void)
      process.stdin.once("end", done)
      session.onclose = done
      return Effect.sync(() => process.stdin.off("end", done))
    })
    yield* Effect.logInfo("kioku mcp: stdin closed")
  }).pipe(Effect.scoped)

const notAllowed = json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null }, 405)

const mcpApp = (ctx: ToolContext) =>
  Effect.gen(function* () {
    const runtime = yield* Effect.runtime<McpBackend>()
    const handle = HttpApp.fromWebHandler(async (request) => {
      const session = makeSession(runtime, ctx)
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
      await session.connect(transport)
      try {
        return await transport.handleRequest(request)
      } finally {
        await session.close()
      }
    })
    return HttpRouter.empty.pipe(
      HttpRouter.all(
        "/mcp",
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (r) =>
          r.method === "POST" ? handle : Effect.succeed(notAllowed)
        )
      )
    )
  })

/** The Streamable HTTP endpoint at `http://HOST:PORT/mcp`; logs "kioku mcp listening" with the port. */
export const httpLayer = (options: HttpOptions, ctx: ToolContext) =>
  Layer.unwrapEffect(
    Effect.map(mcpApp(ctx), (router) =>
      HttpServer.serve(
        router.pipe(
          Effect.catchTag("RouteNotFound", () => Effect.succeed(detail(404, "Not Found"))),
          guard(options),
          Effect.catchAllCause((cause) =>
            Effect.logError("mcp request failed", cause).pipe(Effect.as(HttpServerResponse.empty({ status: 500 })))
          )
        )
        // The MCP endpoint has no sign-in: its session store stays empty, so only the bearer token admits.
      ).pipe(Layer.provide(Sessions.layer(0)))
    )
  ).pipe(
    Layer.merge(
      Layer.effectDiscard(
        HttpServer.addressWith((address) =>
          Effect.logInfo("kioku mcp listening").pipe(
            Effect.annotateLogs({
              port: address._tag === "TcpAddress" ? address.port : 0,
              url: `http://${options.host.includes(":") ? `[${options.host}]` : options.host}:${address._tag === "TcpAddress" ? address.port : 0}/mcp`
            })
          )
        )
      )
    ),
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: options.port, host: options.host }))
  )
