/**
 * fetch against kioku's JSON routes, every answer decoded with its Wire schema: a reply is either the
 * decoded value (2xx and the expected shape) or a failure with the status and the best error text the
 * body offers (`error`, `message` or `detail`, as kioku and N.E.K.O. answer).
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { ErrorBody } from "../../src/browser/Wire.js"

export type Failure = {
  readonly _tag: "failed"
  readonly status: number
  readonly error: string
  readonly fields: typeof ErrorBody.Type
}
export type Reply<A> = { readonly _tag: "ok"; readonly status: number; readonly value: A } | Failure

const parse = Schema.decodeUnknownEither(Schema.parseJson())
const decodeError = Schema.decodeUnknownEither(ErrorBody)

const detailText = (detail: unknown): string | undefined =>
  typeof detail === "string" ? detail : detail === undefined ? undefined : JSON.stringify(detail)

const failure = (status: number, text: string): Failure => {
  const fields = Either.getOrElse(Either.flatMap(parse(text), decodeError), (): typeof ErrorBody.Type => ({}))
  const error = fields.error ?? fields.message ?? detailText(fields.detail) ?? (text.trim() || `HTTP ${status}`)
  return { _tag: "failed", status, error, fields }
}

/** GET `url` (or POST `body` as JSON) and decode the answer with `schema`. */
export const request = async <A, I>(
  schema: Schema.Schema<A, I, never>,
  url: string,
  body?: unknown
): Promise<Reply<A>> => {
  const init: RequestInit =
    body === undefined
      ? {}
      : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }
  const response = await fetch(url, init).catch(() => undefined)
  if (response === undefined) return failure(0, "the server did not answer")
  const text = await response.text()
  const value = Either.flatMap(parse(text), Schema.decodeUnknownEither(schema))
  if (response.ok && Either.isRight(value)) return { _tag: "ok", status: response.status, value: value.right }
  return failure(response.status, text)
}

/** The path segment for a character name or entry id. */
export const seg = (s: string): string => encodeURIComponent(s)
