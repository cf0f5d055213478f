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
 * Cold starts: before the corpus is built, a text query without time window and vectors is answered from a
 * fresh `recall_index.db` (index/RecallIndex.ts) without building it; after every sync the index is brought up to
 * date in the background (index/RecallIndexWriter.ts).
 */
import { Clock, Effect, Option } from "effect"
import * as path from "node:path"
import { ChineseScript } from "../domain/ChineseScript.js"
import { FactsFile, type Fact } from "../facts/Fact.js"
import { decodeFacts } from "../facts/FactDecode.js"
import { yieldToIo } from "../runtime/Actor.js"
import { hybridRecall, recallByTime, type Vectors } from "./Hybrid.js"
import * as Corpus from "./RecallCorpus.js"
import { factEntry, partitionsOf, reflectionEntry } from "./RecallEntry.js"
import type { QueryRequest, QueryResult } from "./RecallTypes.js"
import { parseTimeWindow } from "./TimeWindow.js"
import type { Reflection } from "../reflection/Reflection.js"
import type { Speakers } from "../domain/Speakers.js"
import { sameStamp, stampOf, type FileStamp } from "../store/DurableFs.js"
import * as ViewFile from "../store/ViewFile.js"
import type { Tunables } from "../Tunables.js"
import type { RecallHost } from "./RecallTypes.js"
import * as TurnTier from "./TurnTier.js"
import { mergeTiers } from "./MergeTiers.js"
import * as Concepts from "./Concepts.js"
import { analyze } from "./TurnAnalyzer.js"
import * as RecallIndex from "./index/RecallIndex.js"
import { makeFold } from "../domain/Fold.js"
import * as IndexWriter from "./index/RecallIndexWriter.js"
import { VERSION } from "../Version.js"

/** The cosine side of recall for one query; `undefined` means BM25 only. */
export type VectorSeam = (input: {
  readonly state: RecallHost
  readonly query: string
}) => Effect.Effect<Vectors | undefined>

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
    const writer = yield* IndexWriter.make
    const archive = new Map<string, { readonly stamp: Stamp; readonly rows: ReadonlyArray<Fact> }>()

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

    const archiveRows = (state: RecallHost) =>
      Effect.gen(function* () {
        const sources = [
          path.join(state.dir, "facts_archive.json"),
          ...state.archive.shards().map((n) => path.join(state.archive.shardDir, n))
        ]
        let changed = archive.size !== sources.length
        for (const file of sources) {
          const stamp = yield* stampOf(file)
          const known = archive.get(file)
          if (known && sameStamp(known.stamp, stamp)) continue
          const read = ViewFile.make(FactsFile, file, decodeFacts).read.pipe(
            Effect.catchAll((e) =>
              Effect.logWarning("fact archive unreadable; recalled without it").pipe(
                Effect.annotateLogs({ file, error: e._tag }),
                Effect.as(Option.none<ReadonlyArray<Fact>>())
              )
            )
          )
          const rows = Option.getOrElse(yield* read, (): ReadonlyArray<Fact> => [])
          archive.set(file, { stamp, rows })
          changed = true
        }
        for (const file of [...archive.keys()]) if (!sources.includes(file)) archive.delete(file)
        return changed ? Option.some(sources.flatMap((f) => archive.get(f)?.rows ?? [])) : Option.none()
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
      facts = undefined
      reflections = undefined
      indexed = undefined
      archive.clear()
      turns.reset()
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
        const archived = yield* archiveRows(state)
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
        return { corpus, names }
      })

    /**
     * A text query without time window and vectors, before the corpus is built: answered from a fresh
     * `recall_index.db` (index/RecallIndex.ts), undefined when there is none.
     */
    const cold = (state: RecallHost, partitions: ReadonlyArray<string>, queryText: string, nowMillis: number) =>
      Effect.gen(function* () {
        const { names, key, options, config } = yield* setup
        if (current !== undefined && current.names === key) return undefined
        const [folded] = yield* fold([queryText])
        const tokens = Corpus.make(names, options).tokenize(folded ?? queryText)
        const sources = RecallIndex.sourcesOf(state)()
        const found = yield* RecallIndex.withCold(state.dir, config, sources, partitions, (view) =>
          hybridRecall(view, { partitions, window: undefined, nowMillis, tokens, vectors: undefined }, t)
        )
        return found === undefined ? undefined : { found, names, folded }
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
        const vectors = deps.vectors ? yield* deps.vectors({ state, query: queryText }) : undefined
        const fromIndex =
          vectors === undefined && window === undefined
            ? yield* cold(state, partitions, queryText, nowMillis)
            : undefined
        const { found, names, folded } =
          fromIndex ??
          (yield* Effect.gen(function* () {
            const { corpus, names } = yield* refresh(state)
            const [folded] = yield* fold([queryText])
            const tokens = corpus.tokenize(folded ?? queryText)
            return { found: hybridRecall(corpus, { partitions, window, nowMillis, tokens, vectors }, t), names, folded }
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

    /** Drops the corpus and the turn index (an idle actor's release); the next query reads the index or rebuilds. */
    const release = Effect.sync(drop)

    return { query, release, indexSettled: writer.settled }
  })
