/**
 * How `kioku mcp` reaches the memory root. It first runs the embedded runtime on it (taking the root lock,
 * recovering every character as `kioku serve` does, maintenance loops included). When another process holds
 * the lock, it reads the address that process announced (store/ServerAddress.ts), checks that it answers
 * `/health` as a kioku server, and talks to it instead; a holder that serves no HTTP (another `kioku mcp`
 * on stdio, a host app using the library) is reported with the lock's own message. The layer also gives the
 * runtime status the HTTP guard reads (always ready for a remote server: it guards its own routes).
 */
import { Effect, Layer, Option, Schema } from "effect"
import { appLayer } from "../App.js"
import type { KiokuSettings } from "../Config.js"
import { RuntimeStatus } from "../RuntimeStatus.js"
import * as Startup from "../Startup.js"
import * as ServerAddress from "../store/ServerAddress.js"
import * as LocalBackend from "./LocalBackend.js"
import * as RemoteBackend from "./RemoteBackend.js"

export class McpAttachError extends Schema.TaggedError<McpAttachError>()("McpAttachError", {
  message: Schema.String
}) {}

export interface AttachOptions {
  readonly settings: KiokuSettings
  /** Sent to a kioku server that holds the root (its `--auth-token`). */
  readonly authToken: string | undefined
}

const remote = (options: AttachOptions, lockMessage: string) =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const address = yield* ServerAddress.announced(options.settings.dataDir)
      const url = Option.getOrUndefined(Option.map(address, (a) => a.url.replace(/\/+$/, "")))
      if (url === undefined || !(yield* RemoteBackend.isKioku(url, options.authToken)))
        return yield* new McpAttachError({
          message: `${lockMessage}, and it serves no kioku HTTP api to talk to (start \`kioku serve\` on the root and every \`kioku mcp\` uses it)`
        })
      yield* Effect.logInfo("memory root held by a kioku server; kioku mcp talks to it").pipe(
        Effect.annotateLogs({ url })
      )
      return RemoteBackend.layer({ url, authToken: options.authToken }).pipe(
        Layer.merge(RuntimeStatus.layer({ _tag: "ready" }))
      )
    })
  )

export const backendLayer = (options: AttachOptions) => {
  const runtime = appLayer({ settings: options.settings })
  const embedded = LocalBackend.layer.pipe(
    Layer.provideMerge(Layer.effectDiscard(Startup.recover).pipe(Layer.provideMerge(runtime))),
    Layer.tap(() => Effect.logInfo("kioku mcp runs the memory runtime on the root"))
  )
  return embedded.pipe(
    Layer.catchAll((e) =>
      e._tag === "RootLocked" ? remote(options, e.message) : Layer.fail(new McpAttachError({ message: e.message }))
    )
  )
}
