/**
 * Schema building blocks shared by the view records (reflections, persona entries): a field with a
 * default filled on decode, a nullable string, the record of unknown fields that is kept as it is, and
 * the evidence fields both records carry.
 */
import { Schema } from "effect"

export const Rest = Schema.Record({ key: Schema.String, value: Schema.Unknown })
export const opt = <S extends Schema.Schema.AnyNoContext>(s: S, d: () => Schema.Schema.Type<S>) =>
  Schema.optionalWith(s, { default: d })
export const NullStr = Schema.NullOr(Schema.String)

/** The evidence fields of reflections and persona entries (neko-compat §2.4, §2.5), with their defaults. */
export const evidenceFields = {
  reinforcement: opt(Schema.Number, () => 0),
  disputation: opt(Schema.Number, () => 0),
  rein_last_signal_at: opt(NullStr, () => null),
  disp_last_signal_at: opt(NullStr, () => null),
  sub_zero_days: opt(Schema.Number, () => 0),
  sub_zero_last_increment_date: opt(NullStr, () => null),
  user_fact_reinforce_count: opt(Schema.Number, () => 0)
}
