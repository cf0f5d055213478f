/**
 * The HTTP server: the router behind the guards, 404 for unknown routes, 500 without details for defects,
 * listening on Node's http server. Startup recovery starts once the socket listens (so limited mode is
 * visible to clients) unless the server starts blocked.
 */
import { HttpRouter, HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { createServer } from "node:http"
import * as Startup from "../Startup.js"
import { guard } from "./Guard.js"
import { detail } from "./Responses.js"
import { router } from "./Routes.js"
import { adminRouter } from "./AdminRoutes.js"
import { recallRouter } from "./RecallRoutes.js"
import { entryRouter } from "./EntryRoutes.js"
import { memoryApiRouter } from "./MemoryApiRoutes.js"
import { statechartRouter } from "./StatechartRoutes.js"
import { browserRouter } from "./BrowserRoutes.js"
import { assetRouter } from "./AssetRoutes.js"

export interface ServeOptions {
  readonly port: number
  readonly host: string
  readonly authToken: string | undefined
  readonly maxBodyBytes: number
  readonly startBlocked: boolean
}

const characterRoutes =
  /^\/(cache|process|renew|settle|new_dialog|get_recent_history|last_conversation_gap|cancel_correction|reflect|followup_topics|record_surfaced|query_memory)\/[^?]*\//

export const httpApp = (options: Pick<ServeOptions, "authToken" | "maxBodyBytes">) =>
  HttpRouter.concatAll(
    router,
    adminRouter,
    recallRouter,
    statechartRouter,
    entryRouter,
    browserRouter,
    memoryApiRouter,
    assetRouter
  ).pipe(
    Effect.catchTag("RouteNotFound", (e) =>
      Effect.succeed(
        characterRoutes.test(e.request.url)
          ? detail(400, "Invalid characters in lanlan_name")
          : detail(404, "Not Found")
      )
    ),
    guard(options),
    Effect.catchAllCause((cause) =>
      Effect.logError("request failed", cause).pipe(Effect.as(detail(500, "Internal Server Error")))
    )
  )

export const serverLayer = (options: ServeOptions) =>
  Layer.mergeAll(
    HttpServer.serve(httpApp(options)),
    Layer.scopedDiscard(options.startBlocked ? Effect.void : Effect.forkScoped(Startup.recover)),
    Layer.effectDiscard(
      HttpServer.addressWith((address) =>
        Effect.logInfo("kioku listening").pipe(
          Effect.annotateLogs({
            port: address._tag === "TcpAddress" ? address.port : 0,
            startBlocked: options.startBlocked
          })
        )
      )
    )
  ).pipe(Layer.provideMerge(NodeHttpServer.layer(createServer, { port: options.port, host: options.host })))
