/**
 * How the memory rows (facts, reflections, archived facts) and the raw-turn rows of one query become one
 * answer. Both lists are fused by reciprocal rank (Σ weight / (k + rank); the turn list weighs `turnWeight`),
 * with two rules on top:
 * - a turn that a recalled fact was extracted from (its row id is in the fact's `source_row_ids`) is not a
 *   row of its own: the fact(s) made from it take its place (a fact's score is the better of its own and its
 *   source turn's), so the answer does not spend two rows on one statement and a fact whose source turn
 *   matches stands where that turn would;
 * - a short turn that matched only through its neighbours' words is left out when a better-ranked row already shows
 *   one of those neighbours (a turn within two rows of it, or a fact made from one): it only echoes that row;
 * - the memory rows that cleared their own floors keep at least `memorySlots` of the `total` rows (fewer when
 *   fewer were found): the weakest turns give their places to the best memory rows left out.
 * Ties keep memory-first order; each row's score becomes its fused score (6 decimals).
 */
import type { RecallRow } from "./RecallTypes.js"
import { withFields } from "../domain/Shapes.js"

export interface MergeParams {
  /** Short turn rows matched only through their neighbours' terms (TurnIndex `borrowed`, TurnTier `isShort`). */
  readonly borrowed?: ReadonlySet<number> | undefined
  readonly k: number
  readonly turnWeight: number
  readonly total: number
  readonly memorySlots: number
}

interface Scored {
  readonly row: RecallRow
  score: number
  readonly order: number
  readonly memory: boolean
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6

export const mergeTiers = (
  memories: ReadonlyArray<RecallRow>,
  turns: ReadonlyArray<RecallRow>,
  sources: ReadonlyMap<string, ReadonlyArray<number>>,
  p: MergeParams
): Array<RecallRow> => {
  const total = Math.max(0, p.total)
  const scored = new Map<string, Scored>()
  const owners = new Map<number, Array<Scored>>()
  let order = 0
  memories.forEach((row, rank) => {
    const key = `${row.tier}\u0000${row.id}`
    const known = scored.get(key)
    if (known) return void (known.score += 1 / (p.k + rank + 1))
    const entry: Scored = { row, score: 1 / (p.k + rank + 1), order: order++, memory: true }
    scored.set(key, entry)
    for (const id of sources.get(row.id) ?? []) owners.set(id, [...(owners.get(id) ?? []), entry])
  })
  turns.forEach((row, rank) => {
    const add = p.turnWeight / (p.k + rank + 1)
    const made = new Set((row.source_row_ids ?? []).flatMap((id) => owners.get(id) ?? []))
    if (made.size > 0) return made.forEach((m) => void (m.score = Math.max(m.score, add)))
    const key = `${row.tier}\u0000${row.id}`
    const known = scored.get(key)
    if (known) known.score += add
    else scored.set(key, { row, score: add, order: order++, memory: false })
  })
  const sorted = [...scored.values()].sort((a, b) => b.score - a.score || a.order - b.order)
  const shown = new Set<number>()
  const ranked = sorted.filter((s) => {
    const rows = s.memory ? (sources.get(s.row.id) ?? []) : (s.row.source_row_ids ?? [])
    const echo =
      !s.memory &&
      rows.every((id) => p.borrowed?.has(id) === true) &&
      rows.some((id) => [id - 2, id - 1, id + 1, id + 2].some((n) => shown.has(n)))
    if (echo) return false
    rows.forEach((id) => shown.add(id))
    return true
  })
  const chosen = ranked.slice(0, total)
  const reserve = Math.min(Math.max(0, p.memorySlots), total, ranked.filter((s) => s.memory).length)
  let memoriesIn = chosen.filter((s) => s.memory).length
  for (const next of ranked.slice(total)) {
    if (memoriesIn >= reserve) break
    if (!next.memory) continue
    const weakestTurn = chosen.map((s) => s.memory).lastIndexOf(false)
    if (weakestTurn < 0) break
    chosen.splice(weakestTurn, 1)
    chosen.push(next)
    memoriesIn++
  }
  return chosen.map((s) => withFields(s.row, { score: round6(s.score) }))
}
