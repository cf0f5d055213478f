/**
 * The `local` provider's persona corrections (§4.7): for each queued (old, new) pair, the same text after
 * whitespace and case normalisation → keep_old; keyword overlap |A∩B| / min(|A|,|B|) ≥ 0.4 with exactly one
 * side carrying a negation cue → keep_new (a reversal: the newer statement wins); new's keywords within old's →
 * keep_old (nothing new); old's within new's → keep_new (new says more); overlap ≥ 0.4 → keep_new (same
 * subject, the newer statement wins); else keep_both. It never merges, and reads polarity from cue words only.
 */
import type { PersonaCorrections } from "../../llm/prompts/contracts.js"
import { isNegated, isSubset, keywords, overlap } from "./LocalOverlap.js"

type Correction = (typeof PersonaCorrections.Type)[number]

const normal = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase()

export const localCorrections = (
  pairs: ReadonlyArray<{ readonly old: string; readonly new: string }>,
  names: ReadonlyArray<string> = []
): Array<Correction> =>
  pairs.map((p, index): Correction => {
    if (normal(p.old) === normal(p.new)) return { index, action: "keep_old" }
    const old = keywords(p.old, names)
    const fresh = keywords(p.new, names)
    const related = overlap(old, fresh) >= 0.4
    if (related && isNegated(p.old, names) !== isNegated(p.new, names)) return { index, action: "keep_new" }
    if (isSubset(fresh, old)) return { index, action: "keep_old" }
    if (isSubset(old, fresh)) return { index, action: "keep_new" }
    return { index, action: related ? "keep_new" : "keep_both" }
  })
