/**
 * Request guards applied before routing: Host/Origin checks against DNS rebinding (loopback names only,
 * unless an auth token is configured), the bearer token when one is set (compared in constant time) or else
 * a browser session from this origin (SignIn.ts), the 16 MiB body limit announced by Content-Length (the body
 * is drained before the 413 so the client reads it), and limited mode while startup recovery runs.
 */
import { HttpServerRequest, HttpServerResponse, type HttpApp } from "@effect/platform"
import { Effect, Option, Ref } from "effect"
import { blockingReason, RuntimeStatus } from "../RuntimeStatus.js"
import { readBody } from "./Body.js"
import { detail, limited } from "./Responses.js"
import { secretsMatch, type Sessions } from "./Sessions.js"
import { gate, viaSession } from "./SignIn.js"

export interface GuardOptions {
  readonly authToken: string | undefined
  readonly maxBodyBytes: number
}

const loopbackHosts = new Set(["127.0.0.1", "localhost", "[::1]", "::1"])
const limitedModeExempt = new Set([
  "/",
  "/health",
  "/openapi.json",
  "/docs",
  "/shutdown",
  "/internal/storage/startup/continue",
  "/internal/storage/startup/block"
])

const hostName = (host: string): string => {
  const h = host.trim().toLowerCase()
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1)
  const colon = h.lastIndexOf(":")
  return colon > 0 ? h.slice(0, colon) : h
}

const originAllowed = (origin: string): boolean => {
  if (origin === "null") return false
  try {
    const url = new URL(origin)
    return (url.protocol === "http:" || url.protocol === "https:") && loopbackHosts.has(url.hostname)
  } catch {
    return false
  }
}

/**
 * What the request's headers fail before sessions are looked at: a host or origin other than loopback (no
 * token set), or the bearer token (a token set); undefined when they pass.
 */
export const headerRefusal = (
  header: (name: string) => string | undefined,
  authToken: string | undefined
): "host" | "origin" | "token" | undefined => {
  if (authToken !== undefined)
    return secretsMatch(header("authorization") ?? "", `Bearer ${authToken}`) ? undefined : "token"
  if (!loopbackHosts.has(hostName(header("host") ?? ""))) return "host"
  const origin = header("origin")
  return origin !== undefined && !originAllowed(origin) ? "origin" : undefined
}

/** The 409 limited-mode answer while startup recovery runs or storage is blocked; none once ready. */
export const limitedAnswer = Effect.map(Effect.flatMap(RuntimeStatus, Ref.get), (phase) =>
  Option.map(Option.fromNullable(blockingReason(phase)), limited)
)

export const guard =
  (options: GuardOptions) =>
  <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R | RuntimeStatus | Sessions> =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const headers = request.headers
      let session = false
      const refusal = headerRefusal((name) => headers[name], options.authToken)
      if (refusal === "host") return detail(403, "Forbidden host")
      if (refusal === "origin") return detail(403, "Forbidden origin")
      if (refusal === "token") {
        const refused = yield* gate(options.authToken ?? "")
        if (Option.isSome(refused)) return refused.value
        session = true
      }
      const length = Number(headers["content-length"] ?? "0")
      if (Number.isFinite(length) && length > options.maxBodyBytes) {
        yield* readBody(options.maxBodyBytes)
        return HttpServerResponse.setHeader(detail(413, "Request body too large"), "connection", "close")
      }
      const path = request.url.split("?")[0] ?? ""
      if (!limitedModeExempt.has(path)) {
        const refused = yield* limitedAnswer
        if (Option.isSome(refused)) return refused.value
      }
      return yield* session ? Effect.locally(app, viaSession, true) : app
    })
