/**
 * Request bodies for the routes (`bodyText`; a refusal is a `BodyRejected` carrying its answer). A body is
 * read with a byte limit without destroying the socket: past the limit the rest is read and dropped (up to a
 * hard limit) before the 413 goes out, since a socket closed on unread data is reset and the client never
 * sees the answer. Invalid UTF-8 decodes with replacement characters. Also the checks of N.E.K.O.'s
 * model-bound routes: the body must be sent as JSON, and may not nest deeper than rendering can follow.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Either } from "effect"
import type { IncomingMessage } from "node:http"
import { StringDecoder } from "node:string_decoder"
import { KiokuConfig } from "../Config.js"
import { detail, validation } from "./Responses.js"

export type BodyProblem = "too_large" | "unreadable"

/** Past this many bytes an oversized body is no longer drained: the answer goes out and the socket closes. */
const drainLimit = (maxBytes: number) => 4 * maxBytes

/** Reads Node's request body as `readBody` does. */
export const readIncoming = (incoming: IncomingMessage, maxBytes: number) =>
  Effect.async<Either.Either<string, BodyProblem>>((resume) => {
    const decoder = new StringDecoder("utf8")
    let text = ""
    let bytes = 0
    const finish = (result: Either.Either<string, BodyProblem>) => {
      incoming.off("data", onData)
      incoming.off("end", onEnd)
      incoming.off("error", onError)
      resume(Effect.succeed(result))
    }
    const onData = (chunk: Buffer) => {
      bytes += chunk.length
      if (bytes > drainLimit(maxBytes)) {
        incoming.pause()
        finish(Either.left("too_large"))
      } else if (bytes > maxBytes) text = ""
      else text += decoder.write(chunk)
    }
    const onEnd = () => finish(bytes > maxBytes ? Either.left("too_large") : Either.right(text + decoder.end()))
    const onError = () => finish(Either.left("unreadable"))
    if (incoming.readableEnded) return resume(Effect.succeed(Either.right("")))
    incoming.on("data", onData)
    incoming.on("end", onEnd)
    incoming.on("error", onError)
  })

export const readBody = (maxBytes: number) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    readIncoming(NodeHttpServerRequest.toIncomingMessage(request), maxBytes)
  )

/** As FastAPI binds a model: a body is parsed as JSON when it is untyped, `application/json` or `…+json`. */
export const isJsonContentType = (type: string | undefined): boolean => {
  const media = (type ?? "").split(";")[0]?.trim().toLowerCase() ?? ""
  return media === "" || media === "application/json" || (media.startsWith("application/") && media.endsWith("+json"))
}

/** Deeper values are refused: rendering or re-encoding them would exhaust the stack. */
export const MAX_NESTING = 64

/** True when `value` nests arrays or objects deeper than `MAX_NESTING` (checked without recursion). */
export const nestsTooDeep = (value: unknown): boolean => {
  const stack: Array<readonly [unknown, number]> = [[value, 0]]
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [v, depth] = top
    if (typeof v !== "object" || v === null) continue
    if (depth >= MAX_NESTING) return true
    for (const child of Object.values(v)) stack.push([child, depth + 1])
  }
  return false
}

export class BodyRejected {
  readonly _tag = "BodyRejected"
  constructor(readonly response: HttpServerResponse.HttpServerResponse) {}
}

/** The answer to a body that could not be read. */
export const bodyRefusal = (problem: BodyProblem) =>
  problem === "too_large"
    ? HttpServerResponse.setHeader(detail(413, "Request body too large"), "connection", "close")
    : detail(400, "Unreadable request body")

export const bodyText = Effect.gen(function* () {
  const { tunables } = yield* KiokuConfig
  const body = yield* readBody(tunables.max_body_bytes)
  if (Either.isRight(body)) return body.right
  return yield* Effect.fail(new BodyRejected(bodyRefusal(body.left)))
})

/** The body of a N.E.K.O. route bound to a pydantic model: 422 unless it is sent as JSON. */
export const modelBodyText = Effect.gen(function* () {
  const text = yield* bodyText
  const request = yield* HttpServerRequest.HttpServerRequest
  if (isJsonContentType(request.headers["content-type"])) return text
  return yield* Effect.fail(
    new BodyRejected(validation(["body"], "body must be sent as application/json", "model_attributes_type"))
  )
})
