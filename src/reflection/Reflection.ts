/**
 * Reflection records in N.E.K.O.'s `reflections.json` shape (neko-compat §2.4): the core fields, evidence,
 * promotion and suppression bookkeeping, with their defaults filled on load. Unknown fields are kept.
 */
import { Schema } from "effect"
import { evidenceFields, NullStr, opt, Rest } from "../domain/Fields.js"

export const Reflection = Schema.Struct(
  {
    id: Schema.String,
    text: Schema.String,
    entity: opt(Schema.String, () => "master"),
    status: opt(Schema.String, () => "pending"),
    source_fact_ids: opt(Schema.Array(Schema.String), () => []),
    created_at: Schema.String,
    feedback: opt(Schema.NullOr(Schema.String), () => null),
    next_eligible_at: opt(NullStr, () => null),
    relation_type: opt(NullStr, () => null),
    temporal_scope: opt(NullStr, () => null),
    subject: opt(NullStr, () => null),
    event_when_raw: opt(Schema.Unknown, () => null),
    event_start_at: opt(NullStr, () => null),
    event_end_at: opt(NullStr, () => null),
    schema_version: opt(Schema.Number, () => 2),
    ...evidenceFields,
    promote_attempt_count: opt(Schema.Number, () => 0),
    last_promote_attempt_at: opt(NullStr, () => null),
    recent_mentions: opt(Schema.Array(Schema.String), () => []),
    suppress: opt(Schema.Boolean, () => false)
  },
  Rest
)
export type Reflection = typeof Reflection.Type
export const ReflectionsFile = Schema.Array(Reflection)
