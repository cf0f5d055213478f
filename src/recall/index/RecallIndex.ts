/**
 * The cold-start side of recall: `recall_index.db` (RecallIndexDb.ts) read as a corpus and kept in step with
 * the in-memory one. An index is used only when its tokenizer configuration and the stamps (inode, mtime ns,
 * size) of every source file — facts.json, reflections.json, the archive file and shards — equal the current
 * ones, and no requested partition holds a disputed reflection (whose score moves with the clock); then the
 * query's terms are looked up and only the hits' entries are decoded, and `hybridRecall` runs on that view
 * exactly as on the in-memory corpus (same statistics, same pool order); with vectors on, the cosine side reads
 * the index's packed vectors (VectorPack.ts) when they are fresh too. After each sync of the in-memory
 * corpus the index is brought up to date in the background: the changed ids in one transaction when the
 * index mirrored the corpus's previous state, else a whole rebuild (a temporary file, renamed into place).
 * Every write first re-checks the source stamps and gives up when they moved, so a forget (which deletes the
 * index, Forget.ts) is never undone by a write prepared before it. Correctness never depends on the index:
 * missing, stale or unreadable, recall takes its in-memory path.
 */
import { Effect, Schema } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import type { Bm25View } from "../bm25/Bm25Index.js"
import { RANK_SPAN, tierRank, type CorpusView, type Partition } from "../RecallCorpus.js"
import type { RecallEntry } from "../RecallEntry.js"
import * as Db from "./RecallIndexDb.js"
import * as Pack from "./VectorPack.js"
import type { RecallHost } from "../RecallTypes.js"
import * as Timeline from "../Timeline.js"

const FORMAT = "4"

const Stored = Schema.Struct({
  id: Schema.String,
  text: Schema.String,
  tier: Schema.Literal("fact", "reflection", "fact_archive"),
  entity: Schema.String,
  subjectKind: Schema.NullOr(Schema.String),
  subjectId: Schema.NullOr(Schema.String),
  scope: Schema.NullOr(Schema.String),
  createdAt: Schema.NullOr(Schema.String),
  eventStartAt: Schema.NullOr(Schema.String),
  eventEndAt: Schema.NullOr(Schema.String),
  partition: Schema.String,
  window: Schema.NullOr(Schema.Tuple(Schema.Number, Schema.Number)),
  sourceRowIds: Schema.Array(Schema.Number)
})
const decodeStored = Schema.decodeUnknownSync(Schema.parseJson(Stored))
type Stored = typeof Stored.Type

/** The stored JSON of an entry (plain `JSON.stringify`: it is written for every entry of a corpus). */
export const encodeEntry = (e: RecallEntry, partition: string) => {
  const stored: Stored = {
    id: e.id,
    text: e.text,
    tier: e.tier,
    entity: e.entity,
    subjectKind: e.subjectKind,
    subjectId: e.subjectId,
    scope: e.scope,
    createdAt: e.createdAt,
    eventStartAt: e.eventStartAt,
    eventEndAt: e.eventEndAt,
    partition,
    window: e.window === undefined ? null : [e.window[0], e.window[1]],
    sourceRowIds: e.sourceRowIds
  }
  return JSON.stringify(stored)
}

/** An entry in the field order of RecallEntry.ts's `project`, so entries from both share one shape. */
const decodeEntry = (json: string): RecallEntry => {
  const s = decodeStored(json)
  return {
    id: s.id,
    text: s.text,
    tier: s.tier,
    entity: s.entity,
    subjectKind: s.subjectKind,
    subjectId: s.subjectId,
    scope: s.scope,
    createdAt: s.createdAt,
    eventStartAt: s.eventStartAt,
    eventEndAt: s.eventEndAt,
    partition: s.partition,
    window: s.window ?? undefined,
    blocked: false,
    evidence: undefined,
    sourceRowIds: s.sourceRowIds
  }
}

/** The source files of the corpus, stamped synchronously (a write checks them inside its transaction). */
export const sourcesOf = (state: RecallHost) => {
  const files = () => [
    state.facts.file,
    state.reflections.file,
    path.join(state.dir, "facts_archive.json"),
    ...state.archive.shards().map((n) => path.join(state.archive.shardDir, n))
  ]
  return () =>
    files()
      .map((file) => {
        const s = fs.statSync(file, { bigint: true, throwIfNoEntry: false })
        return `${path.relative(state.dir, file)}:${s === undefined ? "-" : `${s.ino}:${s.mtimeNs}:${s.size}`}`
      })
      .join("\n")
}

/** The source stamps an existing index of this format and `config` mirrors; undefined without one. */
export const stampsOf = (dir: string, config: string): string | undefined => {
  if (!fs.existsSync(Db.indexFile(dir))) return undefined
  try {
    const meta = Db.readerMeta(dir)
    const sources = meta.get("sources")
    return sources !== undefined && matches(meta, config, sources) ? sources : undefined
  } catch {
    return undefined
  }
}

export const metaOf = (config: string, sources: string) =>
  new Map([
    ["format", FORMAT],
    ["config", config],
    ["sources", sources]
  ])

export const matches = (meta: ReadonlyMap<string, string>, config: string, sources: string) =>
  meta.get("format") === FORMAT && meta.get("config") === config && meta.get("sources") === sources

