/**
 * Character-card sync (neko-compat §2.5): every non-reserved, non-empty scalar or list field of the
 * character's card (→ `neko`) and of the master's profile (→ `master`) becomes one protected entry
 * `"<field>: <value>"` (lists joined with `、`; `__ai_context.*` fields keep the value only) with the id
 * `card_<hash>`, in card field order. A changed text is updated in place (evidence kept, text-derived caches
 * cleared), a removed field drops its entry. Returns the section's new card entries, or undefined when
 * nothing changed.
 */
import { cardEntryId, newEntry, type PersonaEntry } from "./Persona.js"

export const reservedFields = new Set([
  "_reserved",
  "character_id",
  "live2d",
  "voice_id",
  "system_prompt",
  "model_type",
  "live3d_sub_type",
  "vrm",
  "vrm_animation",
  "lighting",
  "vrm_rotation",
  "live2d_item_id",
  "live2d_idle_animation",
  "item_id",
  "idleAnimation",
  "idleAnimations",
  "mmd",
  "mmd_animation",
  "mmd_idle_animation",
  "mmd_idle_animations",
  "touch_set",
  "_field_order",
  "原始数据",
  "文件路径",
  "创意工坊物品ID",
  "description",
  "tags",
  "name",
  "描述",
  "标签",
  "关键词"
])

const valueText = (v: unknown): string | undefined => {
  if (v === null || v === undefined) return undefined
  if (Array.isArray(v)) return v.length === 0 ? undefined : v.map(String).join("、")
  if (typeof v === "object") return undefined
  const text = String(v)
  return text.trim() === "" ? undefined : text
}

export const cardLines = (
  entity: string,
  card: Readonly<Record<string, unknown>>
): Array<{ readonly id: string; readonly text: string }> =>
  Object.entries(card).flatMap(([field, v]) => {
    if (reservedFields.has(field)) return []
    const value = valueText(v)
    if (value === undefined) return []
    return [{ id: cardEntryId(entity, field), text: field.startsWith("__ai_context.") ? value : `${field}: ${value}` }]
  })

/** Caches derived from an entry's text (N.E.K.O.'s token count and embedding triples), cleared when it changes. */
const staleCaches = {
  token_count: null,
  token_count_text_sha256: null,
  token_count_tokenizer: null,
  embedding: null,
  embedding_text_sha256: null,
  embedding_model_id: null
}

export const syncCard = (
  entity: string,
  existing: ReadonlyArray<PersonaEntry>,
  card: Readonly<Record<string, unknown>>,
  nowIso: string
): Array<PersonaEntry> | undefined => {
  const current = existing.filter((e) => e.source === "character_card")
  const byId = new Map(current.map((e) => [e.id, e]))
  const next = cardLines(entity, card).map(({ id, text }) => {
    const old = byId.get(id)
    if (old === undefined) return newEntry({ id, text, source: "character_card", createdAt: nowIso, protected: true })
    return old.text === text ? old : { ...old, ...staleCaches, text }
  })
  const same = next.length === current.length && next.every((e, i) => e === current[i])
  return same ? undefined : next
}
