/**
 * Keeps `recall_index.db` and its packed vectors current outside a query (Recall.ts calls it when an idle actor
 * releases its views, when an actor closes, when a backfill settles, and once when a cold query finds the index
 * stale): through the in-memory corpus when one is built (its sync writes the change), else from the files
 * directly (IndexFollow.ts); then, when asked, the vectors are packed again unless the index's pack is already
 * keyed to the current model, `vectors.db` version and source stamps.
 */
import { Effect, Option } from "effect"
import * as ArchiveRows from "../../facts/ArchiveRows.js"
import * as Corpus from "../RecallCorpus.js"
import type { RecallHost } from "../RecallTypes.js"
import * as IndexFollow from "./IndexFollow.js"
import * as RecallIndex from "./RecallIndex.js"
import * as Db from "./RecallIndexDb.js"
import type * as IndexWriter from "./RecallIndexWriter.js"
import { groupOf, packKey } from "./VectorPack.js"

type Vectors = ReadonlyMap<string, Float32Array>

/** The vectors of the memory rows under one model, and the `vectors.db` version they were read at. */
export interface PackableVectors {
  readonly modelId: string
  readonly version: string
  readonly map: Vectors
}

/** What packing needs of the cosine side (Recall.ts's VectorSeam). */
export interface PackVectors {
  /** The current vectors for the index's packed copy, without a query (undefined without a model). */
  readonly packable: (state: RecallHost) => Effect.Effect<PackableVectors | undefined>
  /** What a pack made now would be keyed by (model id, `vectors.db` version), read cheaply; undefined without. */
  readonly packing: (
    state: RecallHost
  ) => Effect.Effect<{ readonly modelId: string; readonly version: string } | undefined>
}

/** The pack groups of a built corpus. */
export const packGroups = (corpus: Corpus.RecallCorpus, map: Vectors) => Effect.sync(() => groupOf(corpus, map))

export const make = (deps: {
  readonly writer: Effect.Effect.Success<typeof IndexWriter.make>
  readonly setup: Effect.Effect<{
    readonly names: ReadonlyArray<string>
    readonly options: Parameters<typeof Corpus.make>[1]
    readonly config: string
  }>
  readonly fold: (texts: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>
  readonly vectors: PackVectors | undefined
  /** The built corpus synced with the files (its change reported to the writer); undefined when none is built. */
  readonly built: (
    state: RecallHost
  ) => Effect.Effect<
    { readonly corpus: Corpus.RecallCorpus; readonly config: string; readonly sources: string } | undefined,
    unknown
  >
}) => {
  /**
   * Brings the index up to date with the files (in the background, in order with the other index writes);
   * undefined when there is no corpus and no index of this configuration. The sources are stamped before reading.
   */
  const follow = (state: RecallHost) =>
    Effect.gen(function* () {
      const built = yield* deps.built(state)
      if (built !== undefined) {
        const { corpus, config, sources } = built
        return { config, sources, groups: (map: Vectors) => packGroups(corpus, map) }
      }
      const { names, options, config } = yield* deps.setup
      const stamps = RecallIndex.sourcesOf(state)
      const sources = stamps()
      const groups = (map: Vectors) => IndexFollow.packGroups(state.dir, map)
      const mirrored = RecallIndex.stampsOf(state.dir, config)
      if (mirrored === undefined) return undefined
      if (mirrored === sources) return { config, sources, groups }
      const facts = (yield* state.facts.load).all
      const reflections = (yield* state.reflections.loadAll).filter(
        (r) => r.status === "pending" || r.status === "confirmed"
      )
      const archive = Option.getOrElse(yield* ArchiveRows.make().rows(state), () => [])
      const { tokenize } = Corpus.make(names, options)
      yield* deps.writer.follow({
        dir: state.dir,
        config,
        sources,
        current: stamps,
        facts,
        reflections,
        archive,
        fold: deps.fold,
        tokenize
      })
      return { config, sources, groups }
    })

  /** Whether the index's packed vectors may not be those a pack made now of `sources` would be. */
  const packStale = (state: RecallHost, sources: string) =>
    Effect.gen(function* () {
      const at = deps.vectors ? yield* deps.vectors.packing(state) : undefined
      if (at === undefined) return false
      const meta = yield* Effect.try(() => Db.readerMeta(state.dir)).pipe(Effect.orElseSucceed(() => undefined))
      // No index yet (a write under way): the pack job waits for it and decides.
      return meta === undefined || meta.get("vectors") !== packKey(at.modelId, at.version, sources)
    })

  /** `follow`, then, when `withPack` and the pack may be stale, the current vectors offered for it. */
  const followAndPack = (state: RecallHost, withPack: boolean) =>
    Effect.gen(function* () {
      const followed = yield* follow(state)
      if (!withPack || followed === undefined || deps.vectors === undefined) return
      const { config, sources, groups } = followed
      if (!(yield* packStale(state, sources))) return
      const pack = yield* deps.vectors.packable(state)
      if (pack === undefined) return
      const offer = { dir: state.dir, config, sources, current: RecallIndex.sourcesOf(state), ...pack }
      yield* deps.writer.packed({ ...offer, groups: groups(pack.map) }, true)
    })

  return { followAndPack }
}
