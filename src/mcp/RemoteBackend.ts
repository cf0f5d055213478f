/**
 * The server backend of `kioku mcp`: when a kioku server holds the memory root, every operation is one
 * request to that server's routes (`/cache`, `/internal/maintenance/run_once`, `/query_memory?format=markdown`,
 * `/new_dialog`, `/api/memory/statecharts/characters`, `/api/memory/entry_action`, `/get_persona`,
 * `/api/memory/browser`, `/prompt-locale`), with the bearer token when one is configured. Answers are decoded
 * with Schema; a refusal (4xx, or N.E.K.O.'s HTTP 200 `status:"error"`) becomes an `McpBackendError` naming
 * the server's reason.
 */
import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, Layer, Option, Schema } from "effect"
import { BrowserView, Characters, EntryActed, ErrorBody } from "../browser/Wire.js"
import { McpBackend, McpBackendError, type Backend, type ForgetOutcome } from "./Backend.js"

export interface RemoteOptions {
  /** The server's base url, e.g. `http://127.0.0.1:48912`. */
  readonly url: string
  readonly authToken: string | undefined
}

const Cached = Schema.Struct({ status: Schema.Literal("cached"), count: Schema.Number })
const Ran = Schema.Struct({ ran: Schema.Array(Schema.Struct({ factsAdded: Schema.Number })) })
const Locale = Schema.Struct({ success: Schema.Literal(true), language: Schema.NullOr(Schema.String) })
const NotAllowed = Schema.Struct({ error: Schema.Literal("not_allowed"), status: Schema.String })

const decodeError = Schema.decodeUnknownOption(Schema.parseJson(ErrorBody))
const reasonOf = (status: number, text: string) =>
  Option.match(decodeError(text), {
    onNone: () => `the kioku server answered HTTP ${status}`,
    onSome: (b) =>
      typeof b.detail === "string" ? b.detail : (b.message ?? b.error ?? `the kioku server answered HTTP ${status}`)
  })

const path = (route: string, name: string) => `${route}/${encodeURIComponent(name.trim())}`

export const make = (options: RemoteOptions) =>
  Effect.gen(function* () {
    const base = options.url.replace(/\/+$/, "")
    const client = (yield* HttpClient.HttpClient).pipe(
      HttpClient.mapRequest((r) =>
        HttpClientRequest.prependUrl(
          options.authToken === undefined ? r : HttpClientRequest.bearerToken(r, options.authToken),
          base
        )
      )
    )
    const send = (request: HttpClientRequest.HttpClientRequest) =>
      client.execute(request).pipe(
        Effect.flatMap((res) => Effect.map(res.text, (text) => ({ status: res.status, text }))),
        Effect.scoped,
        Effect.mapError(() => new McpBackendError({ message: `the kioku server at ${base} did not answer` }))
      )
    /** The body of a 2xx answer that is not N.E.K.O.'s `status:"error"`, else the server's reason. */
    const ok = (request: HttpClientRequest.HttpClientRequest) =>
      Effect.flatMap(send(request), ({ status, text }) =>
        status >= 200 && status < 300 && !Option.exists(decodeError(text), (b) => b.status === "error")
          ? Effect.succeed(text)
          : Effect.fail(new McpBackendError({ message: reasonOf(status, text) }))
      )
    const decoded = <A, I>(schema: Schema.Schema<A, I>, text: string) =>
      Schema.decodeUnknown(Schema.parseJson(schema))(text).pipe(
        Effect.mapError(() => new McpBackendError({ message: "the kioku server's answer did not decode" }))
      )
    const json = (body: unknown) => HttpClientRequest.bodyUnsafeJson(body)
    const backend: Backend = {
      mode: { _tag: "server", url: base },
      remember: (name, turns, language) =>
        ok(
          HttpClientRequest.post(path("/cache", name)).pipe(
            json({ input_history: JSON.stringify(turns), ...(language === undefined ? {} : { language }) })
          )
        ).pipe(
          Effect.flatMap((text) => decoded(Cached, text)),
          Effect.map((b) => b.count)
        ),
      maintainNow: (name) =>
        ok(HttpClientRequest.post("/internal/maintenance/run_once").pipe(json({ character: name }))).pipe(
          Effect.flatMap((text) => decoded(Ran, text)),
          Effect.map((b) => b.ran.reduce((n, r) => n + r.factsAdded, 0))
        ),
      recallText: (name, input) =>
        ok(
          HttpClientRequest.post(path("/query_memory", name)).pipe(
            HttpClientRequest.setUrlParam("format", "markdown"),
            json(input)
          )
        ),
      context: (name, language) =>
        ok(HttpClientRequest.get(path("/new_dialog", name)).pipe(HttpClientRequest.setUrlParam("language", language))),
      characters: ok(HttpClientRequest.get("/api/memory/statecharts/characters")).pipe(
        Effect.flatMap((text) => decoded(Characters, text)),
        Effect.map((b) => b.characters)
      ),
      forget: (name, kind, id) =>
        send(
          HttpClientRequest.post("/api/memory/entry_action").pipe(
            json({ lanlan_name: name, kind, id, action: "forget" })
          )
        ).pipe(
          Effect.flatMap(({ status, text }): Effect.Effect<ForgetOutcome, McpBackendError> => {
            if (status === 404) return Effect.succeed({ _tag: "NotFound" })
            if (status === 409)
              return Effect.map(decoded(NotAllowed, text), (b) => ({ _tag: "NotAllowed", status: b.status }))
            if (status !== 200) return Effect.fail(new McpBackendError({ message: reasonOf(status, text) }))
            return Effect.map(decoded(EntryActed, text), (b) => ({ _tag: "Forgotten", status: b.status }))
          })
        ),
      persona: (name) =>
        ok(HttpClientRequest.get(path("/get_persona", name))).pipe(
          Effect.flatMap((text) => decoded(Schema.Unknown, text))
        ),
      facts: (name) =>
        ok(HttpClientRequest.get(path("/api/memory/browser", name))).pipe(
          Effect.flatMap((text) => decoded(BrowserView, text)),
          Effect.map((b) => b.facts)
        ),
      promptLanguage: (name) =>
        ok(HttpClientRequest.get(path("/prompt-locale", name))).pipe(
          Effect.flatMap((text) => decoded(Locale, text)),
          Effect.map((b) => Option.fromNullable(b.language))
        )
    }
    return backend
  })

export const layer = (options: RemoteOptions) =>
  Layer.effect(McpBackend, make(options)).pipe(Layer.provide(FetchHttpClient.layer))

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
