/**
 * Memory subjects of group-chat ("scoped") memory (neko-compat §1.7): a group chat, a participant, or a
 * participant inside one group, each with an isolation scope (default `<kind>:<id>`). Scoped rows carry
 * `subject_kind`, `subject_id` and `scope` in the same files as private rows; a row with none of the three
 * is `legacy_private`, and a row with only some of them is malformed and belongs to no read at all. Ids
 * joined from components percent-escape `%` and `:` so two owners can never share a key.
 */
import { Either, Schema } from "effect"

export const SUBJECT_KINDS = ["group_chat", "participant", "group_participant"] as const
export type SubjectKind = (typeof SUBJECT_KINDS)[number]
export const LEGACY_PRIVATE_SCOPE = "legacy_private"
export const SCOPED_PERSONA_PREFIX = "@subject/"

export interface MemorySubject {
  readonly kind: SubjectKind
  readonly subjectId: string
  readonly scope: string
}

/** The wire form of a subject in request bodies. */
export const SubjectWire = Schema.Struct({
  subject_kind: Schema.Literal(...SUBJECT_KINDS),
  subject_id: Schema.String,
  scope: Schema.optional(Schema.NullOr(Schema.String))
})
export type SubjectWire = typeof SubjectWire.Type

export interface SubjectFields {
  readonly subject_kind: SubjectKind
  readonly subject_id: string
  readonly scope: string
}

const clean = (value: unknown, field: string): Either.Either<string, string> => {
  if (typeof value !== "string") return Either.left(`${field} must be a string`)
  const v = value.trim()
  if (v === "") return Either.left(`${field} must not be empty`)
  if (v.length > 256) return Either.left(`${field} is too long`)
  if (/[\u0000-\u001f]/.test(v)) return Either.left(`${field} contains control characters`)
  return Either.right(v)
}

const isKind = (value: string): value is SubjectKind => (SUBJECT_KINDS as ReadonlyArray<string>).includes(value)

/** A subject from its parts, with the default scope when `scope` is absent; `Left` carries N.E.K.O.'s message. */
export const makeSubject = (kind: unknown, subjectId: unknown, scope?: unknown): Either.Either<MemorySubject, string> =>
  Either.gen(function* () {
    const k = yield* clean(kind, "subject_kind")
    if (!isKind(k)) return yield* Either.left(`unsupported subject_kind: '${k}'`)
    const id = yield* clean(subjectId, "subject_id")
    if (k === "group_participant") {
      const parts = id.split(":")
      if (parts.length !== 3 || parts.some((p) => p === ""))
        return yield* Either.left("group_participant subject_id must be platform:group:speaker")
    }
    const s = yield* clean(scope === undefined || scope === null ? `${k}:${id}` : scope, "scope")
    if (s === LEGACY_PRIVATE_SCOPE) return yield* Either.left("new subjects cannot use legacy_private scope")
    return { kind: k, subjectId: id, scope: s }
  })

export const subjectFromWire = (wire: SubjectWire): Either.Either<MemorySubject, string> =>
  makeSubject(wire.subject_kind, wire.subject_id, wire.scope)

const escape = (value: string) => value.replace(/%/g, "%25").replace(/:/g, "%3A")
const joined = (parts: ReadonlyArray<string>, names: ReadonlyArray<string>) =>
  Either.map(Either.all(parts.map((p, i) => clean(p, names[i] ?? "id"))), (cs) => cs.map(escape).join(":"))

export const groupChat = (platform: string, conversationId: string) =>
  Either.flatMap(joined([platform, conversationId], ["platform", "conversation_id"]), (id) =>
    makeSubject("group_chat", id)
  )
export const participant = (platform: string, actorId: string) =>
  Either.flatMap(joined([platform, actorId], ["platform", "actor_id"]), (id) => makeSubject("participant", id))
export const groupParticipant = (platform: string, conversationId: string, actorId: string) =>
  Either.flatMap(joined([platform, conversationId, actorId], ["platform", "conversation_id", "actor_id"]), (id) =>
    makeSubject("group_participant", id)
  )

/** `kind:subjectId`: the subject's key (the scope is the second half of its identity). */
export const subjectKey = (s: MemorySubject): string => `${s.kind}:${s.subjectId}`
/** Key and scope: two rows belong to the same subject exactly when their markers are equal. */
export const subjectMarker = (s: MemorySubject): string => `${subjectKey(s)}\u0000${s.scope}`
export const personaSectionKey = (s: MemorySubject): string => `${SCOPED_PERSONA_PREFIX}${subjectKey(s)}`
export const subjectFields = (s: MemorySubject): SubjectFields => ({
  subject_kind: s.kind,
  subject_id: s.subjectId,
  scope: s.scope
})

type Row = { readonly [key: string]: unknown }

/** The subject a stored row is stamped with; `undefined` for legacy-private and for malformed stamps. */
export const subjectOfRow = (row: Row): MemorySubject | undefined => {
  const { subject_kind, subject_id, scope } = row
  if (subject_kind == null || subject_id == null || scope == null) return undefined
  return Either.getOrUndefined(makeSubject(subject_kind, subject_id, scope))
}

/** Only a row with none of the three stamp fields belongs to the private (pre-group-chat) corpus. */
export const isLegacyPrivate = (row: Row): boolean =>
  row.subject_kind == null && row.subject_id == null && row.scope == null

/** The private rows of `rows` (the same array when every row is private, so caches keep their identity). */
export const privateRows = <R extends Row>(rows: ReadonlyArray<R>): ReadonlyArray<R> =>
  rows.every(isLegacyPrivate) ? rows : rows.filter(isLegacyPrivate)

/** Whether a stored row is stamped with one of `subjects` (kind, id and scope equal; never a private row). */
export const stampedWith = (subjects: ReadonlyArray<MemorySubject>) => {
  const allowed = new Set(subjects.map(subjectMarker))
  return (row: Row): boolean => {
    const s = subjectOfRow(row)
    return s !== undefined && allowed.has(subjectMarker(s))
  }
}

/** Rows a read for `subjects` may see: exactly those subjects' rows, never legacy-private ones. */
export const rowsOfSubjects = <R extends Row>(rows: ReadonlyArray<R>, subjects: ReadonlyArray<MemorySubject>) =>
  rows.filter(stampedWith(subjects))

/** Subjects without repeats (same kind, id and scope), in their order. */
export const distinctSubjects = (subjects: ReadonlyArray<MemorySubject>): ReadonlyArray<MemorySubject> => {
  const seen = new Set<string>()
  return subjects.filter((s) => !seen.has(subjectMarker(s)) && (seen.add(subjectMarker(s)), true))
}
