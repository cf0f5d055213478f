/**
 * Request models decoded the way FastAPI binds a pydantic model, with its 422 body
 * `{"detail":[{type, loc, msg, input[, ctx]}…]}`: every field error at once, `loc` starting at `body` (or
 * `query`), pydantic's type codes (`missing`, `string_type`, `bool_parsing`, …) and messages. The models are
 * the route table's (api/TrustSchemas.ts), whose field schemas carry their pydantic type code as the Schema
 * message.
 */
import { Either, ParseResult, Predicate, Schema } from "effect"
import { json } from "../Responses.js"

const messages: Readonly<Record<string, string>> = {
  missing: "Field required",
  string_type: "Input should be a valid string",
  bool_type: "Input should be a valid boolean",
  bool_parsing: "Input should be a valid boolean, unable to interpret input",
  int_type: "Input should be a valid integer",
  int_parsing: "Input should be a valid integer, unable to parse string as an integer",
  int_from_float: "Input should be a valid integer, got a number with a fractional part",
  list_type: "Input should be a valid list",
  dict_type: "Input should be a valid dictionary",
  greater_than_equal: "Input should be greater than or equal to 0"
}

export interface FieldError {
  readonly type: string
  readonly loc: ReadonlyArray<string | number>
  readonly msg: string
  readonly input: unknown
  readonly ctx?: Readonly<Record<string, unknown>>
}

export const unprocessable = (errors: ReadonlyArray<FieldError>) => json({ detail: errors }, 422)

export const missing = (loc: ReadonlyArray<string>): FieldError => ({
  type: "missing",
  loc,
  msg: "Field required",
  input: null
})

const step = (v: unknown, key: PropertyKey): unknown => {
  if (Array.isArray(v)) {
    const items: ReadonlyArray<unknown> = v
    return items[Number(key)]
  }
  return Predicate.isRecord(v) ? v[String(key)] : undefined
}
const at = (value: unknown, path: ReadonlyArray<PropertyKey>): unknown => path.reduce<unknown>(step, value)

/** An optional or nullable field also reports "expected undefined/null": keep only the field's own error. */
const withoutUnionNoise = (errors: ReadonlyArray<FieldError>) => {
  const coded = new Set(errors.filter((e) => e.type !== "value_error").map((e) => JSON.stringify(e.loc)))
  return errors.filter((e) => e.type !== "value_error" || !coded.has(JSON.stringify(e.loc)))
}

const decodeJson = Schema.decodeUnknownEither(Schema.parseJson(Schema.Unknown))

/** Decodes a body for `schema`; `Left` is FastAPI's 422 answer. */
export const decodeModel = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "ignore" })
  return (text: string): Either.Either<A, ReadonlyArray<FieldError>> => {
    if (text.trim() === "") return Either.left([missing(["body"])])
    const parsed = decodeJson(text)
    if (Either.isLeft(parsed))
      return Either.left([
        {
          type: "json_invalid",
          loc: ["body", 0],
          msg: "JSON decode error",
          input: {},
          ctx: { error: "Expecting value" }
        }
      ])
    if (!Predicate.isRecord(parsed.right))
      return Either.left([
        {
          type: "model_attributes_type",
          loc: ["body"],
          msg: "Input should be a valid dictionary or object to extract fields from",
          input: parsed.right
        }
      ])
    const body = parsed.right
    return Either.mapLeft(decode(body), (e) =>
      withoutUnionNoise(
        ParseResult.ArrayFormatter.formatErrorSync(e).map((issue): FieldError => {
          const loc = ["body", ...issue.path.map((k) => (typeof k === "number" ? k : String(k)))]
          if (issue._tag === "Missing") return { type: "missing", loc, msg: "Field required", input: body }
          const type = issue.message in messages ? issue.message : "value_error"
          const input = at(body, issue.path)
          const base = { type, loc, msg: messages[type] ?? issue.message, input }
          return type === "greater_than_equal" ? { ...base, ctx: { ge: 0 } } : base
        })
      )
    )
  }
}
