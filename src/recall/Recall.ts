/**
 * A character actor's recall (`/query_memory`, neko-compat §1.4 and §4.10). The recall corpus is built on
 * the first query from facts.json, reflections.json (pending and confirmed) and the fact archive (legacy
 * file and shards), then kept current without re-parsing: before each query the facts come from FactStore's
 * stamp-checked cache (unchanged records keep their identity), reflections.json and every archive file are
 * re-read only when their file stamp (inode, mtime, size) changed, and only rows that are new or changed are
 * re-tokenized (see RecallCorpus). A change of the speakers' names rebuilds the corpus. Texts are folded to
 * Simplified Chinese in batches. An unreadable archive file is skipped (as N.E.K.O. does); any other failure
 * degrades to N.E.K.O.'s `hybrid_recall_failed` answer, logged.
 * `vectors` is the seam for the cosine side: given the query text it returns the query vector and a lookup
 * of cached vectors by memory id; without it (or when it yields nothing) recall is BM25 only.
 * With `recall_turn_tier` on (the default), a text query without subjects and without a time window also searches the raw
 * turns (TurnTier.ts; lexical, plus the query vector against the turn vectors when there are any) and fuses
 * them with the memory rows (MergeTiers.ts: weighted RRF, `recall_turn_rrf_weight` on the turn list; a turn a recalled
 * fact was made from counts for the fact; memory rows keep `recall_memory_slots` of the rows). With `recall_concepts`
 * on, memory rows, turns and queries also get concept terms (Concepts.ts: family, partners, pets, work, age…).
 * Cold starts: before the corpus is built, a text query without time window is answered from a fresh
 * `recall_index.db` (index/RecallIndex.ts) without building it — with vectors on, when its packed vectors are fresh
 * too; after every sync the index is brought up to date in the background (index/RecallIndexWriter.ts), and the
 * vectors of a warm query are offered for its packed copy. Without a corpus — an idle release, a closing actor, a
 * cold query that finds the index stale (once) — the index follows the files directly (index/IndexFollow.ts).
 */
import { Clock, Effect, Option } from "effect"
import { ChineseScript } from "../domain/ChineseScript.js"
import type { Fact } from "../facts/Fact.js"
import { yieldToIo } from "../runtime/Actor.js"
import { hybridRecall, recallByTime, type Vectors } from "./Hybrid.js"
import * as Corpus from "./RecallCorpus.js"
import { factEntry, partitionsOf, reflectionEntry } from "./RecallEntry.js"
import type { QueryRequest, QueryResult } from "./RecallTypes.js"
import { parseTimeWindow } from "./TimeWindow.js"
import type { Reflection } from "../reflection/Reflection.js"
import type { Speakers } from "../domain/Speakers.js"
import { sameStamp, stampOf, type FileStamp } from "../store/DurableFs.js"
import type { Tunables } from "../Tunables.js"
import type { RecallHost } from "./RecallTypes.js"
import * as TurnTier from "./TurnTier.js"
import { mergeTiers } from "./MergeTiers.js"
import * as Concepts from "./Concepts.js"
import { analyze } from "./TurnAnalyzer.js"
import * as RecallIndex from "./index/RecallIndex.js"
import { makeFold } from "../domain/Fold.js"
import * as IndexWriter from "./index/RecallIndexWriter.js"
import * as ArchiveRows from "../facts/ArchiveRows.js"
import { emptyCache, type PackSource } from "./index/VectorPack.js"
import * as Upkeep from "./index/IndexUpkeep.js"
import { VERSION } from "../Version.js"

/** The cosine side of recall for one query (RecallVectors.ts); `undefined` vectors mean BM25 only. */
export interface VectorSeam extends Upkeep.PackVectors {
  /** In-memory path: the vectors, and what they were read at (for the index's packed copy). */
  readonly warm: (input: { readonly state: RecallHost; readonly query: string }) => Effect.Effect<{
    readonly vectors: Vectors | undefined
    readonly pack?: Upkeep.PackableVectors | undefined
  }>
  /** Cold path: the vectors from the index's packs; "stale" when they take part but the packs are not fresh. */
  readonly cold: (input: {
    readonly state: RecallHost
    readonly query: string
    readonly packs: PackSource
  }) => Effect.Effect<Vectors | undefined | "stale">
}

