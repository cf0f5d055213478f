/**
 * The `local` provider's external-import persona merge: a candidate is kept unless its keywords overlap an
 * entry already in the section, or a candidate kept before it, by at least the given ratio (then it counts as
 * a duplicate). Kept candidates are appended as they are; nothing is rewritten.
 */
import { keywords, overlap } from "./LocalOverlap.js"

export const localFusion = (input: {
  readonly existing: ReadonlyArray<string>
  readonly candidates: ReadonlyArray<string>
  readonly names: ReadonlyArray<string>
  readonly ratio: number
}): ReadonlyArray<string> => {
  const seen = input.existing.map((text) => keywords(text, input.names))
  const kept: Array<string> = []
  for (const text of input.candidates) {
    const mine = keywords(text, input.names)
    if (mine.size === 0 || seen.some((other) => overlap(mine, other) >= input.ratio)) continue
    seen.push(mine)
    kept.push(text)
  }
  return kept
}
