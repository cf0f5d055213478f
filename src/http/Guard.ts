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

export const guard =
  (options: GuardOptions) =>
  <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R | RuntimeStatus | Sessions> =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const headers = request.headers
      let session = false
      if (options.authToken === undefined) {
        if (!loopbackHosts.has(hostName(headers["host"] ?? ""))) return detail(403, "Forbidden host")
        const origin = headers["origin"]
        if (origin !== undefined && !originAllowed(origin)) return detail(403, "Forbidden origin")
      } else if (!secretsMatch(headers["authorization"] ?? "", `Bearer ${options.authToken}`)) {
        const refused = yield* gate(options.authToken)
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
        const reason = blockingReason(yield* Ref.get(yield* RuntimeStatus))
        if (reason !== undefined) return limited(reason)
      }
      return yield* session ? Effect.locally(app, viaSession, true) : app
    })