type Stamp = Option.Option<FileStamp>

/** Rows indexed between two yields to pending I/O while the corpus is built or brought up to date. */
const APPLY_SLICE = 500

export const failed = (query: string): QueryResult => ({
  results: [],
  query,
  candidates_total: 0,
  elapsed_ms: 0.0,
  error_code: "hybrid_recall_failed"
})

const empty: QueryResult = { results: [], query: "", candidates_total: 0, elapsed_ms: 0.0 }

export const make = (deps: {
  readonly tunables: Tunables
  readonly speakers: Effect.Effect<Speakers>
  readonly vectors?: VectorSeam | undefined
}) =>
  Effect.gen(function* () {
    const script = yield* ChineseScript
    const t = deps.tunables
    let current: { readonly names: string; readonly corpus: Corpus.RecallCorpus } | undefined
    let facts: ReadonlyArray<Fact> | undefined
    let reflections: Stamp | undefined
    /** The source stamps of the corpus's last sync (index/RecallIndex.ts), undefined before the first. */
    let indexed: string | undefined
    /** Whether a cold query brought a stale index up to date since the corpus was last dropped (coldOrCaughtUp). */
    let caughtUp = false
    const writer = yield* IndexWriter.make
    /** The index's packed vectors decoded by cold queries (kept while the index's pack key stays). */
    const packCache = emptyCache()
    const archive = ArchiveRows.make()

    const fold = makeFold(script)

    let concepts: Concepts.ConceptMatcher | undefined
    const withConcepts = (text: string) => [...analyze(text), ...(concepts ?? Concepts.none)(text)]
    const turns = TurnTier.make(t, fold, t.recall_concepts ? withConcepts : analyze)

    const sync = <R extends Corpus.Row>(
      corpus: Corpus.RecallCorpus,
      tier: "fact" | "reflection" | "fact_archive",
      rows: ReadonlyArray<R>,
      project: (row: R) => ReturnType<typeof factEntry>,
      touched: Set<string>
    ) =>
      Effect.gen(function* () {
        const changes = corpus.diff(tier, rows)
        for (const r of changes.changed) touched.add(r.id)
        for (const id of changes.removed) touched.add(id)
        // A large build (a cold start) goes in slices with pending I/O let through between them, so other
        // characters' requests are served meanwhile.
        for (let i = 0; i === 0 || i < changes.changed.length; i += APPLY_SLICE) {
          if (i > 0) yield* yieldToIo
          const changed = changes.changed.slice(i, i + APPLY_SLICE)
          const slice = { rows: changes.rows, changed, removed: i === 0 ? changes.removed : [] }
          corpus.apply(tier, slice, yield* fold(changed.map((r) => r.text)), project)
        }
      })

    /** The speakers' names, folded, and the corpus options (with the concept matcher, made on first use). */
    const setup = Effect.gen(function* () {
      const speakers = yield* deps.speakers
      if (concepts === undefined) concepts = t.recall_concepts ? yield* Concepts.make(fold) : Concepts.none
      const names = yield* fold([speakers.master, speakers.character])
      const options = { cjkWords: t.recall_cjk_words, stemmed: t.recall_stemmed_terms, concepts }
      const config = JSON.stringify([VERSION, names, t.recall_cjk_words, t.recall_stemmed_terms, t.recall_concepts])
      return { names, key: names.join("\u0000"), options, config }
    })

    /** Forgets the corpus, what it was built from and the turn index. */
    const drop = () => {
      current = undefined
      caughtUp = false
      facts = undefined
      reflections = undefined
      indexed = undefined
      archive.clear()
      turns.reset()
      packCache.key = undefined
      packCache.byPid.clear()
    }

    /** Brings the corpus up to date with the views (building it on first use), then the index with it. */
    const refresh = (state: RecallHost) =>
      Effect.gen(function* () {
        const { names, key, options, config } = yield* setup
        yield* writer.beforeChange
        if (current === undefined || current.names !== key) {
          drop()
          current = { names: key, corpus: Corpus.make(names, options) }
        }
        const corpus = current.corpus
        // Stamped before reading: a file changed meanwhile leaves the index stamped older than it, never used.
        const stamps = RecallIndex.sourcesOf(state)
        const sources = stamps()
        const touched = new Set<string>()
        const index = yield* state.facts.load
        if (index.all !== facts) {
          yield* sync(corpus, "fact", index.all, (f) => factEntry(f, "fact"), touched)
          facts = index.all
        }
        const stamp = yield* stampOf(state.reflections.file)
        if (reflections === undefined || !sameStamp(reflections, stamp)) {
          const rows = (yield* state.reflections.loadAll).filter(
            (r) => r.status === "pending" || r.status === "confirmed"
          )
          yield* sync(corpus, "reflection", rows, (r: Reflection) => reflectionEntry(r), touched)
          reflections = stamp
        }
        const archived = yield* archive.rows(state)
        if (Option.isSome(archived))
          yield* sync(corpus, "fact_archive", archived.value, (f) => factEntry(f, "fact_archive"), touched)
        yield* writer.synced({
          dir: state.dir,
          corpus,
          config,
          before: indexed,
          after: sources,
          current: stamps,
          touched
        })
        indexed = sources
        return { corpus, names, config, sources }
      })

    /**
     * A text query without time window, before the corpus is built: answered from a fresh `recall_index.db`
     * (index/RecallIndex.ts) and, when vectors take part, its fresh packed vectors; undefined otherwise.
     */
    const cold = (state: RecallHost, partitions: ReadonlyArray<string>, queryText: string, nowMillis: number) =>
      Effect.gen(function* () {
        const { names, key, options, config } = yield* setup
        if (current !== undefined && current.names === key) return undefined
        const [folded] = yield* fold([queryText])
        const tokens = Corpus.make(names, options).tokenize(folded ?? queryText)
        const sources = RecallIndex.sourcesOf(state)()
        return yield* RecallIndex.withCold(state.dir, config, sources, partitions, packCache, (view, packs) =>
          Effect.gen(function* () {
            const vectors = deps.vectors ? yield* deps.vectors.cold({ state, query: queryText, packs }) : undefined
            if (vectors === "stale") return undefined
            const found = hybridRecall(view, { partitions, window: undefined, nowMillis, tokens, vectors }, t)
            return { found, names, folded, vectors }
          })
        )
      })

    /**
     * `cold`, and once per corpus-less spell (a release resets it) when the index is stale: the index (and its
     * pack) brought up to date from the files first, far cheaper than building the corpus (IndexFollow.ts).
     */
    const coldOrCaughtUp = (state: RecallHost, partitions: ReadonlyArray<string>, text: string, nowMillis: number) =>
      Effect.gen(function* () {
        const first = yield* cold(state, partitions, text, nowMillis)
        if (first !== undefined || caughtUp || current !== undefined) return first
        caughtUp = true
        yield* offerPack(state)
        yield* writer.settled
        return yield* cold(state, partitions, text, nowMillis)
      })

    const recall = (state: RecallHost, input: QueryRequest) =>
      Effect.gen(function* () {
        const started = yield* Clock.currentTimeNanos
        const elapsed = Effect.map(Clock.currentTimeNanos, (n) => Math.round(Number(n - started) / 1e5) / 10)
        const queryText = (input.query ?? "").trim()
        const timeSpec = (input.time ?? "").trim()
        const nowMillis = yield* Clock.currentTimeMillis
        const window = timeSpec === "" ? undefined : parseTimeWindow(timeSpec, nowMillis, input.language ?? undefined)
        if (queryText === "" && window === undefined) return empty
        const partitions = yield* partitionsOf(input.subjects)
        if (queryText === "" && window !== undefined) {
          const { corpus } = yield* refresh(state)
          const found = recallByTime(corpus, { partitions, window, nowMillis }, t)
          const result: QueryResult = {
            results: found.rows,
            query: "",
            time: timeSpec,
            candidates_total: found.candidatesTotal,
            elapsed_ms: yield* elapsed
          }
          return result
        }
        const fromIndex =
          window === undefined ? yield* coldOrCaughtUp(state, partitions, queryText, nowMillis) : undefined
        const { found, names, folded, vectors } =
          fromIndex ??
          (yield* Effect.gen(function* () {
            const { corpus, names, config, sources } = yield* refresh(state)
            const warm = deps.vectors ? yield* deps.vectors.warm({ state, query: queryText }) : { vectors: undefined }
            const [folded] = yield* fold([queryText])
            const tokens = corpus.tokenize(folded ?? queryText)
            const query = { partitions, window, nowMillis, tokens, vectors: warm.vectors }
            const found = hybridRecall(corpus, query, t)
            if (warm.pack)
              yield* writer.packed({
                dir: state.dir,
                groups: Upkeep.packGroups(corpus, warm.pack.map),
                config,
                sources,
                current: RecallIndex.sourcesOf(state),
                ...warm.pack
              })
            return { found, names, folded, vectors: warm.vectors }
          }))
        const withTurns = t.recall_turn_tier && input.subjects === undefined && window === undefined
        const speakers = { master: names[0] ?? "", character: names[1] ?? "" }
        const turnHits = withTurns
          ? yield* turns.search(
              state,
              folded ?? queryText,
              speakers,
              2 * t.hybrid_recall_budget_total + found.rows.length,
              vectors === undefined ? undefined : { modelId: vectors.modelId, vector: vectors.query }
            )
          : undefined
        const rows = turnHits
          ? mergeTiers(found.rows, turnHits.rows, found.sources ?? new Map(), {
              borrowed: turnHits.borrowed,
              k: t.hybrid_recall_rrf_k,
              turnWeight: t.recall_turn_rrf_weight,
              total: t.hybrid_recall_budget_total,
              memorySlots: t.recall_memory_slots
            })
          : found.rows
        const result: QueryResult = {
          results: rows,
          query: queryText,
          candidates_total: found.candidatesTotal,
          elapsed_ms: yield* elapsed
        }
        return result
      })

    /** The `/query_memory` answer; never fails (a failure is the `hybrid_recall_failed` answer). */
    const query = (state: RecallHost, input: QueryRequest): Effect.Effect<QueryResult> =>
      recall(state, input).pipe(
        Effect.catchAllCause((cause) =>
          Effect.logError("recall failed; answering hybrid_recall_failed", cause).pipe(
            Effect.as(failed(input.query ?? ""))
          )
        )
      )

    const upkeep = Upkeep.make({
      writer,
      setup,
      fold,
      vectors: deps.vectors,
      built: (state) => (current === undefined ? Effect.succeed(undefined) : refresh(state))
    })
    const followAndPack = upkeep.followAndPack

    /** After a vector backfill settled: the index and its packed copy brought up to date. */
    const offerPack = (state: RecallHost) =>
      followAndPack(state, true).pipe(
        Effect.catchAllCause((cause) => Effect.logWarning("recall index: pack not offered", cause))
      )

    /**
     * An idle actor's release: the index (and, when `withPack` — the backfill settled —, its packed copy) brought up
     * to date, since what the views were loaded for may have changed the files; then the corpus and the turn index
     * dropped; the next query reads the index or rebuilds.
     */
    const release = (state: RecallHost, withPack: boolean) =>
      followAndPack(state, withPack).pipe(
        Effect.catchAllCause((cause) => Effect.logWarning("recall index not followed", cause)),
        Effect.zipRight(Effect.sync(drop))
      )

    return { query, release, offerPack, indexSettled: writer.settled }
  })
