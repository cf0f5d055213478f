/**
 * The server backend of `kioku mcp` (and of `kioku/ai`'s tools): every operation is one call of the typed
 * client (api/Client.ts) to the kioku server's routes (`/cache`, `/internal/maintenance/run_once`,
 * `/query_memory?format=markdown`, `/new_dialog`, `/api/memory/statecharts/characters`,
 * `/api/memory/entry_action`, `/get_persona`, `/api/memory/browser`, `/prompt-locale`), with the bearer token
 * when one is configured. A refusal (an error status, or N.E.K.O.'s HTTP 200 `status:"error"`) becomes an
 * `McpBackendError` naming the server's reason.
 */
import { FetchHttpClient, HttpClient } from "@effect/platform"
import { Effect, Layer, Option, Schema } from "effect"
import { createClient, type KiokuClient, type Reply } from "../api/Client.js"
import { McpBackend, McpBackendError, type Backend, type ForgetOutcome } from "./Backend.js"

export interface RemoteOptions {
  /** The server's base url, e.g. `http://127.0.0.1:48912`. */
  readonly url: string
  readonly authToken: string | undefined
}

/** One client call: its value, or the server's reason as an `McpBackendError`. */
const ask = <A>(call: () => Promise<Reply<A>>) =>
  Effect.flatMap(
    Effect.promise(call),
    (reply): Effect.Effect<A, McpBackendError> =>
      reply.ok ? Effect.succeed(reply.value) : Effect.fail(new McpBackendError({ message: reply.error.message }))
  )

/** The backend over a client of the kioku server at `url` (`url` only names it in `mode`). */
export const fromClient = (client: KiokuClient, url: string): Backend => ({
  mode: { _tag: "server", url },
  remember: (name, turns, language) =>
    ask(() =>
      client.cache({
        name: name.trim(),
        body: { input_history: JSON.stringify(turns), ...(language === undefined ? {} : { language }) }
      })
    ).pipe(Effect.map((b) => b.count)),
  maintainNow: (name) =>
    ask(() => client.maintenanceRunOnce({ body: { character: name } })).pipe(
      Effect.map((b) => b.ran.reduce((n, r) => n + r.factsAdded, 0))
    ),
  recallText: (name, input) =>
    ask(() => client.queryMemory({ name: name.trim(), query: { format: "markdown" }, body: input })).pipe(
      Effect.flatMap((answer) =>
        typeof answer === "string"
          ? Effect.succeed(answer)
          : Effect.fail(new McpBackendError({ message: "the kioku server answered JSON instead of the tool text" }))
      )
    ),
  context: (name, language) => ask(() => client.newDialog({ name: name.trim(), query: { language } })),
  characters: ask(() => client.statechartCharacters()).pipe(Effect.map((b) => b.characters)),
  forget: (name, kind, id) =>
    Effect.flatMap(
      Effect.promise(() => client.entryAction({ body: { lanlan_name: name, kind, id, action: "forget" } })),
      (reply): Effect.Effect<ForgetOutcome, McpBackendError> => {
        if (reply.ok) return Effect.succeed({ _tag: "Forgotten", status: reply.value.status })
        const { status, fields, message } = reply.error
        if (status === 404) return Effect.succeed({ _tag: "NotFound" })
        if (status === 409 && fields.error === "not_allowed" && fields.status !== undefined)
          return Effect.succeed({ _tag: "NotAllowed", status: fields.status })
        return Effect.fail(new McpBackendError({ message }))
      }
    ),
  persona: (name) => ask(() => client.getPersona({ name: name.trim() })),
  facts: (name) => ask(() => client.browserView({ name: name.trim() })).pipe(Effect.map((b) => b.facts)),
  promptLanguage: (name) =>
    ask(() => client.getPromptLocale({ name: name.trim() })).pipe(Effect.map((b) => Option.fromNullable(b.language)))
})

export const make = (options: RemoteOptions) =>
  Effect.sync(() => {
    const base = options.url.replace(/\/+$/, "")
    return fromClient(
      createClient({ baseUrl: base, ...(options.authToken === undefined ? {} : { token: options.authToken }) }),
      base
    )
  })

export const layer = (options: RemoteOptions) => Layer.effect(McpBackend, make(options))

/** Whether `url` answers `/health` as a kioku memory server (`service: "memory"`, a `kioku_version`). */
export const isKioku = (url: string, authToken: string | undefined) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const res = yield* client.get(`${url.replace(/\/+$/, "")}/health`, {
      headers: authToken === undefined ? {} : { authorization: `Bearer ${authToken}` }
    })
    const body = yield* Schema.decodeUnknown(
      Schema.parseJson(Schema.Struct({ service: Schema.Literal("memory"), kioku_version: Schema.String }))
    )(yield* res.text)
    return body.kioku_version !== ""
  }).pipe(
    Effect.scoped,
    Effect.orElseSucceed(() => false),
    Effect.provide(FetchHttpClient.layer)
  )
