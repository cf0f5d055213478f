/**
 * Which fact journal lines a forget touches, and their tombstones (store/Tombstone.ts). A forgotten fact takes
 * along the facts merged into it (their text was fused into its own), found through the journal's
 * `fact.merged` lines. `fact.added` / `fact.updated` / `fact.archived` lines of a forgotten fact become bare
 * tombstones; a `fact.merged` line whose archived fact alone is forgotten keeps its `kept` fact; a
 * `fact.forgotten` line written before redaction (with the whole fact) is rewritten to ids only.
 */
import { Either, Option } from "effect"
import type { EventLine } from "../store/EventLog.js"
import { tombstone, tombstoneOf } from "../store/Tombstone.js"
import type { Fact } from "./Fact.js"
import {
  decodeFact,
  decodeForgotten,
  decodeMove,
  decodeRedactedFact,
  FACT_ADDED,
  FACT_ARCHIVED,
  FACT_FORGOTTEN,
  FACT_MERGED,
  FACT_UPDATED,
  factForgottenLine
} from "./FactEvents.js"

/** `ids` and every fact merged into one of them, transitively, per the journal's `fact.merged` lines. */
export const lineage = (lines: ReadonlyArray<EventLine>, ids: ReadonlyArray<string>): ReadonlySet<string> => {
  const merges = lines.flatMap((l) =>
    l.type === FACT_MERGED ? Either.getRight(decodeMove(l.payload)).pipe(Option.toArray) : []
  )
  const out = new Set(ids)
  let grew = true
  while (grew) {
    grew = false
    for (const m of merges) {
      if (m.kept && out.has(m.kept.id) && !out.has(m.archived.id)) {
        out.add(m.archived.id)
        grew = true
      }
    }
  }
  return out
}

/** The facts of `ids` that journal lines carry (every version), for a final search of stray text. */
export const carried = (lines: ReadonlyArray<EventLine>, ids: ReadonlySet<string>): ReadonlyArray<Fact> =>
  lines.flatMap((l) => {
    if (tombstoneOf(l).pipe(Option.isSome)) return []
    const facts =
      l.type === FACT_ADDED || l.type === FACT_UPDATED
        ? Either.match(decodeFact(l.payload), { onLeft: () => [], onRight: (p) => [p.fact] })
        : l.type === FACT_ARCHIVED || l.type === FACT_MERGED
          ? Either.match(decodeMove(l.payload), {
              onLeft: () => [],
              onRight: (p) => (p.kept ? [p.kept, p.archived] : [p.archived])
            })
          : []
    return facts.filter((f) => ids.has(f.id))
  })

/** The tombstone (or ids-only rewrite) of `line` when it carries a fact of `ids`; `None` leaves it as it is. */
export const redactLine =
  (ids: ReadonlySet<string>, reason: string, at: string) =>
  (line: EventLine): Option.Option<EventLine> => {
    const stamp = (hit: ReadonlyArray<string>) => ({ ids: hit, reason, at })
    const existing = tombstoneOf(line)
    if (Option.isSome(existing)) {
      const kept = Either.getRight(decodeRedactedFact(line.payload)).pipe(Option.flatMapNullable((p) => p.kept))
      if (Option.isNone(kept) || !ids.has(kept.value.id)) return Option.none()
      return Option.some(tombstone(line, stamp([...existing.value.ids, kept.value.id])))
    }
    if (line.type === FACT_ADDED || line.type === FACT_UPDATED) {
      return Either.getRight(decodeFact(line.payload)).pipe(
        Option.filter((p) => ids.has(p.fact.id)),
        Option.map((p) => tombstone(line, stamp([p.fact.id])))
      )
    }
    if (line.type === FACT_ARCHIVED || line.type === FACT_MERGED) {
      return Either.getRight(decodeMove(line.payload)).pipe(
        Option.flatMap((p) => {
          const hit = [p.kept?.id, p.archived.id].filter((id): id is string => id !== undefined && ids.has(id))
          if (hit.length === 0) return Option.none()
          const keep = p.kept && !ids.has(p.kept.id) ? { kept: line.payload["kept"] } : {}
          return Option.some(tombstone(line, stamp(hit), keep))
        })
      )
    }
    if (line.type === FACT_FORGOTTEN && "fact" in line.payload) {
      return Either.getRight(decodeForgotten(line.payload)).pipe(
        Option.map((p) => factForgottenLine(line.event_id, p, line.ts))
      )
    }
    return Option.none()
  }
