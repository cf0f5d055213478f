/**
 * Near-duplicate detection for new facts (neko-compat §4.3 steps 2 and 6), within one dedup partition: the
 * private (legacy) rows, or the rows of exactly one group-chat subject (kind, id and scope). New facts are
 * matched against `facts_fts_v2` with the dedup tokens (Traditional folded to Simplified, names stripped) and
 * scored by Dice overlap, strongest first; when the first 10 hits are all taken the search widens once to
 * 200 (hits of other partitions fill the window when one event is stored for several subjects). The facts
 * kept earlier in the same call count as hits too (N.E.K.O. indexes each fact as it writes it). A hit of
 * another partition, and a scoped hit found in no file, is never looked at. A new fact identical to a hit is
 * dropped — for private facts the normalised text, for scoped facts the verbatim text, as N.E.K.O. — and an
 * overlap of at least `fact_near_dup_arbitrate_overlap` with an unabsorbed fact of the same entity queues
 * an arbitration pair; the facts that opened none are then matched by vector (VectorDedup.ts) against the
 * same partition. A scoped pair carries N.E.K.O.'s subject fields and arbitration domain.
 */
import { Clock, Effect, Option } from "effect"
import { localIso } from "../domain/LocalTime.js"
import {
  isLegacyPrivate,
  stampedWith,
  subjectFields,
  subjectKey,
  subjectOfRow,
  type MemorySubject
} from "../domain/Subject.js"
import { dice } from "../recall/Tokenize.js"
import type { Tunables } from "../Tunables.js"
import { Embedder } from "../vectors/Embedder.js"
import type * as DedupQueue from "./DedupQueue.js"
import type { Fact } from "./Fact.js"
import type { FactsHost } from "./FactsHost.js"
import { vectorPairs } from "./VectorDedup.js"
import { withFields } from "../domain/Shapes.js"

/** N.E.K.O.'s arbitration domain of a subject (`_fact_dedup_domain`): its key and scope, except that a
 * member's default-scope `group_participant` rows share their group's `@group_participant_arbitration:` key. */
export const dedupDomain = (s: MemorySubject): { readonly subject_key: string; readonly scope: string } => {
  if (s.kind === "group_participant" && s.scope === subjectKey(s) && s.subjectId.includes(":")) {
    const key = `@group_participant_arbitration:${s.subjectId.slice(0, s.subjectId.lastIndexOf(":"))}`
    return { subject_key: key, scope: key }
  }
  return { subject_key: subjectKey(s), scope: s.scope }
}

/** The queue fields of a pair inside `subject`'s partition (none for a private pair). */
export const scopedPairFields = (subject: MemorySubject | undefined) => {
  if (subject === undefined) return {}
  const f = subjectFields(subject)
  return {
    ...dedupDomain(subject),
    candidate_subject_kind: f.subject_kind,
    candidate_subject_id: f.subject_id,
    candidate_scope: f.scope,
    existing_subject_kind: f.subject_kind,
    existing_subject_id: f.subject_id,
    existing_scope: f.scope
  }
}

/** Whether two facts may be paired: both private, or both of the same subject and scope. */
export const samePartition = (a: Fact, b: Fact): boolean => {
  if (isLegacyPrivate(a) || isLegacyPrivate(b)) return isLegacyPrivate(a) && isLegacyPrivate(b)
  const s = subjectOfRow(a)
  return s !== undefined && stampedWith([s])(b)
}

export interface DetectDeps {
  readonly tunables: Tunables
  readonly embedder: Embedder["Type"]
  readonly tokensOf: (text: string) => Effect.Effect<Array<string>>
  readonly normalised: (text: string) => Effect.Effect<string>
}

