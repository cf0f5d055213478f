/**
 * The HTTP server: the router behind the guards, 404 for unknown routes, 500 without details for defects,
 * listening on Node's http server (refused requests answered without resetting the connection), without a
 * tracing span per request. Plain write requests are answered before the router (Routes.ts `directWrites`).
 * Startup recovery starts once the socket listens (so limited mode is visible to clients) unless the server
 * starts blocked. The listening url is announced in the memory root (store/ServerAddress.ts) so that `kioku mcp`
 * on the same root can reach this server.
 */
import {
  HttpMiddleware,
  HttpRouter,
  HttpServer,
  type HttpServerRequest,
  type HttpServerResponse
} from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { api, routeNames, type RouteName } from "../api/Api.js"
import { routerPath } from "../api/Route.js"
import { EventEmitter } from "node:events"
import { IncomingMessage, Server, ServerResponse } from "node:http"
import type { Duplex } from "node:stream"
import * as Startup from "../Startup.js"
import { KiokuConfig } from "../Config.js"
import * as ServerAddress from "../store/ServerAddress.js"
import { guard } from "./Guard.js"
import { Sessions } from "./Sessions.js"
import { detail, orInternalError } from "./Responses.js"
import { coreHandlers, directWrites } from "./Routes.js"
import type { MemoryService } from "../MemoryService.js"
import type { RuntimeStatus } from "../RuntimeStatus.js"
import { adminHandlers } from "./AdminRoutes.js"
import { recallHandlers } from "./RecallRoutes.js"
import { localeHandlers } from "./LocaleRoutes.js"
import { importHandlers } from "./ImportRoutes.js"
import { lifecycleHandlers } from "./LifecycleRoutes.js"
import { homeHandlers } from "./HomeRoutes.js"
import { entryHandlers } from "./EntryRoutes.js"
import { memoryApiHandlers } from "./MemoryApiRoutes.js"
import { statechartHandlers } from "./StatechartRoutes.js"
import { browserHandlers } from "./BrowserRoutes.js"
import { assetHandlers } from "./AssetRoutes.js"
import { scopedHandlers } from "./ScopedRoutes.js"
import { trustHandlers } from "./trust/TrustRoutes.js"

export interface ServeOptions {
  readonly port: number
  readonly host: string
  readonly authToken: string | undefined
  readonly maxBodyBytes: number
  readonly startBlocked: boolean
  /** How long a browser session (sign-in with the auth token) lasts. */
  readonly sessionTtlSeconds: number
}

const characterRoutes =
  /^\/(cache|process|renew|settle|new_dialog|get_recent_history|last_conversation_gap|cancel_correction|reflect|followup_topics|record_surfaced|query_memory|prompt-locale|search_for_memory|release_character)\/[^?]*\//

type Handler = Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, unknown>

type Mounted<H extends Readonly<Record<RouteName, Handler>>> = HttpRouter.HttpRouter<
  Effect.Effect.Error<H[RouteName]>,
  Exclude<
    Effect.Effect.Context<H[RouteName]>,
    HttpRouter.RouteContext | HttpServerRequest.HttpServerRequest | HttpServerRequest.ParsedSearchParams
  >
>

/** The router: one handler per entry of the route table (api/Api.ts), mounted at the entry's method and path. */
export const mount = <H extends Readonly<Record<RouteName, Handler>>>(handlers: H): Mounted<H> => {
  let router: HttpRouter.HttpRouter<unknown, unknown> = HttpRouter.empty
  for (const name of routeNames)
    router = HttpRouter.route(api[name].method)(routerPath(api[name].path), handlers[name])(router)
  return router as Mounted<H>
}

export const apiRouter = mount({
  ...coreHandlers,
  ...adminHandlers,
  ...recallHandlers,
  ...localeHandlers,
  ...importHandlers,
  ...scopedHandlers,
  ...trustHandlers,
  ...lifecycleHandlers,
  ...homeHandlers,
  ...statechartHandlers,
  ...entryHandlers,
  ...browserHandlers,
  ...memoryApiHandlers,
  ...assetHandlers
})

export const httpApp = (options: Pick<ServeOptions, "authToken" | "maxBodyBytes">) =>
  apiRouter.pipe(
    Effect.catchTag("RouteNotFound", (e) =>
      Effect.succeed(
        characterRoutes.test(e.request.url)
          ? detail(400, "Invalid characters in lanlan_name")
          : detail(404, "Not Found")
      )
    ),
    guard(options),
    orInternalError
  )

const refusals: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: "431 Request Header Fields Too Large",
  HPE_REQUEST_TIMEOUT: "408 Request Timeout"
}

/** Node's http server with a hook that may answer a request before the router sees it (`directWrites`). */
class DirectServer extends Server {
  direct: (request: IncomingMessage, response: ServerResponse) => boolean = () => false
  override emit(event: string | symbol, ...args: Array<unknown>): boolean {
    if (event === "request") {
      const [request, response] = args
      if (request instanceof IncomingMessage && response instanceof ServerResponse && this.direct(request, response))
        return true
    }
    return typeof event === "string"
      ? super.emit(event, ...args)
      : EventEmitter.prototype.emit.call(this, event, ...args)
  }
}

/**
 * Node answers a request its parser refuses (headers over 16 KiB, bytes HTTP does not allow) and destroys the
 * socket at once, so a client still sending sees a reset instead of the answer. Here the answer is sent, the
 * rest of the request is read and dropped, and the socket closes once the client is done (at most 2 s later).
 */
const createGentleServer = () => {
  const server = new DirectServer()
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable || socket.writableEnded) return
    const status = refusals[error.code ?? ""] ?? "400 Bad Request"
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
    socket.resume()
    setTimeout(() => socket.destroy(), 2000).unref()
  })
  return server
}

/** The write routes' direct path (Routes.ts `directWrites`) on `server` while the layer lives. */
const directLayer = (server: DirectServer, options: ServeOptions) =>
  Layer.scopedDiscard(
    Effect.gen(function* () {
      server.direct = directWrites(yield* Effect.runtime<MemoryService | RuntimeStatus>(), options)
      yield* Effect.addFinalizer(() => Effect.sync(() => (server.direct = () => false)))
    })
  )

export const serverLayer = (options: ServeOptions) =>
  Layer.suspend(() => {
    const server = createGentleServer()
    return Layer.mergeAll(
      directLayer(server, options),
      // No tracing span per request: kioku exports no traces, and building one (URL, headers) is a measurable
      // part of a `/cache` turn's CPU.
      HttpServer.serve(httpApp(options)).pipe(
        HttpMiddleware.withTracerDisabledWhen(() => true),
        Layer.provide(Sessions.layer(options.sessionTtlSeconds))
      ),
      Layer.scopedDiscard(options.startBlocked ? Effect.void : Effect.forkScoped(Startup.recover)),
      Layer.scopedDiscard(
        HttpServer.addressWith((address) =>
          Effect.gen(function* () {
            const port = address._tag === "TcpAddress" ? address.port : 0
            const host = options.host.includes(":") ? `[${options.host}]` : options.host
            const url = `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}/`
            yield* Effect.logInfo("kioku listening").pipe(
              Effect.annotateLogs({ port, startBlocked: options.startBlocked, url })
            )
            yield* Effect.logInfo(`open ${url} (memory browser: ${url}memory_browser, state charts: ${url}statecharts)`)
            yield* ServerAddress.announce((yield* KiokuConfig).dataDir, url)
          })
        )
      )
    ).pipe(Layer.provideMerge(NodeHttpServer.layer(() => server, { port: options.port, host: options.host })))
  })
