/**
 * What recall knows about one memory (neko-compat §4.10): active facts, pending/confirmed reflections and
 * archived facts projected to the fields recall reads. The projection settles everything that does not
 * depend on the clock: the subject partition (legacy-private, one explicit subject, or malformed and never
 * recalled), the event window (anchor = end → start → created_at), and the time-independent hard filter
 * (empty text, `suppress`/`suppressed`, `protected`, a stored negative `score`, reflections not pending or
 * confirmed, archive rows with an archive marker). Only a disputed reflection keeps its evidence snapshot,
 * because its score is computed at query time (N.E.K.O. scores reflections only once disputed). Also the
 * partition keys a request's subjects name (`partitionsOf`).
 */
import { Effect, Either } from "effect"
import { parseLocal } from "../domain/LocalTime.js"
import { isLegacyPrivate, LEGACY_PRIVATE_SCOPE, makeSubject, subjectMarker, subjectOfRow } from "../domain/Subject.js"
import type { QueryRequest } from "./RecallTypes.js"
import type { Evidence } from "../reflection/evidence/Evidence.js"
import type { Fact } from "../facts/Fact.js"
import type { Reflection } from "../reflection/Reflection.js"

export type Tier = "fact" | "reflection" | "fact_archive"

export const LEGACY_PRIVATE = LEGACY_PRIVATE_SCOPE

export interface RecallEntry {
  readonly id: string
  readonly text: string
  readonly tier: Tier
  readonly entity: string
  readonly subjectKind: string | null
  readonly subjectId: string | null
  readonly scope: string | null
  readonly createdAt: string | null
  readonly eventStartAt: string | null
  readonly eventEndAt: string | null
  /** `legacy_private`, a subject key (`subjectMarker` of domain/Subject.ts), or undefined for a malformed descriptor. */
  readonly partition: string | undefined
  /** The event's closed interval in epoch ms; undefined without any parsable time. */
  readonly window: readonly [number, number] | undefined
  /** Dropped by the time-independent part of the hard filter. */
  readonly blocked: boolean
  /** The evidence of a disputed reflection, scored at query time. */
  readonly evidence: Evidence | undefined
  /** The `time_indexed_original` rows a fact was extracted from (kioku's `source_row_ids`; empty if unknown). */
  readonly sourceRowIds: ReadonlyArray<number>
}

const partitionOf = (row: Readonly<Record<string, unknown>>): string | undefined => {
  if (isLegacyPrivate(row)) return LEGACY_PRIVATE
  const subject = subjectOfRow(row)
  return subject === undefined ? undefined : subjectMarker(subject)
}

/** Python truthiness for the flags N.E.K.O. tests with `if row.get(flag)`. */
const truthy = (v: unknown): boolean =>
  v === undefined || v === null || v === false || v === 0 || v === ""
    ? false
    : Array.isArray(v)
      ? v.length > 0
      : typeof v === "object"
        ? Object.keys(v).length > 0
        : true

const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/
const aware = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i

/** Epoch ms of an ISO timestamp: naive (local clock), date only (local midnight) or with an offset. */
export const parseInstant = (text: unknown): number | undefined => {
  if (typeof text !== "string") return undefined
  const t = text.trim()
  const naive = parseLocal(t)
  if (naive !== undefined) return naive
  const d = dateOnly.exec(t)
  if (d) {
    const value = new Date(Number(d[1]), Number(d[2]) - 1, Number(d[3])).getTime()
    return new Date(value).getDate() === Number(d[3]) ? value : undefined
  }
  if (!aware.test(t)) return undefined
  const value = Date.parse(t.replace(" ", "T"))
  return Number.isNaN(value) ? undefined : value
}

/** The event interval: [start or anchor, end or anchor], swapped when written backwards. */
export const eventWindow = (start: unknown, end: unknown, created: unknown): readonly [number, number] | undefined => {
  const s = parseInstant(start)
  const e = parseInstant(end)
  const anchor = e ?? s ?? parseInstant(created)
  if (anchor === undefined) return undefined
  const from = s ?? anchor
  const to = e ?? anchor
  return to < from ? [to, from] : [from, to]
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null)

const none: ReadonlyArray<number> = []
const rowIds = (v: unknown): ReadonlyArray<number> =>
  Array.isArray(v) && v.length > 0 ? v.filter((x): x is number => typeof x === "number") : none

/** One object literal of a fixed shape for every entry (they are scanned by the hundred thousand). */
const project = (
  row: Readonly<Record<string, unknown>>,
  tier: Tier,
  blocked: boolean,
  evidence: Evidence | undefined
): RecallEntry => {
  const text = typeof row["text"] === "string" ? row["text"] : ""
  const stored = evidence === undefined ? row["score"] : undefined
  return {
    id: typeof row["id"] === "string" ? row["id"] : "",
    text,
    tier,
    entity: typeof row["entity"] === "string" ? row["entity"] : "master",
    subjectKind: str(row["subject_kind"]),
    subjectId: str(row["subject_id"]),
    scope: str(row["scope"]),
    createdAt: str(row["created_at"]),
    eventStartAt: str(row["event_start_at"]),
    eventEndAt: str(row["event_end_at"]),
    partition: partitionOf(row),
    window: eventWindow(row["event_start_at"], row["event_end_at"], row["created_at"]),
    blocked:
      blocked ||
      text.trim() === "" ||
      truthy(row["suppress"]) ||
      truthy(row["suppressed"]) ||
      truthy(row["protected"]) ||
      (typeof stored === "number" && stored < 0),
    evidence,
    sourceRowIds: rowIds(row["source_row_ids"])
  }
}

/** An active (`fact`) or archived (`fact_archive`) fact. */
export const factEntry = (fact: Fact, tier: "fact" | "fact_archive"): RecallEntry =>
  project(
    fact,
    tier,
    tier === "fact_archive" && (truthy(fact["subject_archived_at"]) || truthy(fact["arbitration_archived_at"])),
    undefined
  )

/** A reflection; only pending and confirmed ones are recallable. */
export const reflectionEntry = (r: Reflection): RecallEntry =>
  project(r, "reflection", r.status !== "pending" && r.status !== "confirmed", r.disputation > 0 ? r : undefined)

class RecallInputError {
  readonly _tag = "RecallInputError"
  constructor(readonly message: string) {}
}

/** Partition keys of the request's subjects; without subjects, private (legacy) memory. */
export const partitionsOf = (subjects: QueryRequest["subjects"]) => {
  if (subjects === undefined) return Effect.succeed([LEGACY_PRIVATE])
  if (subjects.length < 1 || subjects.length > 8) return Effect.fail(new RecallInputError("subjects must have 1..8"))
  const keys = subjects.map((s) =>
    Either.map(makeSubject(s.subject_kind || s.kind, s.subject_id, s.scope ?? undefined), subjectMarker)
  )
  const valid = keys.flatMap((k) => (Either.isRight(k) ? [k.right] : []))
  return valid.length === keys.length ? Effect.succeed(valid) : Effect.fail(new RecallInputError("invalid subject"))
}
