/**
 * Picking follow-up topics (neko-compat §4.8): pending reflections whose cooldown has passed (an unreadable
 * `next_eligible_at` counts as passed) and whose score is not negative, de-duplicated by their normalised
 * first 120 characters; more than `k` are sampled without replacement, by weight when `weighted`
 * (Efraimidis–Spirakis, weight = max(score, 0) + base) and uniformly otherwise, else all are taken.
 * `uniforms` supplies the random numbers.
 */
import { parseLocal } from "../domain/LocalTime.js"
import type { Reflection } from "./Reflection.js"

export const eligible = (
  reflections: ReadonlyArray<Reflection>,
  nowMillis: number,
  scoreOf: (r: Reflection) => number
): Array<{ readonly reflection: Reflection; readonly score: number }> => {
  const seen = new Set<string>()
  const out: Array<{ readonly reflection: Reflection; readonly score: number }> = []
  for (const r of reflections) {
    if (r.status !== "pending") continue
    const next = r.next_eligible_at === null ? undefined : parseLocal(r.next_eligible_at)
    if (next !== undefined && next > nowMillis) continue
    const s = scoreOf(r)
    if (s < 0) continue
    const key = r.text.replace(/\s+/g, " ").trim().slice(0, 120)
    if (seen.has(key)) continue
    seen.add(key)
    out.push({ reflection: r, score: s })
  }
  return out
}

export const pickFollowups = (
  candidates: ReadonlyArray<{ readonly reflection: Reflection; readonly score: number }>,
  k: number,
  weighting: { readonly weighted: boolean; readonly base: number },
  uniforms: ReadonlyArray<number>
): Array<Reflection> => {
  if (candidates.length <= k) return candidates.map((c) => c.reflection)
  const weight = (score: number) => (weighting.weighted ? Math.max(score, 0) + weighting.base : 1)
  return candidates
    .map((c, i) => ({ c, key: Math.pow(uniforms[i] ?? 0.5, 1 / weight(c.score)) }))
    .sort((a, b) => b.key - a.key)
    .slice(0, k)
    .map((x) => x.c.reflection)
}
