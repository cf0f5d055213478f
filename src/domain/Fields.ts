/**
 * Schema building blocks shared by the view records (reflections, persona entries): a field with a
 * default filled on decode, a nullable string, and the record of unknown fields that is kept as it is.
 */
import { Schema } from "effect"

export const Rest = Schema.Record({ key: Schema.String, value: Schema.Unknown })
export const opt = <S extends Schema.Schema.AnyNoContext>(s: S, d: () => Schema.Schema.Type<S>) =>
  Schema.optionalWith(s, { default: d })
export const NullStr = Schema.NullOr(Schema.String)
