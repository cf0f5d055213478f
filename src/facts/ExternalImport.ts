/**
 * External Markdown import (OpenClaw / Hermes workspaces, neko-compat §1.6): the request and outcome shapes
 * that cross the actor and the cluster, N.E.K.O.'s limits, and the pure rules — the order-preserving per-day
 * fingerprint salted with the date, and the fact records an import appends (importance 7 for `MEMORY.md`
 * lines, `signal_processed` true, the day's midnight as `event_start_at` for journal facts).
 */
import { Schema } from "effect"
import { createHash } from "node:crypto"
import { clampImportance, factId, textHash, type Fact } from "./Fact.js"

export const MAX_CANDIDATES = 1000
export const MAX_CANDIDATE_CHARS = 8000
export const MAX_NEW_DAYS = 45

export const SourceFormat = Schema.Literal("openclaw", "hermes")
export type SourceFormat = typeof SourceFormat.Type
export const Entity = Schema.Literal("master", "neko", "relationship")

export const Candidate = Schema.Struct({
  text: Schema.String,
  entity: Entity,
  target: Schema.Literal("persona", "facts"),
  source_file: Schema.String,
  source_section: Schema.String,
  event_date: Schema.NullOr(Schema.String)
})
export type Candidate = typeof Candidate.Type

export const ImportRequest = Schema.Struct({
  source_format: SourceFormat,
  imported_files: Schema.Array(Schema.String),
  candidates: Schema.Array(Candidate)
})
export type ImportRequest = typeof ImportRequest.Type

/** `success`, or the 413 (`too_large`) / 500 (`partial`) answers with what was added before the stop. */
export const ImportOutcome = Schema.Struct({
  status: Schema.Literal("success", "too_large", "partial"),
  detail: Schema.String,
  added_persona: Schema.Number,
  added_facts: Schema.Number,
  skipped_duplicates: Schema.Number
})
export type ImportOutcome = typeof ImportOutcome.Type

const norm = (text: string) => text.toLowerCase().split(/\s+/).filter(Boolean).join(" ")
const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex")

/** One journal day's fingerprint: its fragments in order, whitespace and case folded, salted with the date. */
export const dayFingerprint = (date: string, texts: ReadonlyArray<string>): string =>
  sha(`${date}\n${texts.map(norm).join("\n")}`)

/** A valid `YYYY-MM-DD` calendar date. */
export const isDate = (value: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false
  const d = new Date(`${value}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value
}

/** The hash a fact is deduplicated by: its text, or the day and its text for a journal fact. */
export const importHash = (text: string, date: string | null): string => textHash(date ? `${date}\n${text}` : text)

export const importedFact = (fields: {
  readonly text: string
  readonly importance: number
  readonly entity: string
  readonly source: string
  readonly created: string
  readonly date: string | null
  readonly provenance: Readonly<Record<string, unknown>>
}): Fact => {
  const hash = importHash(fields.text, fields.date)
  return {
    id: factId(fields.created, hash),
    text: fields.text,
    importance: clampImportance(fields.importance),
    entity: fields.entity,
    source: fields.source,
    tags: [],
    hash,
    created_at: fields.created,
    event_when_raw: null,
    event_start_at: fields.date ? `${fields.date}T00:00:00` : fields.created,
    event_end_at: null,
    schema_version: 2,
    absorbed: false,
    signal_processed: true,
    external_import: { ...fields.provenance }
  }
}
