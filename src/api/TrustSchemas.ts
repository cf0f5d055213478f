/**
 * The speaker-trust and identity routes' request models and answers (neko-compat §1.7) as effect/Schema, for
 * the route table (GroupRoutes.ts). The models are N.E.K.O.'s pydantic ones: http/trust/ModelBody.ts decodes
 * them the way FastAPI binds a model, so each field schema carries its pydantic type code as its Schema message,
 * and lax booleans and integers accept what pydantic's lax mode accepts (`"yes"`, `1`, `"3"`, `2.0`). Imports
 * only effect/Schema, so the client can run in a browser.
 */
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

const coded = (code: string) => ({ message: () => ({ message: code, override: true }) })

export const Str = Schema.String.annotations(coded("string_type"))
export const OptionalStr = Schema.optionalWith(Schema.NullOr(Str), { default: () => null })
export const Dict = Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations(coded("dict_type"))
export const StrList = Schema.Array(Str).annotations(coded("list_type"))

const truthy = new Set(["1", "on", "t", "true", "y", "yes"])
const falsy = new Set(["0", "off", "f", "false", "n", "no"])

/** pydantic's lax `bool`. */
export const LaxBool = Schema.transformOrFail(
  Schema.Unknown.annotations({ description: 'a boolean, or pydantic\'s lax forms (0, 1, "yes", "off", …)' }),
  Schema.Boolean,
  {
    strict: true,
    decode: (u, _, ast) => {
      if (typeof u === "boolean") return ParseResult.succeed(u)
      if (u === 0 || u === 1) return ParseResult.succeed(u === 1)
      if (typeof u === "string" && truthy.has(u.trim().toLowerCase())) return ParseResult.succeed(true)
      if (typeof u === "string" && falsy.has(u.trim().toLowerCase())) return ParseResult.succeed(false)
      return ParseResult.fail(new ParseResult.Type(ast, u, typeof u === "string" ? "bool_parsing" : "bool_type"))
    },
    encode: ParseResult.succeed
  }
)

/** pydantic's lax `int` with `ge=0`. */
export const LaxCount = Schema.transformOrFail(
  Schema.Unknown.annotations({ description: 'an integer ≥ 0, or pydantic\'s lax forms ("3", 2.0)' }),
  Schema.Number,
  {
    strict: true,
    decode: (u, _, ast) => {
      const n = typeof u === "number" ? u : typeof u === "string" && /^\s*[+-]?\d+\s*$/.test(u) ? Number(u) : undefined
      if (n === undefined || typeof u === "boolean")
        return ParseResult.fail(new ParseResult.Type(ast, u, typeof u === "string" ? "int_parsing" : "int_type"))
      if (!Number.isInteger(n)) return ParseResult.fail(new ParseResult.Type(ast, u, "int_from_float"))
      if (n < 0) return ParseResult.fail(new ParseResult.Type(ast, u, "greater_than_equal"))
      return ParseResult.succeed(n)
    },
    encode: ParseResult.succeed
  }
)

const flag = Schema.optionalWith(LaxBool, { default: () => false })

export const ProfileQuery = Schema.Struct({ account_id: Schema.optional(Schema.String) })
export const LegacyImportBody = Schema.Struct({
  source: Str,
  platform: Str,
  chunk_index: Schema.optionalWith(LaxCount, { default: () => 0 }),
  final: flag,
  profiles: Schema.optionalWith(Dict, { default: () => ({}) })
})
export const WaiveBody = Schema.Struct({ platform: Str })
export const ReconcileBody = Schema.Struct({
  character_names: Schema.optionalWith(Schema.NullOr(StrList), { default: () => null })
})
export const ScopeBody = Schema.Struct({
  platform: Str,
  channel: Str,
  actor_scope: Str,
  conversation_scope: Str,
  asserted_by: Str
})
export const AccountBody = Schema.Struct({ account_id: Str, require_provenance: flag })
export const BindBody = Schema.Struct({ account_id: Str, entity_id: Str, bound_by: OptionalStr, require_unbound: flag })
export const MergeBody = Schema.Struct({ entity_id: Str, other_entity_id: Str })
export const EntityBody = Schema.Struct({ entity_id: Str })

const Num = Schema.Number
const Bool = Schema.Boolean
const NullStr = Schema.NullOr(Schema.String)
const Open = Schema.Record({ key: Schema.String, value: Schema.Unknown })
const opt = Schema.optional
/**
 * A pool write's answer: `persisted: false` when the write was vetoed (an unreadable pool) or lost, and then
 * only the fields the route adds itself may be present.
 */
const persisted = { persisted: Bool }

export const TrustProfile = Schema.Struct({
  account_id: NullStr,
  known: Bool,
  entity_id: opt(NullStr),
  platform: opt(Schema.String),
  barrier_pending: opt(Bool),
  entity_accounts: opt(Schema.Array(Schema.String)),
  canonical_account: opt(NullStr),
  adjustment_sum: opt(Num),
  activity_count_sum: opt(Num),
  account_adjustment: opt(Num),
  account_message_count: opt(Num),
  signal_event_count: opt(Num),
  activity_event_count: opt(Num),
  bound_at: opt(NullStr),
  bound_by: opt(NullStr),
  channels_seen: opt(Schema.Array(Schema.String)),
  channel_collision: opt(Bool),
  platform_identity_scope: opt(Open),
  legacy_barriers: opt(Open)
})
export const LegacyImportAnswer = Schema.Struct({
  imported: opt(Schema.Array(Schema.String)),
  skipped: opt(Schema.Array(Schema.Struct({ key: Schema.String, reason: Schema.String }))),
  barrier: opt(Schema.Literal("pending", "cleared")),
  ...persisted
})
export const WaiveAnswer = Schema.Struct({ platform: opt(Schema.String), barrier: opt(Schema.String), ...persisted })
export const ReconcileAnswer = Schema.Struct({ scanned: opt(Num), applied: opt(Num), gated: opt(Num), ...persisted })
export const ScopeAnswer = Schema.Struct({
  platform: Schema.String,
  channel: opt(Schema.String),
  actor_scope: opt(Schema.String),
  conversation_scope: opt(Schema.String),
  asserted_by: opt(Schema.String),
  asserted_at: opt(Schema.String),
  ...persisted
})
export const EnsureAnswer = Schema.Struct({ account_id: Schema.String, entity_id: Schema.String, ...persisted })
export const BindAnswer = Schema.Struct({
  account_id: Schema.String,
  entity_id: opt(NullStr),
  changed: opt(Bool),
  merged: opt(Bool),
  bound_by: opt(NullStr),
  ...persisted
})
export const UnbindAnswer = Schema.Struct({
  account_id: Schema.String,
  entity_id: opt(NullStr),
  previous_entity_id: opt(NullStr),
  changed: opt(Bool),
  reason: opt(Schema.String),
  ledger_delta: opt(Num),
  effective_delta: opt(Num),
  stranded_rows: Schema.NullOr(Num),
  ...persisted
})
export const MergeAnswer = Schema.Struct({ entity_id: opt(NullStr), ...persisted })
export const ForgetEntityAnswer = Schema.Struct({
  entity_id: opt(NullStr),
  changed: opt(Bool),
  accounts: opt(Schema.Array(Schema.String)),
  ...persisted
})
