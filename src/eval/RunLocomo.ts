/**
 * `kioku eval locomo`: for each conversation (the first `limit`), a fresh memory root and runtime with a
 * host clock and no background loops, the conversation replayed (Ingest.ts), its provenance read
 * (Provenance.ts) and its vector counts (VectorCounts.ts: each session's maintenance pass waited for the
 * embedding model and backfilled every memory and turn, as a running server does in the background), then
 * every question asked through the `Recall` under test, each hit mapped to the dia_ids
 * of its turns, scored by Metrics.ts. The result cap is raised from 8 to `cap` (10) through the recall
 * tunables. Progress goes to `progress`; the summary is returned. Roots live in a temporary directory,
 * removed at the end, unless `workDir` is given (then kept).
 */
import { Duration, Effect } from "effect"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { createMemoryRuntime, makeHostClock, type Tunables } from "../lib.js"
import { ingestConversation } from "./Ingest.js"
import { loadLocomo, type Conversation } from "./Locomo.js"
import { summarize, type Outcome, type Summary } from "./Metrics.js"
import { EvalError, readProvenance } from "./Provenance.js"
import type { Recall } from "./Recall.js"
import { vectorCounts } from "./VectorCounts.js"

export interface LocomoOptions {
  readonly data: string
  /** The audit file; default `locomo10_audit_errors.json` beside `data` when it exists. */
  readonly audit?: string | undefined
  readonly limit?: number | undefined
  readonly recall: Recall
  /** Tunables set on every evaluated runtime on top of `evalTunables` (e.g. `turnTier`). */
  readonly tunables?: Partial<Tunables> | undefined
  /** A JSON file of tunables for every evaluated runtime (below `tunables` and `evalTunables`). */
  readonly configFile?: string | undefined
  /** Hits scored per question (R@10 needs 10). */
  readonly cap?: number | undefined
  readonly workDir?: string | undefined
  /**
   * Where the runtimes find (or build once) the default embedding model (`embedding_cache_dir`); the CLI
   * passes the directory `kioku serve` uses with its default data directory, so the run uses the same model.
   */
  readonly embeddingCacheDir?: string | undefined
  readonly progress?: ((line: string) => Effect.Effect<void>) | undefined
  /** Called before each conversation: how many are done, of how many, and which one comes next. */
  readonly step?: ((done: number, total: number, label: string) => Effect.Effect<void>) | undefined
}

export interface LocomoRun {
  readonly summary: Summary
  readonly conversations: number
  readonly questions: number
  readonly corrections: number
  readonly seconds: { readonly total: number; readonly ingest: number; readonly query: number }
}

export const defaultCap = 10

/** The tunables of an evaluation runtime: speaker A as master, the raised result cap, no timed extraction ticks. */
export const evalTunables = (conversation: Conversation, cap: number): Partial<Tunables> => ({
  master_name: conversation.speakerA,
  hybrid_recall_budget_total: cap,
  hybrid_recall_budget_each: Math.ceil(cap / 2),
  evidence_signal_check_interval_seconds: 86_400
})

const call = <A>(what: string, f: () => Promise<A>) =>
  Effect.tryPromise({
    try: f,
    catch: (e) => new EvalError({ message: `${what}: ${e instanceof Error ? e.message : String(e)}` })
  })

const seconds = (d: Duration.Duration) => Duration.toMillis(d) / 1000

const evaluateConversation = (
  conversation: Conversation,
  root: string,
  options: LocomoOptions & { readonly cap: number; readonly progress: (line: string) => Effect.Effect<void> }
) =>
  Effect.scoped(
    Effect.gen(function* () {
      const label = `locomo_${conversation.index}`
      const character = conversation.speakerB
      const dataDir = path.join(root, label, "memory")
      const clock = makeHostClock(conversation.sessions[0]?.startMillis ?? 0)
      const runtime = yield* Effect.acquireRelease(
        call("createMemoryRuntime", () =>
          createMemoryRuntime({
            dataDir,
            clock,
            config: {
              ...evalTunables(conversation, options.cap),
              ...(options.embeddingCacheDir === undefined ? {} : { embedding_cache_dir: options.embeddingCacheDir }),
              ...options.tunables
            },
            ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
            backgroundMaintenance: false,
            logLevel: "none"
          })
        ),
        (rt) => Effect.ignoreLogged(call("close", () => rt.close()))
      )
      const [ingestTime, ingested] = yield* Effect.timed(
        ingestConversation({ runtime, clock, character, conversation })
      )
      const provenance = yield* readProvenance(path.join(dataDir, character), ingested.messages)
      const vectors = yield* vectorCounts(path.join(dataDir, character))
      const ask = options.recall({ runtime, character, turns: provenance.turns, cap: options.cap })
      const [queryTime, outcomes] = yield* Effect.timed(
        Effect.forEach(conversation.questions, (q) =>
          Effect.timed(call(`query ${q.id}`, () => ask(q.question))).pipe(
            Effect.map(
              ([took, hits]): Outcome => ({
                category: q.category,
                evidence: q.evidence,
                ranked: hits.slice(0, options.cap).map(provenance.diaIdsOf),
                latencyMs: Duration.toMillis(took)
              })
            )
          )
        )
      )
      const s = provenance.stats
      yield* options.progress(
        `${label} (${conversation.speakerA} ↔ ${character}): ${ingested.totals.turns} turns in ` +
          `${conversation.sessions.length} sessions ingested in ${seconds(ingestTime).toFixed(1)} s ` +
          `(${ingested.totals.maintenancePasses} maintenance passes); ${s.facts} facts (${s.factsWithRows} with rows), ` +
          `${s.archivedFacts} archived, ${s.reflections} reflections; vectors: ${vectors.memories} memories, ` +
          `${vectors.turns} turns (${vectors.modelIds.join(", ") || "no model"}); ${outcomes.length} questions in ` +
          `${seconds(queryTime).toFixed(2)} s`
      )
      return { outcomes, ingest: seconds(ingestTime), query: seconds(queryTime) }
    })
  )

