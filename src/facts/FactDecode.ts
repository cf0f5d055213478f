/**
 * A fast decode of `facts.json` that gives what `Schema.decodeUnknown(FactsFile)` gives: each parsed row is
 * checked structurally against the fields known here (types of the present ones) and gets the schema's
 * defaults for the missing ones, in place; a row that fails the check, or that carries a field of the
 * schema this check does not know (fields added to `Fact` later), is decoded by the schema itself, so the
 * schema stays the one authority. Unknown extra fields stay as they are. At 100,000 rows this is a few
 * milliseconds instead of seconds.
 */
import { Either, Schema } from "effect"
import { Fact, type Fact as FactRecord } from "./Fact.js"

type Check = (v: unknown) => boolean
const isString: Check = (v) => typeof v === "string"
const isNumber: Check = (v) => typeof v === "number"
const isBoolean: Check = (v) => typeof v === "boolean"
const stringOrNull: Check = (v) => v === null || typeof v === "string"
const strings: Check = (v) => Array.isArray(v) && v.every(isString)
const numbers: Check = (v) => Array.isArray(v) && v.every(isNumber)
const any: Check = () => true

/** The fields checked here: their test, and the default of a missing one (`required` when none may be missing). */
const KNOWN: ReadonlyArray<readonly [string, Check, "required" | "optional" | (() => unknown)]> = [
  ["id", isString, "required"],
  ["text", isString, "required"],
  ["importance", isNumber, () => 5],
  ["entity", isString, () => "master"],
  ["source", isString, () => "user_observation"],
  ["tags", strings, () => []],
  ["hash", isString, "required"],
  ["created_at", isString, "required"],
  ["event_when_raw", any, () => null],
  ["event_start_at", stringOrNull, () => null],
  ["event_end_at", stringOrNull, () => null],
  ["schema_version", isNumber, () => 2],
  ["absorbed", isBoolean, () => false],
  ["signal_processed", isBoolean, () => true],
  ["source_row_ids", numbers, "optional"]
]

const known = new Set(KNOWN.map(([k]) => k))
/** Fields of the schema this module does not check: a row holding one goes through the schema. */
const unchecked = Object.keys(Fact.fields).filter((k) => !known.has(k))
const fields: Schema.Struct.Fields = Fact.fields
/**
 * Whether the fast path can agree with the schema: every field checked here is one of the schema's, and
 * every field it does not check may be missing from a decoded fact (no default of its own to fill).
 */
const coherent =
  KNOWN.every(([k]) => Object.hasOwn(fields, k)) &&
  unchecked.every((k) => Schema.is(Schema.typeSchema(Schema.Struct({ [k]: fields[k] ?? Schema.Never })))({}))
const decodeRow = Schema.decodeUnknownEither(Fact)

const fast = (row: unknown): FactRecord | undefined => {
  if (typeof row !== "object" || row === null || Array.isArray(row)) return undefined
  const r = row as Record<string, unknown>
  for (const k of unchecked) if (k in r) return undefined
  for (const [k, check, missing] of KNOWN) {
    const v = r[k]
    if (v === undefined ? k in r || missing === "required" : !check(v)) return undefined
  }
  for (const [k, , missing] of KNOWN) if (r[k] === undefined && typeof missing === "function") r[k] = missing()
  // Every field of `Fact` is present and of its type, the rest is the open record: the row is a `Fact`.
  return r as FactRecord
}

/** Decodes parsed `facts.json` content; the error names the first row that no path could decode. */
export const decodeFacts = (parsed: unknown): Either.Either<ReadonlyArray<FactRecord>, string> => {
  if (!Array.isArray(parsed)) return Either.left("facts file is not an array")
  const out: Array<FactRecord> = new Array(parsed.length)
  for (let i = 0; i < parsed.length; i++) {
    const row: unknown = parsed[i]
    const quick = coherent ? fast(row) : undefined
    if (quick !== undefined) {
      out[i] = quick
      continue
    }
    const decoded = decodeRow(row)
    if (Either.isLeft(decoded)) return Either.left(`row ${i}: ${decoded.left.message}`)
    out[i] = decoded.right
  }
  return Either.right(out)
}