export const makeDetect =
  (deps: DetectDeps) => (state: FactsHost, fresh: ReadonlyArray<Fact>, subject?: MemorySubject) =>
    Effect.gen(function* () {
      const t = deps.tunables
      const inPartition = subject === undefined ? isLegacyPrivate : stampedWith([subject])
      const ti = yield* state.openTimeIndex(true)
      const { all } = yield* state.facts.load
      const active = new Map(all.map((f) => [f.id, f]))
      let archived: ReadonlyMap<string, Fact> | undefined
      /** This call's facts kept so far: N.E.K.O. indexes each as it is written, so a later one can meet it. */
      const earlier = new Map<string, { readonly fact: Fact; readonly tokens: ReadonlyArray<string> }>()
      const lookup = (id: string) =>
        Effect.gen(function* () {
          const hit = active.get(id) ?? earlier.get(id)?.fact
          if (hit !== undefined) return hit
          if (archived === undefined) {
            const rows = yield* state.archive.all.pipe(Effect.orElseSucceed((): ReadonlyArray<Fact> => []))
            archived = new Map(rows.map((f) => [f.id, f]))
          }
          return archived.get(id)
        })
      const keep: Array<Fact> = []
      const pairs: Array<DedupQueue.DedupPair> = []
      const queuedAt = localIso(yield* Clock.currentTimeMillis)
      for (const fact of fresh) {
        const tokens = yield* deps.tokensOf(fact.text)
        const mine = subject === undefined ? yield* deps.normalised(fact.text) : fact.text
        let identical = false
        let best: { readonly existing: Fact; readonly overlap: number } | undefined
        // One query of 200 stands for N.E.K.O.'s two windows: its top 10 first, all of it when those were 10.
        const found = Option.isSome(ti) ? yield* ti.value.searchFacts(tokens, 200) : []
        const mates = [...earlier.values()].map((e) => ({ id: e.fact.id, tokens: e.tokens }))
        for (const limit of [10, 200]) {
          const hits = found.slice(0, limit)
          const scored = [...hits, ...mates]
            .map((h) => ({ id: h.id, tokens: h.tokens, overlap: dice(tokens, h.tokens) }))
            .sort((a, b) => b.overlap - a.overlap)
          best = undefined
          for (const h of scored) {
            const known = active.get(h.id) ?? earlier.get(h.id)?.fact
            // Rows out of the active set only matter when identical (pairs are with active rows only).
            if (known === undefined && h.overlap < 1) continue
            const existing = known ?? (yield* lookup(h.id))
            if (existing === undefined) {
              // Not in any file: a private fact forgotten before its index row went; scoped rows never match.
              if (subject === undefined && h.tokens.join(" ") === tokens.join(" ")) identical = true
              continue
            }
            if (!inPartition(existing)) continue
            if (subject !== undefined && (existing["subject_archived_at"] || existing["arbitration_archived_at"]))
              continue
            const same =
              subject === undefined
                ? h.overlap === 1 && (yield* deps.normalised(existing.text)) === mine
                : existing.text === mine
            if (same) {
              identical = true
              break
            }
            if (h.overlap < t.fact_near_dup_arbitrate_overlap) continue
            const live = active.has(existing.id) || earlier.has(existing.id)
            if (existing.entity !== fact.entity || existing.absorbed || !live) continue
            if (best === undefined) best = { existing, overlap: h.overlap }
          }
          if (identical || hits.length < limit || found.length <= limit) break
        }
        if (identical) continue
        keep.push(fact)
        earlier.set(fact.id, { fact, tokens })
        if (best !== undefined)
          pairs.push({
            candidate_id: fact.id,
            existing_id: best.existing.id,
            entity: fact.entity,
            cosine: null,
            queued_at: queuedAt,
            detector: "fts",
            text_overlap: Number(best.overlap.toFixed(4)),
            ...scopedPairFields(subject)
          })
      }
      const paired = new Set(pairs.map((p) => p.candidate_id))
      const byVector = yield* vectorPairs(
        state,
        keep.filter((f) => !paired.has(f.id)),
        all.filter(inPartition),
        queuedAt,
        t
      ).pipe(Effect.provideService(Embedder, deps.embedder))
      return { keep, pairs: [...pairs, ...byVector.map((p) => withFields(p, scopedPairFields(subject)))] }
    })
