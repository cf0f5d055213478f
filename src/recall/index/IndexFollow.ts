/**
 * Brings `recall_index.db` up to date with the source files while the character's in-memory corpus is not
 * built (an idle actor releasing its views after a maintenance pass wrote them, a backfill that settles after
 * the release): the current rows are projected as the corpus projects them and compared with the index's
 * stored entries; the rows that differ (new, changed, moved to another partition) are tokenized and applied
 * with the removed ones in one transaction, and the partitions' statistics are recounted. A row seen for the
 * first time takes the next pool order, as in a corpus. When no entry changed (a file rewritten with fields
 * recall does not read), only the stamps move and the packed vectors are carried over. An index of another
 * format or tokenizer configuration, or none, is left to the next query's rebuild. Also the groups of the
 * packed vectors read from the index instead of a corpus.
 */
import { Effect } from "effect"
import type { Fact } from "../../facts/Fact.js"
import type { Reflection } from "../../reflection/Reflection.js"
import { yieldToIo } from "../../runtime/Actor.js"
import { termCounts, weightLength } from "../bm25/Bm25Index.js"
import { RANK_SPAN, tierRank } from "../RecallCorpus.js"
import { factEntry, reflectionEntry, type RecallEntry } from "../RecallEntry.js"
import { encodeEntry, matches, metaOf } from "./RecallIndex.js"
import * as Db from "./RecallIndexDb.js"
import * as Pack from "./VectorPack.js"

const READ_SLICE = 5000
const FOLD_SLICE = 500

