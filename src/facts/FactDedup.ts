/**
 * Near-duplicate facts (neko-compat §4.3 steps 2 and 6): detection within the private rows or one group-chat
 * subject's rows (DedupDetect.ts), the `facts_fts_v2` index it searches, and arbitration (powerful memory
 * on), which merges, replaces or keeps both of a queued pair — only when both facts are still active and in
 * the same partition — journaled as `fact.merged` so it replays on its own.
 */
import { Clock, Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import { localIso, parseLocal } from "../domain/LocalTime.js"
import * as path from "node:path"
import { ensureDir, readText, writeAtomic } from "../store/DurableFs.js"
import { ChineseScript } from "../domain/ChineseScript.js"
import { FactTasks } from "./FactTasks.js"
import type { Fact } from "./Fact.js"
import * as DedupQueue from "./DedupQueue.js"
import type { Speakers } from "../domain/Speakers.js"
import { dedupTokens, stripNames } from "../recall/Tokenize.js"
import type { Tunables } from "../Tunables.js"
import type { FactsHost } from "./FactsHost.js"
import { Embedder } from "../vectors/Embedder.js"
import { makeDetect, samePartition } from "./DedupDetect.js"
import { factMoveLine, FACT_ARCHIVED, FACT_MERGED } from "./FactEvents.js"
import { withFields } from "../domain/Shapes.js"

export const make = (deps: { readonly tunables: Tunables; readonly speakers: Effect.Effect<Speakers> }) =>
  Effect.gen(function* () {
    const script = yield* ChineseScript
    const tasks = yield* FactTasks
    const t = deps.tunables
    const embedder = yield* Embedder

    const tokensOf = (text: string) =>
      Effect.gen(function* () {
        const names = yield* deps.speakers
        return dedupTokens(yield* script.toSimplified(text), [names.master, names.character])
      })

    /** The text as compared for identity: folded to Simplified, names removed, lower-cased, spaces collapsed. */
    const normalised = (text: string) =>
      Effect.gen(function* () {
        const names = yield* deps.speakers
        return stripNames(yield* script.toSimplified(text), [names.master, names.character])
          .toLowerCase()
          .replace(/\s+/g, " ")
          .trim()
      })

    /** Splits new facts into those to keep and the arbitration pairs they open (DedupDetect.ts). */
    const detect = makeDetect({ tunables: t, embedder, tokensOf, normalised })

    /** Indexes facts for later near-duplicate search. */
    const index = (state: FactsHost, facts: ReadonlyArray<Fact>) =>
      Effect.gen(function* () {
        const ti = yield* state.openTimeIndex(true)
        if (Option.isNone(ti) || facts.length === 0) return
        const entries = yield* Effect.forEach(facts, (f) =>
          Effect.map(tokensOf(f.text), (tokens) => ({ id: f.id, tokens }))
        )
        yield* ti.value.indexFacts(entries)
      })

    /** Arbitrates up to `fact_dedup_batch_limit` queued pairs; returns how many facts were merged away. */
    const arbitrate = (state: FactsHost) =>
      Effect.gen(function* () {
        const queue = DedupQueue.make(state.dir)
        const pending = (yield* queue.read).slice(0, t.fact_dedup_batch_limit)
        if (pending.length === 0) return 0
        const byId = new Map((yield* state.facts.load).all.map((f) => [f.id, f]))
        const live = pending.flatMap((p) => {
          const candidate = byId.get(p.candidate_id)
          const existing = byId.get(p.existing_id)
          return candidate && existing && samePartition(candidate, existing) ? [{ candidate, existing }] : []
        })
        const decisions =
          live.length === 0
            ? []
            : yield* tasks.arbitrateFacts(live.map((p) => ({ candidate: p.candidate.text, existing: p.existing.text })))
        const now = localIso(yield* Clock.currentTimeMillis)
        const lines = decisions.flatMap((d) => {
          const pair = live[d.index]
          if (pair === undefined || d.action === "keep_both") return []
          const { candidate, existing } = pair
          const merged = (f: Fact) =>
            Array.isArray(f["merged_from_ids"])
              ? f["merged_from_ids"].filter((x): x is string => typeof x === "string")
              : []
          const payload =
            d.action === "merge"
              ? {
                  kept: {
                    ...existing,
                    importance: Math.min(10, existing.importance + 1),
                    merged_from_ids: [...merged(existing), candidate.id]
                  },
                  archived: withFields(candidate, { superseded_by: existing.id, arbitration_archived_at: now }),
                  reason: "dedup_merge"
                }
              : {
                  kept: {
                    ...candidate,
                    importance: Math.max(candidate.importance, existing.importance),
                    merged_from_ids: [...merged(existing), existing.id]
                  },
                  archived: withFields(existing, { superseded_by: candidate.id, arbitration_archived_at: now }),
                  reason: "dedup_replace"
                }
          return [factMoveLine(randomUUID(), FACT_MERGED, payload, now)]
        })
        if (lines.length > 0) {
          yield* state.journal(lines, { supersedes: false })
        }
        yield* queue.drop(pending.map((p) => p.candidate_id))
        return lines.length
      })

    /**
     * Moves absorbed facts older than `fact_archive_age_days` into the archive, at most once every
     * `fact_archive_cooldown_hours` (remembered in `facts_archive/.last_attempt`).
     */
    const sweep = (state: FactsHost) =>
      Effect.gen(function* () {
        const millis = yield* Clock.currentTimeMillis
        const marker = path.join(state.archive.shardDir, ".last_attempt")
        const last = Option.flatMap(yield* readText(marker), (text) => Option.fromNullable(parseLocal(text.trim())))
        if (Option.isSome(last) && millis - last.value < t.fact_archive_cooldown_hours * 3_600_000) return 0
        const cutoff = millis - t.fact_archive_age_days * 86_400_000
        const old = (yield* state.facts.load).all.filter(
          (f) => f.absorbed && (parseLocal(f.created_at) ?? millis) < cutoff
        )
        const now = localIso(millis)
        const lines = old.map((fact) =>
          factMoveLine(randomUUID(), FACT_ARCHIVED, { archived: fact, reason: "absorbed_age" }, now)
        )
        if (lines.length > 0) {
          yield* state.journal(lines, { supersedes: false })
        }
        yield* ensureDir(state.archive.shardDir)
        yield* writeAtomic(marker, now)
        return lines.length
      })

    return { detect, index, arbitrate, sweep }
  })

export type FactDedup = Effect.Effect.Success<ReturnType<typeof make>>
