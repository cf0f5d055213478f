/**
 * Browser access when an auth token is set (Guard.ts asks here once the bearer check fails): `POST /session`
 * signs in (form-urlencoded or JSON `{token, next?}`; token compared in constant time; sets an HttpOnly,
 * SameSite=Strict cookie holding a random session id, Secure when a proxy says the request came over https),
 * `POST /session/end` signs out, `GET /` without a session is the sign-in form, the pages redirect (303) to it.
 * A session cookie admits a request only from the server's own origin: a foreign `Origin` is refused, and a
 * request that may change state (not GET/HEAD/OPTIONS) must name this origin in `Origin` or `Referer`.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Either, FiberRef, Option, Schema } from "effect"
import { signInPage } from "../browser/SignIn.js"
import { VERSION } from "../Version.js"
import { readBody } from "./Body.js"
import { detail, json } from "./Responses.js"
import { secretsMatch, Sessions } from "./Sessions.js"

/** True while a request runs on a session cookie (the landing page then offers to sign out). */
export const viaSession = FiberRef.unsafeMake(false)

const NextPath = Schema.String.pipe(Schema.maxLength(2048), Schema.pattern(/^\/(?![/\\])[^\s\\]*$/))
const isNextPath = Schema.is(NextPath)
const SignInBody = Schema.Struct({
  token: Schema.String.pipe(Schema.maxLength(4096)),
  next: Schema.optional(Schema.String)
})
const decodeForm = Schema.decodeUnknownEither(SignInBody)
const decodeJson = Schema.decodeUnknownEither(Schema.parseJson(SignInBody))

const pages = new Set(["/memory_browser", "/statecharts", "/docs"])
const safeMethods = new Set(["GET", "HEAD", "OPTIONS"])
const MAX_SIGN_IN_BYTES = 8192

/** The cookie's name carries the port, so kioku servers on one host (cookies ignore ports) keep theirs apart. */
export const cookieName = (host: string): string => `kioku_session_${/:(\d+)$/.exec(host)?.[1] ?? "80"}`

const normalHost = (host: string): string | undefined => {
  try {
    return new URL(`http://${host}`).host
  } catch {
    return undefined
  }
}

/** `undefined` when the request names no origin; otherwise whether it is this server's (scheme http or https). */
const sameOrigin = (request: HttpServerRequest.HttpServerRequest): boolean | undefined => {
  const source = request.headers["origin"] ?? request.headers["referer"]
  if (source === undefined) return undefined
  try {
    const url = new URL(source)
    const own = normalHost(request.headers["host"] ?? "")
    return (url.protocol === "http:" || url.protocol === "https:") && own !== undefined && url.host === own
  } catch {
    return false
  }
}

const overHttps = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["x-forwarded-proto"] ?? "").split(",")[0]?.trim().toLowerCase() === "https"

const html = (body: string, status: number) =>
  HttpServerResponse.html(body).pipe(
    HttpServerResponse.setStatus(status),
    HttpServerResponse.setHeaders({ "cache-control": "no-store", "x-frame-options": "DENY" })
  )

const form = (next: string, error: string | undefined, status: number) =>
  html(signInPage({ version: VERSION, next, error }), status)

const seeOther = (location: string) =>
  HttpServerResponse.empty({ status: 303, headers: { location, "cache-control": "no-store" } })

const isJson = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() === "application/json"

const signIn = (token: string) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const asJson = isJson(request)
    if (sameOrigin(request) === false) return detail(403, "Forbidden origin")
    const text = yield* readBody(MAX_SIGN_IN_BYTES)
    if (Either.isLeft(text)) return detail(text.left === "too_large" ? 413 : 400, "Unreadable sign-in body")
    const body = asJson
      ? decodeJson(text.right)
      : decodeForm(Object.fromEntries(new URLSearchParams(text.right).entries()))
    if (Either.isLeft(body))
      return asJson ? detail(400, "expected {token, next?}") : form("/", "Enter the auth token.", 400)
    const next = body.right.next !== undefined && isNextPath(body.right.next) ? body.right.next : "/"
    if (!secretsMatch(body.right.token, token)) {
      yield* Effect.logWarning("sign-in refused: wrong token")
      return asJson ? detail(401, "Unauthorized") : form(next, "That token is not right.", 401)
    }
    const sessions = yield* Sessions
    const id = yield* sessions.create
    yield* Effect.logInfo("browser signed in")
    const answer = asJson ? json({ signed_in: true, expires_in_seconds: sessions.ttlSeconds }) : seeOther(next)
    return HttpServerResponse.unsafeSetCookie(answer, cookieName(request.headers["host"] ?? ""), id, {
      httpOnly: true,
      sameSite: "strict",
      path: "/",
      maxAge: `${sessions.ttlSeconds} seconds`,
      secure: overHttps(request)
    })
  })

const signOut = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  if (sameOrigin(request) === false) return detail(403, "Forbidden origin")
  const name = cookieName(request.headers["host"] ?? "")
  const id = request.cookies[name]
  if (id !== undefined) yield* (yield* Sessions).revoke(id)
  return HttpServerResponse.expireCookie(seeOther("/"), name, { httpOnly: true, sameSite: "strict", path: "/" })
})

/**
 * What a request without the bearer token gets: `None` to go on to the routes (a valid session from this
 * origin), otherwise the answer (sign-in, sign-out, the form, a redirect to it, 403 or 401).
 */
export const gate = (token: string) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const [path = "", query = ""] = request.url.split("?")
    if (request.method === "POST" && path === "/session") return Option.some(yield* signIn(token))
    if (request.method === "POST" && path === "/session/end") return Option.some(yield* signOut)
    const id = request.cookies[cookieName(request.headers["host"] ?? "")]
    if (id !== undefined && (yield* (yield* Sessions).valid(id))) {
      const same = sameOrigin(request)
      if (same === false || (same === undefined && !safeMethods.has(request.method)))
        return Option.some(detail(403, "Forbidden origin"))
      return Option.none()
    }
    if (request.method === "GET" || request.method === "HEAD") {
      if (path === "/") {
        const next = new URLSearchParams(query).get("next") ?? "/"
        return Option.some(form(isNextPath(next) ? next : "/", undefined, 200))
      }
      if (pages.has(path)) return Option.some(seeOther(`/?next=${encodeURIComponent(request.url)}`))
    }
    return Option.some(detail(401, "Unauthorized"))
  })
