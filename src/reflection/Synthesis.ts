/**
 * Pure rules of reflection synthesis (neko-compat §4.4): choosing the facts (unabsorbed, importance ≥ 5,
 * optionally narrowed to a related group, at least `min_facts_for_reflection`, the top
 * `reflection_synthesis_facts_max` by importance then age), the deterministic `ref_` id of a fact set (stable
 * under any reordering, so a retried synthesis is idempotent), the backoff key, and the ontology validation of
 * a model's answer.
 */
import { createHash } from "node:crypto"
import type { Fact } from "../facts/Fact.js"

/** `ref_` + the first 16 hex of sha256 over the sorted ids, each followed by a NUL byte. */
export const reflectionId = (factIds: ReadonlyArray<string>): string => {
  const hash = createHash("sha256")
  for (const id of [...factIds].sort()) {
    hash.update(Buffer.from(id, "utf8"))
    hash.update(Buffer.from([0]))
  }
  return `ref_${hash.digest("hex").slice(0, 16)}`
}

export interface Selection {
  /** The facts the reflection is drawn from, sorted by id. */
  readonly facts: ReadonlyArray<Fact>
  readonly sourceFactIds: ReadonlyArray<string>
  readonly id: string
  /** Identifies the whole unabsorbed pool, for the synthesis dead letter. */
  readonly backoffKey: string
}

export interface SelectionLimits {
  /** Fewer eligible facts than this: nothing to synthesise. */
  readonly min: number
  /** At most this many facts go into one reflection. */
  readonly max: number
}

/**
 * `focus`, when given, narrows the eligible pool (passed oldest first) to the facts one synthesis may draw
 * from — the `local` provider's related cluster; without it a model sees the whole pool, as in N.E.K.O.
 * The id is that of the facts drawn from; the backoff key stays that of the whole pool.
 */
export const selectFacts = (
  facts: ReadonlyArray<Fact>,
  limits: SelectionLimits,
  focus?: (pool: ReadonlyArray<Fact>) => ReadonlyArray<Fact>
): Selection | undefined => {
  const pool = facts.filter((f) => !f.absorbed && f.importance >= 5)
  const min = Math.max(1, limits.min)
  if (pool.length < min) return undefined
  const drawn =
    focus === undefined
      ? pool
      : focus([...pool].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id)))
  if (drawn.length < min) return undefined
  const chosen = [...drawn]
    .sort((a, b) => b.importance - a.importance || a.created_at.localeCompare(b.created_at))
    .slice(0, Math.max(1, limits.max))
    .sort((a, b) => a.id.localeCompare(b.id))
  const sourceFactIds = chosen.map((f) => f.id)
  return {
    facts: chosen,
    sourceFactIds,
    id: reflectionId(sourceFactIds),
    backoffKey: reflectionId(pool.map((f) => f.id))
  }
}

export const ontology: Readonly<Record<"master" | "neko" | "relationship", ReadonlyArray<string>>> = {
  master: ["preference", "trait", "habit", "identity", "emotional", "boundary"],
  neko: ["self_awareness", "learned", "role_note"],
  relationship: ["dynamic", "milestone", "tension", "shared_memory", "agreement"]
}

export interface Drafted {
  readonly entity: string
  readonly relation_type: string | null
  readonly text: string
  readonly temporal_scope: string | null
}

/**
 * An unknown entity becomes `relationship`; a relation type not allowed for the entity, or a text over the
 * token limit, nulls the ontology fields (the text is kept). Empty text is not a reflection.
 */
export const validateDraft = (
  draft: Drafted,
  tokens: (text: string) => number,
  maxTokens: number
): Drafted | undefined => {
  const text = draft.text.trim()
  if (text === "") return undefined
  const entity =
    draft.entity === "master" || draft.entity === "neko" || draft.entity === "relationship"
      ? draft.entity
      : "relationship"
  const allowed = draft.relation_type !== null && ontology[entity].includes(draft.relation_type)
  const scopeOk = draft.temporal_scope === null || ["pattern", "state", "episode"].includes(draft.temporal_scope)
  if (!allowed || !scopeOk || tokens(text) > maxTokens)
    return { entity, relation_type: null, text, temporal_scope: null }
  return { entity, relation_type: draft.relation_type, text, temporal_scope: draft.temporal_scope }
}