const workRoot = (workDir: string | undefined) =>
  workDir === undefined
    ? Effect.acquireRelease(
        Effect.sync(() => mkdtempSync(path.join(tmpdir(), "kioku-locomo-"))),
        (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
      )
    : Effect.sync(() => {
        mkdirSync(workDir, { recursive: true })
        return mkdtempSync(path.join(workDir, "run-"))
      })

export const runLocomo = (options: LocomoOptions) =>
  Effect.scoped(
    Effect.gen(function* () {
      const progress = options.progress ?? (() => Effect.void)
      const cap = options.cap ?? defaultCap
      const [total, run] = yield* Effect.timed(
        Effect.gen(function* () {
          const loaded = yield* loadLocomo(options.data, options.audit)
          const count = options.limit ?? loaded.conversations.length
          const chosen = loaded.conversations.slice(0, count)
          const corrections = loaded.corrections.slice(0, count).reduce((a, b) => a + b, 0)
          yield* progress(
            `LoCoMo: ${chosen.length} of ${loaded.conversations.length} conversations, ` +
              `${corrections} audited corrections applied${loaded.auditFile ? "" : " (no audit file)"}`
          )
          const root = yield* workRoot(options.workDir)
          const step = options.step ?? (() => Effect.void)
          const results = yield* Effect.forEach(chosen, (c, i) =>
            step(i, chosen.length, `conversation ${i + 1}`).pipe(
              Effect.zipRight(evaluateConversation(c, root, { ...options, cap, progress }))
            )
          )
          yield* step(chosen.length, chosen.length, "scoring")
          return { chosen, results, corrections }
        })
      )
      const outcomes = run.results.flatMap((r) => r.outcomes)
      return {
        summary: summarize(outcomes),
        conversations: run.chosen.length,
        questions: outcomes.length,
        corrections: run.corrections,
        seconds: {
          total: seconds(total),
          ingest: run.results.reduce((a, r) => a + r.ingest, 0),
          query: run.results.reduce((a, r) => a + r.query, 0)
        }
      } satisfies LocomoRun
    })
  )

const fmt = (x: number) => x.toFixed(3)

/** A plain-text table of the summary, for a terminal. */
export const formatRun = (title: string, run: LocomoRun): string => {
  const header = "             R@5    R@8    R@10   hit@10  MRR     n"
  const line = (name: string, f: Summary["overall"]) =>
    `${name.padEnd(12)} ${fmt(f["R@5"])}  ${fmt(f["R@8"])}  ${fmt(f["R@10"])}  ${fmt(f["hit@10"])}   ${fmt(f.MRR)}  ${f.n}`
  const names: Readonly<Record<string, string>> = {
    "1": "1 multi-hop",
    "2": "2 temporal",
    "3": "3 open-dom.",
    "4": "4 single-hop",
    "5": "5 adversar."
  }
  return [
    `${title}: ${run.conversations} conversations, ${run.questions} questions, ${run.corrections} audited corrections`,
    header,
    line("overall 1-4", run.summary.overall),
    ...Object.entries(run.summary.byCategory).map(([k, f]) => line(names[k] ?? k, f)),
    `query latency p50 ${run.summary.latencyMs.p50.toFixed(3)} ms, p95 ${run.summary.latencyMs.p95.toFixed(3)} ms`,
    `time: ${run.seconds.total.toFixed(1)} s (ingest and maintenance ${run.seconds.ingest.toFixed(1)} s, queries ${run.seconds.query.toFixed(1)} s)`
  ].join("\n")
}