/**
 * Dense search slots for pool orders (a tier's rank times RANK_SPAN plus its sequence number): rank times one past
 * the largest sequence number, plus the sequence number.
 */
const slotting = (reader: Db.IndexReader) => {
  const ranks = Object.keys(tierRank).length
  const seqs = Math.max(1, reader.seqs(RANK_SPAN, ranks))
  return {
    slots: ranks * seqs,
    of: (ord: number) => Math.floor(ord / RANK_SPAN) * seqs + (ord % RANK_SPAN),
    ord: (slot: number) => Math.floor(slot / seqs) * RANK_SPAN + (slot % seqs)
  }
}

/** A read-only BM25 view of one partition of the index; document ids are pool orders as strings. */
const lazyIndex = (
  reader: Db.IndexReader,
  pid: number,
  stats: Db.PartStats,
  slot: ReturnType<typeof slotting>
): Bm25View => {
  const cache = new Map<string, Db.Postings>()
  const postings = (term: string) => {
    const hit = cache.get(term)
    if (hit) return hit
    const rows = reader.postings(pid, term)
    cache.set(term, rows)
    return rows
  }
  const doc = (id: string) => reader.doc(Number(id))
  return {
    size: () => stats.n,
    totalLength: () => stats.total,
    has: (id) => doc(id)?.pid === pid,
    lengthOf: (id) => {
      const d = doc(id)
      return d?.pid === pid ? d.length : undefined
    },
    df: (term) => postings(term).length / 3,
    forEachPosting: (term, f) => {
      const p = postings(term)
      for (let i = 0; i < p.length; i += 3) f(String(p[i]), p[i + 1] ?? 0, p[i + 2] ?? 0)
    },
    slots: () => slot.slots,
    slotOf: (id) => (doc(id)?.pid === pid ? slot.of(Number(id)) : undefined),
    idAt: (at) => String(slot.ord(at)),
    gather: (term, out, mask, skip) => {
      const p = postings(term)
      out.reserve(p.length / 3)
      const withSkip = skip !== undefined && skip.size > 0 ? skip : undefined
      let n = out.n
      for (let i = 0; i < p.length; i += 3) {
        const at = slot.of(p[i] ?? 0)
        if (mask !== undefined ? mask[at] !== 1 : withSkip !== undefined && withSkip.has(at)) continue
        out.slots[n] = at
        out.tfs[n] = p[i + 1] ?? 0
        out.lengths[n] = p[i + 2] ?? 0
        n++
      }
      out.n = n
    }
  }
}

const lazyPartition = (
  reader: Db.IndexReader,
  stats: Db.PartStats & { readonly pid: number },
  slot: ReturnType<typeof slotting>
): Partition => ({
  index: lazyIndex(reader, stats.pid, stats, slot),
  members: {
    size: stats.n,
    get: (id) => {
      const json = reader.doc(Number(id))?.pid === stats.pid ? reader.entry(Number(id)) : undefined
      return json === undefined ? undefined : decodeEntry(json)
    },
    values: () => reader.entries(stats.pid).map(decodeEntry).values()
  },
  dynamic: new Set(),
  timeline: Timeline.make()
})

/**
 * Runs `f` on the index as a corpus view (and its packed vectors) when it is fresh for `config` and the current
 * sources and none of `keys` holds a disputed reflection; undefined otherwise, when the file is missing or
 * unreadable, or when `f` answers undefined (its query needs what the index does not hold).
 */
export const withCold = <A, R>(
  dir: string,
  config: string,
  sources: string,
  keys: ReadonlyArray<string>,
  cache: Pack.PackCache,
  f: (view: CorpusView, packs: Pack.PackSource) => Effect.Effect<A | undefined, never, R>
): Effect.Effect<A | undefined, never, R> => {
  const unreadable = (error: unknown) =>
    Effect.logWarning("recall index unreadable; recalled from the files").pipe(
      Effect.annotateLogs({ dir, error: String(error) }),
      Effect.as(undefined)
    )
  const open = Effect.try(() => {
    if (!fs.existsSync(Db.indexFile(dir))) return undefined
    const reader = Db.openReader(dir)
    try {
      if (!matches(reader.meta, config, sources)) return closed(reader)
      const parts: Array<Partition> = []
      const pids: Array<number> = []
      const slot = slotting(reader)
      for (const key of new Set(keys)) {
        const stats = reader.parts.get(key)
        if (stats === undefined) continue
        if (stats.dynamic > 0) return closed(reader)
        parts.push(lazyPartition(reader, stats, slot))
        pids.push(stats.pid)
      }
      return { reader, parts, pids }
    } catch (e) {
      reader.close()
      throw e
    }
  })
  return Effect.acquireUseRelease(
    open.pipe(Effect.catchAll((e) => unreadable(e.error))),
    (opened) =>
      opened === undefined
        ? Effect.succeed(undefined)
        : f(
            { partitions: () => opened.parts, order: (id) => Number(id) },
            Pack.packSource(opened.reader, sources, opened.pids, cache)
          ).pipe(Effect.catchAllDefect(unreadable)),
    (opened) => Effect.sync(() => opened?.reader.close())
  )
}

const closed = (reader: Db.IndexReader) => {
  reader.close()
  return undefined
}
