/**
 * The typed client (`kioku/client`), generated from the route table: one method per route, taking its path
 * parameters, `query` and `body` as the table types them, answering a `Reply` — the decoded answer, or a
 * `KiokuClientError` saying why not: `refused` (an HTTP error status, with the server's body), `operation_failed`
 * (N.E.K.O.'s HTTP 200 with `status:"error"`, or `success:false` / `ok:false`), `unreachable` or `undecodable`
 * (a 2xx answer of another shape). Runs on `fetch`, so in Node 20 and in a browser (where `baseUrl` may be
 * left out to talk to the page's own server, whose session cookie then goes along).
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { api, routeNames, type Api, type Input, type NeedsInput, type Output, type RouteName } from "./Api.js"
import type { RouteDef } from "./Route.js"
import { ErrorAnswer } from "./Schemas.js"

export type { Api, Input, Output, RouteName } from "./Api.js"
export type { ErrorAnswer } from "./Schemas.js"

export interface ClientOptions {
  /** The server, e.g. `http://127.0.0.1:48912`; default `""`: the page's own origin in a browser. */
  readonly baseUrl?: string
  /** Sent as `Authorization: Bearer …` (a server started with `--auth-token`). */
  readonly token?: string
  /** Another fetch (a test double, a proxy agent); default the global one. */
  readonly fetch?: (url: string, init: RequestInit) => Promise<Response>
  readonly headers?: Readonly<Record<string, string>>
}

export class KiokuClientError extends Schema.TaggedError<KiokuClientError>()("KiokuClientError", {
  reason: Schema.Literal("refused", "operation_failed", "unreachable", "undecodable"),
  /** The HTTP status; 0 when the server did not answer. */
  status: Schema.Number,
  message: Schema.String,
  /** The answer: its JSON, or its text when it is not JSON. */
  body: Schema.Unknown,
  /** The error fields the answer carries (`detail`, `error`, `message`, `code`, …). */
  fields: ErrorAnswer
}) {}

export type Reply<A> =
  | { readonly ok: true; readonly status: number; readonly value: A }
  | { readonly ok: false; readonly status: number; readonly error: KiokuClientError }

type Call<R extends RouteDef> =
  NeedsInput<R> extends true
    ? (input: Input<R>) => Promise<Reply<Output<R>>>
    : (input?: Input<R>) => Promise<Reply<Output<R>>>

export type KiokuClient = { readonly [K in RouteName]: Call<Api[K]> }

/** The answer's value, or throws its `KiokuClientError`. */
export const orThrow = <A>(reply: Reply<A>): A => {
  if (reply.ok) return reply.value
  throw reply.error
}

const parseJson = Schema.decodeUnknownEither(Schema.parseJson())
const decodeError = Schema.decodeUnknownEither(ErrorAnswer)

const reasonText = (status: number, fields: ErrorAnswer, text: string): string => {
  const d = fields.detail
  if (typeof d === "string") return d
  if (d !== undefined) return d.map((x) => `${x.loc.join(".")}: ${x.msg}`).join("; ")
  return fields.message ?? fields.error ?? fields.error_code ?? (text.trim().slice(0, 200) || `HTTP ${status}`)
}

const fail = (reason: KiokuClientError["reason"], status: number, text: string, body: unknown): Reply<never> => {
  const fields = Either.getOrElse(decodeError(body), (): ErrorAnswer => ({}))
  const message =
    reason === "undecodable" ? `the answer to HTTP ${status} did not decode` : reasonText(status, fields, text)
  return { ok: false, status, error: new KiokuClientError({ reason, status, message, body, fields }) }
}

/** N.E.K.O.'s failed memory operation answered with HTTP 200. */
const operationFailed = (fields: ErrorAnswer) =>
  fields.status === "error" || fields.success === false || fields.ok === false

const urlOf = (def: RouteDef, input: Readonly<Record<string, unknown>>): string => {
  const path = def.path.replace(/\{([^}]+)\}/g, (_, key: string) => encodeURIComponent(String(input[key] ?? "")))
  const query = input["query"]
  const params = new URLSearchParams()
  if (typeof query === "object" && query !== null)
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, String(v))
  const search = params.toString()
  return search === "" ? path : `${path}?${search}`
}

const caller =
  (def: RouteDef, options: ClientOptions) =>
  async (input: Readonly<Record<string, unknown>> = {}): Promise<Reply<unknown>> => {
    const send = options.fetch ?? ((url: string, init: RequestInit) => globalThis.fetch(url, init))
    const headers: Record<string, string> = { accept: "application/json, text/*", ...options.headers }
    if (options.token !== undefined) headers["authorization"] = `Bearer ${options.token}`
    const body = input["body"]
    if (body !== undefined) headers["content-type"] = "application/json"
    const init: RequestInit = {
      method: def.method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    }
    const response = await send(`${(options.baseUrl ?? "").replace(/\/+$/, "")}${urlOf(def, input)}`, init).catch(
      () => undefined
    )
    if (response === undefined) return fail("unreachable", 0, "the kioku server did not answer", undefined)
    const text = await response.text()
    const isJson = /\bjson\b/.test(response.headers.get("content-type") ?? "")
    const parsed = isJson ? Either.getOrUndefined(parseJson(text)) : undefined
    const answer = isJson ? parsed : text
    if (!response.ok) return fail("refused", response.status, text, answer)
    if (!isJson && def.text !== undefined) return { ok: true, status: response.status, value: text }
    const fields = Either.getOrElse(decodeError(parsed), (): ErrorAnswer => ({}))
    if (isJson && typeof parsed === "object" && parsed !== null && operationFailed(fields))
      return fail("operation_failed", response.status, text, parsed)
    if (!isJson || def.json === undefined) return fail("undecodable", response.status, text, answer)
    const value = Schema.decodeUnknownEither(def.json)(parsed)
    if (Either.isLeft(value)) return fail("undecodable", response.status, text, answer)
    return { ok: true, status: response.status, value: value.right }
  }

/** A client of the kioku server at `options.baseUrl`: `await client.cache({ name, body })`, … */
export const createClient = (options: ClientOptions = {}): KiokuClient =>
  Object.fromEntries(routeNames.map((name) => [name, caller(api[name], options)])) as unknown as KiokuClient // each method is typed by its entry
