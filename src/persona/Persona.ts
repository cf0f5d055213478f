/**
 * `persona.json` in N.E.K.O.'s shape (neko-compat §2.5): an object of sections (`neko`, `master`,
 * `relationship`, `__meta__`, scoped `@subject/…`), each `{"facts": [entry…]}`; entries carry their text,
 * source, protection (character-card lines only), mention/suppression bookkeeping, evidence and up to five
 * earlier versions. Defaults are filled on load; unknown fields are kept. Also the correction queue
 * `persona_corrections.json`.
 */
import { Schema } from "effect"
import { evidenceFields, NullStr, opt, Rest } from "../domain/Fields.js"
import { createHash } from "node:crypto"
import { emptyEvidence } from "../reflection/evidence/Evidence.js"
import { isLegacyPrivate, SCOPED_PERSONA_PREFIX } from "../domain/Subject.js"
import { memoString } from "../domain/Memo.js"

export const PersonaEntry = Schema.Struct(
  {
    id: Schema.String,
    text: opt(Schema.String, () => ""),
    source: opt(Schema.String, () => "manual"),
    source_id: opt(NullStr, () => null),
    protected: opt(Schema.Boolean, () => false),
    created_at: opt(NullStr, () => null),
    recent_mentions: opt(Schema.Array(Schema.String), () => []),
    suppress: opt(Schema.Boolean, () => false),
    suppressed_at: opt(NullStr, () => null),
    ...evidenceFields,
    merged_from_ids: opt(Schema.Array(Schema.String), () => []),
    version_history: opt(Schema.Array(Rest), () => [])
  },
  Rest
)
export type PersonaEntry = typeof PersonaEntry.Type

export const PersonaSection = Schema.Struct({ facts: opt(Schema.Array(PersonaEntry), () => []) }, Rest)
export type PersonaSection = typeof PersonaSection.Type

export const PersonaFile = Schema.Record({ key: Schema.String, value: PersonaSection })
export type PersonaFile = typeof PersonaFile.Type

/** The entity sections every persona has, in N.E.K.O.'s creation order. */
export const entitySections = ["neko", "master", "relationship"] as const
export const META = "__meta__"

export const Correction = Schema.Struct(
  {
    correction_id: Schema.String,
    old_text: Schema.String,
    new_text: Schema.String,
    entity: Schema.String,
    created_at: Schema.String,
    resolve_attempts: opt(Schema.Number, () => 0),
    old_id: opt(NullStr, () => null),
    new_source: opt(Schema.String, () => "manual"),
    new_source_id: opt(NullStr, () => null)
  },
  Rest
)
export type Correction = typeof Correction.Type
export const CorrectionsFile = Schema.Array(Correction)

const sha8 = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 8)

/** Card ids are hashed on every card sync (before each render): kept by key. */
const cardId = memoString((key: string) => `card_${sha8(key)}`, 4096)
/** `card_<8 hex of sha256("<entity>:<field>")>`: the id of a character-card line. */
export const cardEntryId = (entity: string, field: string): string => cardId(`${entity}:${field}`)

/** `manual_<YYYYMMDDHHMMSS>_<8 hex>` from a local ISO timestamp and the text. */
export const manualEntryId = (nowIso: string, text: string): string =>
  `manual_${nowIso.slice(0, 19).replace(/\D/g, "")}_${sha8(`${nowIso}:${text}`)}`

export const newEntry = (fields: {
  readonly id: string
  readonly text: string
  readonly source: string
  readonly sourceId?: string
  readonly createdAt: string
  readonly protected?: boolean
}): PersonaEntry => ({
  id: fields.id,
  text: fields.text,
  source: fields.source,
  source_id: fields.sourceId ?? null,
  protected: fields.protected ?? false,
  created_at: fields.createdAt,
  recent_mentions: [],
  suppress: false,
  suppressed_at: null,
  ...emptyEvidence,
  merged_from_ids: [],
  version_history: []
})

/** v1 keys: `user` → `master`, `ai` → `neko`, `dynamics` → `facts`; then the three entity sections exist. */
export const migrateKeys = (raw: Readonly<Record<string, unknown>>): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(raw)) {
    const k = key === "user" && !("master" in raw) ? "master" : key === "ai" && !("neko" in raw) ? "neko" : key
    if (typeof value === "object" && value !== null && !Array.isArray(value) && "dynamics" in value) {
      const { dynamics, ...rest } = value
      out[k] = { ...rest, facts: dynamics }
    } else out[k] = value
  }
  return out
}

/** Every entry with the section it lives in, in file order. */
export const entriesOf = (p: PersonaFile): Array<{ readonly section: string; readonly entry: PersonaEntry }> =>
  Object.entries(p).flatMap(([section, s]) => s.facts.map((entry) => ({ section, entry })))

/** The private part of a persona: no `@subject/…` section and no entry stamped with a group-chat subject. */
export const privateView = (p: PersonaFile): PersonaFile =>
  Object.fromEntries(
    Object.entries(p).flatMap(([key, s]) =>
      key.startsWith(SCOPED_PERSONA_PREFIX) ? [] : [[key, { ...s, facts: s.facts.filter(isLegacyPrivate) }]]
    )
  )
