/**
 * The `local` provider's near-duplicate arbitration, by token overlap: nearly the same words → merge (keep
 * the existing fact); much the same but with new numbers → replace (the candidate updates it); else both.
 */
import { dice, recallTokens } from "../../recall/Tokenize.js"

const digits = (text: string) => new Set(text.match(/\d+/g) ?? [])

export const localArbitration = (
  pairs: ReadonlyArray<{ readonly candidate: string; readonly existing: string }>
): Array<{ readonly index: number; readonly action: "merge" | "replace" | "keep_both" }> =>
  pairs.map((p, index) => {
    const overlap = dice(recallTokens(p.candidate.toLowerCase()), recallTokens(p.existing.toLowerCase()))
    const old = digits(p.existing)
    const updated = [...digits(p.candidate)].some((d) => !old.has(d))
    if (updated && overlap >= 0.5) return { index, action: "replace" }
    if (overlap >= 0.75) return { index, action: "merge" }
    return { index, action: "keep_both" }
  })