export interface Follow {
  readonly dir: string
  readonly config: string
  /** The source stamps, taken before the rows were read. */
  readonly sources: string
  readonly current: () => string
  readonly facts: ReadonlyArray<Fact>
  /** Pending and confirmed reflections. */
  readonly reflections: ReadonlyArray<Reflection>
  readonly archive: ReadonlyArray<Fact>
  readonly fold: (texts: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>
  readonly tokenize: (folded: string) => ReadonlyArray<string>
}

/** Every doc of an open index, read in slices with pending I/O let through between them. */
const allDocs = (reader: Db.IndexReader, entries: boolean) =>
  Effect.gen(function* () {
    const docs: Array<Db.StoredDoc> = []
    for (let after = -1; ; ) {
      const rows = reader.docsAfter(after, READ_SLICE, entries)
      docs.push(...rows)
      const last = rows[rows.length - 1]
      if (last === undefined || rows.length < READ_SLICE) return docs
      after = last.ord
      yield* yieldToIo
    }
  })

/** The recallable entry of each id, as the corpus resolves it: facts before reflections before the archive. */
const recallable = (f: Follow) => {
  const chosen = new Map<string, RecallEntry>()
  const tiers: ReadonlyArray<() => ReadonlyArray<RecallEntry>> = [
    () => f.facts.map((r) => factEntry(r, "fact")),
    () => f.reflections.map(reflectionEntry),
    () => f.archive.map((r) => factEntry(r, "fact_archive"))
  ]
  for (const entries of tiers) {
    const tier = new Map<string, RecallEntry>()
    for (const e of entries()) tier.set(e.id, e)
    for (const [id, e] of tier) if (!chosen.has(id)) chosen.set(id, e)
  }
  for (const [id, e] of chosen) if (e.blocked || e.partition === undefined) chosen.delete(id)
  return chosen
}

/**
 * Applies the files' current state to the index; true when the index mirrors `sources` afterwards (already, or
 * now), false when there is no usable index or the sources moved meanwhile.
 */
export const catchUp = (f: Follow) =>
  Effect.gen(function* () {
    const reader = yield* Effect.try(() => Db.openReader(f.dir))
    const read = yield* Effect.gen(function* () {
      const before = reader.meta.get("sources") ?? ""
      if (!matches(reader.meta, f.config, before)) return undefined
      if (before === f.sources) return { before, docs: undefined }
      return { before, docs: yield* allDocs(reader, true) }
    }).pipe(Effect.ensuring(Effect.sync(() => reader.close())))
    if (read === undefined) return false
    if (read.docs === undefined) return true
    const keyOf = new Map([...reader.parts].map(([key, p]) => [p.pid, key]))
    const known = new Map(read.docs.map((d) => [d.id, d]))
    const entries = recallable(f)
    const changed: Array<{ readonly entry: RecallEntry; readonly partition: string; readonly stored: string }> = []
    let seq = read.docs.reduce((m, d) => Math.max(m, d.ord % RANK_SPAN), -1)
    let seen = 0
    for (const [id, entry] of entries) {
      if (++seen % READ_SLICE === 0) yield* yieldToIo
      const partition = entry.partition ?? ""
      const stored = encodeEntry(entry, partition)
      const doc = known.get(id)
      if (doc === undefined || doc.entry !== stored || keyOf.get(doc.pid) !== partition)
        changed.push({ entry, partition, stored })
    }
    const removed = read.docs.filter((d) => !entries.has(d.id)).map((d) => d.id)
    const rows: Array<Db.DocRow> = []
    for (let i = 0; i < changed.length; i += FOLD_SLICE) {
      if (i > 0) yield* yieldToIo
      const slice = changed.slice(i, i + FOLD_SLICE)
      const folded = yield* f.fold(slice.map((c) => c.entry.text))
      slice.forEach((c, k) => {
        const doc = known.get(c.entry.id)
        const rank = tierRank[c.entry.tier]
        const ord = doc !== undefined && Math.floor(doc.ord / RANK_SPAN) === rank ? doc.ord : rank * RANK_SPAN + ++seq
        const counts = termCounts(f.tokenize(folded[k] ?? c.entry.text))
        rows.push({
          ord,
          id: c.entry.id,
          partition: c.partition,
          length: weightLength(counts),
          terms: [...counts],
          entry: c.stored
        })
      })
    }
    const lengths = new Map<string, number>(read.docs.map((d) => [d.id, d.length]))
    for (const r of rows) lengths.set(r.id, r.length)
    const stats = new Map<string, { n: number; total: number; dynamic: number }>()
    for (const key of reader.parts.keys()) stats.set(key, { n: 0, total: 0, dynamic: 0 })
    for (const [id, e] of entries) {
      const key = e.partition ?? ""
      const s = stats.get(key) ?? { n: 0, total: 0, dynamic: 0 }
      s.n++
      s.total += lengths.get(id) ?? 0
      if (e.evidence !== undefined) s.dynamic++
      stats.set(key, s)
    }
    return yield* Effect.try(() =>
      Db.update(f.dir, {
        ids: [...changed.map((c) => c.entry.id), ...removed],
        docs: rows,
        parts: [...stats].map(([key, s]) => ({ key, ...s })),
        meta: metaOf(f.config, f.sources),
        still: (meta) => matches(meta, f.config, read.before) && f.current() === f.sources,
        rekey: (key) => Pack.rekeyed(key, read.before, f.sources)
      })
    )
  }).pipe(
    Effect.tap((done) => Effect.logDebug("recall index followed the files").pipe(Effect.annotateLogs({ done }))),
    Effect.catchAllCause((cause) =>
      Effect.logWarning("recall index not brought up to date", cause).pipe(
        Effect.annotateLogs({ dir: f.dir }),
        Effect.as(false)
      )
    )
  )

/** The vectors of the index's facts and reflections grouped by partition in pool order (for VectorPack.ts). */
export const packGroups = (dir: string, map: ReadonlyMap<string, Float32Array>) =>
  Effect.gen(function* () {
    const reader = yield* Effect.try(() => Db.openReader(dir))
    const docs = yield* allDocs(reader, false).pipe(Effect.ensuring(Effect.sync(() => reader.close())))
    const keyOf = new Map([...reader.parts].map(([key, p]) => [p.pid, key]))
    return Pack.grouped(
      docs.flatMap((d) => {
        const vector = map.get(d.id)
        const key = keyOf.get(d.pid)
        return vector === undefined || key === undefined || d.ord >= tierRank.fact_archive * RANK_SPAN
          ? []
          : [[key, d.ord, vector] as const]
      })
    )
  })
