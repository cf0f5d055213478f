/**
 * The `local` provider's promotion merge (§4.6), for a confirmed reflection about to become persona knowledge:
 * an entry holding ≥ 90% of its keywords → reject, "already_covered" ("contradicts_entry" when exactly one of
 * the two carries a negation cue); else the non-protected entry it overlaps most, at |A∩B| / min(|A|,|B|) ≥
 * 0.5 → merge_into, the merged text being the entry's then the reflection's ("；" between them when the entry
 * is mostly CJK, "; " otherwise), or the reflection alone when it already contains the entry; else
 * promote_fresh. It never rewrites: a merged text is two statements side by side.
 */
import { stripNames } from "../../recall/Tokenize.js"
import type { PromotionMerge } from "../../llm/prompts/contracts.js"
import { coverage, isCjkMajority, isNegated, keywords, overlap } from "./LocalOverlap.js"
import { withFields } from "../../domain/Shapes.js"

const normal = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase()

export const localPromotion = (input: {
  readonly reflection: string
  readonly entries: ReadonlyArray<{ readonly id: string; readonly text: string; readonly protected: boolean }>
  readonly names: ReadonlyArray<string>
}): typeof PromotionMerge.Type => {
  const keys = keywords(input.reflection, input.names)
  const entries = input.entries.map((e) => withFields(e, { keys: keywords(e.text, input.names) }))
  const covering = entries.find((e) => coverage(e.keys, keys) >= 0.9)
  if (covering !== undefined) {
    const flipped = isNegated(covering.text, input.names) !== isNegated(input.reflection, input.names)
    return { action: "reject", target_id: covering.id, reason: flipped ? "contradicts_entry" : "already_covered" }
  }
  const best = entries
    .filter((e) => !e.protected)
    .map((e) => ({ entry: e, score: overlap(e.keys, keys) }))
    .filter((c) => c.score >= 0.5)
    .sort((a, b) => b.score - a.score)[0]
  if (best === undefined) return { action: "promote_fresh", reason: "no_overlapping_entry" }
  const { entry } = best
  const reflection = input.reflection.trim()
  const head = entry.text.trim().replace(/[\s.;。；!！]+$/u, "")
  const merged = normal(reflection).includes(normal(head))
    ? reflection
    : head + (isCjkMajority(stripNames(entry.text, input.names)) ? "；" : "; ") + reflection
  return { action: "merge_into", target_id: entry.id, merged_text: merged, reason: "local_keyword_overlap" }
}
