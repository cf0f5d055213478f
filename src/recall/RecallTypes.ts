/**
 * The shapes of `/query_memory` (neko-compat §1.4): the request body and the response with its rows; and
 * what recall reads of a character (`RecallHost`).
 */
import { Schema } from "effect"
import type { FactArchive } from "../facts/FactArchive.js"
import type { VectorsHost } from "../vectors/VectorsHost.js"

/** Facts (active and archived), reflections, persona and their vectors. */
export type RecallHost = VectorsHost & { readonly archive: FactArchive }

/**
 * A memory subject as N.E.K.O. takes it (neko-compat §1.7): `subject_kind` (or `kind`), `subject_id`, and an
 * optional `scope` (default `<kind>:<id>`). Whether the values form a valid subject is checked by recall.
 */
export const Subject = Schema.Struct(
  {
    subject_kind: Schema.optional(Schema.NullOr(Schema.String)),
    kind: Schema.optional(Schema.NullOr(Schema.String)),
    subject_id: Schema.optional(Schema.NullOr(Schema.String)),
    scope: Schema.optional(Schema.NullOr(Schema.String))
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)

export const QueryRequest = Schema.Struct({
  query: Schema.optional(Schema.NullOr(Schema.String)),
  time: Schema.optional(Schema.NullOr(Schema.String)),
  subjects: Schema.optional(Schema.Array(Subject)),
  language: Schema.optional(Schema.NullOr(Schema.String))
})
export type QueryRequest = typeof QueryRequest.Type

export const RecallRow = Schema.Struct({
  id: Schema.String,
  text: Schema.String,
  tier: Schema.Literal("fact", "reflection", "fact_archive", "turn"),
  entity: Schema.String,
  subject_kind: Schema.NullOr(Schema.String),
  subject_id: Schema.NullOr(Schema.String),
  scope: Schema.String,
  score: Schema.NullOr(Schema.Number),
  created_at: Schema.NullOr(Schema.String),
  event_start_at: Schema.NullOr(Schema.String),
  event_end_at: Schema.NullOr(Schema.String),
  /** The `time_indexed_original` rows a `turn` row came from. */
  source_row_ids: Schema.optional(Schema.Array(Schema.Number))
})
export type RecallRow = typeof RecallRow.Type

export const QueryResult = Schema.Struct({
  results: Schema.Array(RecallRow),
  query: Schema.String,
  candidates_total: Schema.Number,
  elapsed_ms: Schema.Number,
  time: Schema.optional(Schema.String),
  error_code: Schema.optional(Schema.String)
})
export type QueryResult = typeof QueryResult.Type
