/**
 * Fact records in N.E.K.O.'s `facts.json` shape (neko-compat §2.3) plus kioku's `source_row_ids` (the
 * `time_indexed_original` rows a fact came from). Unknown fields are kept. Pure helpers: the 16-hex text
 * hash, the `fact_<YYYYMMDDHHMMSS>_<hash8>` id, the importance clamp and the event window from a relative
 * `event_when`.
 */
import { Schema } from "effect"
import { createHash } from "node:crypto"
import { localIso } from "../domain/LocalTime.js"

const Rest = Schema.Record({ key: Schema.String, value: Schema.Unknown })
const Unit = Schema.Literal("minute", "hour", "day", "week", "month", "year")
export const Offset = Schema.Struct({ offset: Schema.Number, unit: Unit })
export type Offset = typeof Offset.Type
export const EventWhenRaw = Schema.NullOr(
  Schema.Struct({ start: Schema.optional(Schema.NullOr(Offset)), end: Schema.optional(Schema.NullOr(Offset)) })
)
export type EventWhenRaw = typeof EventWhenRaw.Type

export const Fact = Schema.Struct(
  {
    id: Schema.String,
    text: Schema.String,
    importance: Schema.optionalWith(Schema.Number, { default: () => 5 }),
    entity: Schema.optionalWith(Schema.String, { default: () => "master" }),
    source: Schema.optionalWith(Schema.String, { default: () => "user_observation" }),
    tags: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
    hash: Schema.String,
    created_at: Schema.String,
    event_when_raw: Schema.optionalWith(Schema.Unknown, { default: () => null }),
    event_start_at: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
    event_end_at: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
    schema_version: Schema.optionalWith(Schema.Number, { default: () => 2 }),
    absorbed: Schema.optionalWith(Schema.Boolean, { default: () => false }),
    signal_processed: Schema.optionalWith(Schema.Boolean, { default: () => true }),
    source_row_ids: Schema.optional(Schema.Array(Schema.Number))
  },
  Rest
)
export type Fact = typeof Fact.Type
export const FactsFile = Schema.Array(Fact)

export const ENTITIES = ["master", "neko", "relationship"] as const
export const SOURCES = ["user_observation", "ai_disclosure"] as const

export const textHash = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 16)

export const clampImportance = (value: unknown): number => {
  const n = typeof value === "number" ? Math.round(value) : Number.NaN
  return Number.isFinite(n) ? Math.min(10, Math.max(1, n)) : 5
}

const unitMillis: Readonly<Record<Offset["unit"], number>> = {
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
  year: 365 * 86_400_000
}

/** `event_start_at` (falling back to the creation time) and `event_end_at` from a relative `event_when`. */
export const eventWindow = (raw: EventWhenRaw, createdMillis: number) => {
  const at = (o: Offset | null | undefined) => (o ? localIso(createdMillis + o.offset * unitMillis[o.unit]) : null)
  return { event_start_at: at(raw?.start) ?? localIso(createdMillis), event_end_at: at(raw?.end) }
}

const stamp = (iso: string) => iso.slice(0, 19).replace(/[-T:]/g, "")

export const factId = (createdIso: string, hash: string) => `fact_${stamp(createdIso)}_${hash.slice(0, 8)}`
