/**
 * The recall corpus of one character, kept current incrementally. Each source tier (active facts,
 * reflections, archived facts) remembers the list it last saw; `diff` compares a fresh list with it by
 * reference (views keep unchanged records as the same objects) in one walk for the usual changes (records
 * replaced in place, appended, a few removed), else by common head and tail plus an id comparison of the
 * rows between. Only new or changed rows are projected and re-tokenized. An id present in several tiers resolves to one entry:
 * active fact, then reflection, then archived fact (an archive row whose id is still active is dropped).
 * Recallable entries live in one BM25 index per subject partition, with the set of disputed reflections
 * whose evidence is scored at query time and a timeline of event times. Tokens are N.E.K.O.'s recall
 * tokens of the text folded to Simplified Chinese with the speakers' names stripped, plus (by default) the
 * text's CJK words (`cjkWords`, kioku's: Chinese and Japanese words, one Han character included) and its concept
 * terms (Concepts.ts, when a matcher is given); the caller folds (an effect), the corpus tokenizes.
 * `keys`, `placement` and `live` expose the partitions to the writer of the on-disk index (index/RecallIndexWriter.ts).
 */
import * as Bm25 from "./bm25/Bm25Index.js"
import type { RecallEntry, Tier } from "./RecallEntry.js"
import * as Timeline from "./Timeline.js"
import { cjkWords, nameStripper, recallTokens } from "./Tokenize.js"
import { analyze } from "./TurnAnalyzer.js"
import { none, type ConceptMatcher } from "./Concepts.js"

export interface Row {
  readonly id: string
  readonly text: string
}

export interface Changes<R extends Row> {
  readonly rows: ReadonlyArray<R>
  readonly changed: ReadonlyArray<R>
  readonly removed: ReadonlyArray<string>
}

interface Stored {
  readonly row: Row
  readonly entry: RecallEntry
  readonly folded: string
  readonly seq: number
}

/** What recall reads of a partition's members (a Map, or a lazy view of the on-disk index). */
export interface Members {
  readonly size: number
  readonly get: (id: string) => RecallEntry | undefined
  readonly values: () => IterableIterator<RecallEntry>
}

export interface Partition {
  readonly index: Bm25.Bm25View
  readonly members: Members
  /** Members whose evidence score changes with time (disputed reflections). */
  readonly dynamic: Set<string>
  /** Members with an event time, by start. */
  readonly timeline: Timeline.Timeline
}

export interface RecallCorpus {
  readonly diff: <R extends Row>(tier: Tier, rows: ReadonlyArray<R>) => Changes<R>
  /** Applies a diff; `folded[i]` is the folded text of `changes.changed[i]`. */
  readonly apply: <R extends Row>(
    tier: Tier,
    changes: Changes<R>,
    folded: ReadonlyArray<string>,
    project: (row: R) => RecallEntry
  ) => void
  /** The existing partitions among `keys`. */
  readonly partitions: (keys: ReadonlyArray<string>) => ReadonlyArray<Partition>
  /** Pool order for ties: active facts, reflections, archive, each in the order first seen. */
  readonly order: (id: string) => number
  readonly tokenize: (folded: string) => Array<string>
  /** The keys of the partitions created so far. */
  readonly keys: () => ReadonlyArray<string>
  /** The partition key of a recallable entry, undefined when `id` is not recallable. */
  readonly placement: (id: string) => string | undefined
  readonly live: (key: string) => LivePartition | undefined
}

/** The part of a corpus that recall reads (index/RecallIndex.ts offers it from the on-disk index too). */
export type CorpusView = Pick<RecallCorpus, "partitions" | "order">

export interface LivePartition extends Partition {
  readonly index: Bm25.Bm25Index
  readonly members: Map<string, RecallEntry>
}

/** Pool orders: a tier's rank times RANK_SPAN plus the order in which the corpus first saw the row. */
export const tierRank: Readonly<Record<Tier, number>> = { fact: 0, reflection: 1, fact_archive: 2 }
export const RANK_SPAN = 2 ** 40

/**
 * `names` are the speakers' names, already folded the way texts are; `cjkWords` adds the CJK words to the
 * tokens (tunable `recall_cjk_words`; off, the tokens are exactly N.E.K.O.'s).
 */
export const make = (
  names: ReadonlyArray<string>,
  options: { readonly cjkWords?: boolean; readonly stemmed?: boolean; readonly concepts?: ConceptMatcher } = {}
): RecallCorpus => {
  const tiers: Record<Tier, Map<string, Stored>> = {
    fact: new Map(),
    reflection: new Map(),
    fact_archive: new Map()
  }
  const last: Record<Tier, ReadonlyArray<Row>> = { fact: [], reflection: [], fact_archive: [] }
  const parts = new Map<string, LivePartition>()
  const placed = new Map<string, { readonly record: Stored; readonly partition: string }>()
  let seq = 0

  const strip = nameStripper(names)
  const concepts = options.concepts ?? none
  const tokenize = (folded: string) => {
    const text = strip(folded)
    if (options.stemmed === true) return [...analyze(text), ...concepts(text)]
    return options.cjkWords === true
      ? [...recallTokens(text), ...cjkWords(text), ...concepts(text)]
      : recallTokens(text)
  }

  const partitionFor = (key: string): LivePartition => {
    const existing = parts.get(key)
    if (existing) return existing
    const created: LivePartition = {
      index: Bm25.make(),
      members: new Map(),
      dynamic: new Set(),
      timeline: Timeline.make()
    }
    parts.set(key, created)
    return created
  }

  const unplace = (id: string) => {
    const at = placed.get(id)
    if (!at) return
    const part = parts.get(at.partition)
    part?.index.remove(id)
    part?.members.delete(id)
    part?.dynamic.delete(id)
    part?.timeline.remove(id)
    placed.delete(id)
  }

  /** Re-resolves which record of `id` is recallable and moves it into (or out of) its partition. */
  const refresh = (id: string) => {
    const record = tiers.fact.get(id) ?? tiers.reflection.get(id) ?? tiers.fact_archive.get(id)
    const entry = record?.entry
    const recallable = record && entry && !entry.blocked && entry.partition !== undefined ? record : undefined
    const at = placed.get(id)
    if (recallable === undefined || recallable.entry.partition === undefined) return unplace(id)
    const key = recallable.entry.partition
    const part = partitionFor(key)
    const moved = at === undefined || at.partition !== key
    if (moved || at.record.folded !== recallable.folded) {
      unplace(id)
      part.index.upsert(id, tokenize(recallable.folded))
    }
    part.members.set(id, recallable.entry)
    if (recallable.entry.evidence) part.dynamic.add(id)
    else part.dynamic.delete(id)
    const w = recallable.entry.window
    const before = placed.has(id) ? at?.record.entry.window : undefined
    if (w === undefined) part.timeline.remove(id)
    else if (before === undefined || before[0] !== w[0] || before[1] !== w[1]) part.timeline.add(id, w[0], w[1])
    placed.set(id, { record: recallable, partition: key })
  }

  return {
    diff: (tier, rows) => aligned(tiers[tier], last[tier], rows) ?? general(tiers[tier], last[tier], rows),
    apply: (tier, changes, folded, project) => {
      const known = tiers[tier]
      last[tier] = changes.rows
      for (const id of changes.removed) {
        known.delete(id)
        refresh(id)
      }
      changes.changed.forEach((row, i) => {
        const previous = known.get(row.id)
        const text = folded[i] ?? row.text
        known.set(row.id, { row, entry: project(row), folded: text, seq: previous?.seq ?? seq++ })
        refresh(row.id)
      })
    },
    partitions: (keys) => [...new Set(keys)].flatMap((k) => parts.get(k) ?? []),
    order: (id) => {
      const at = placed.get(id)
      return at ? tierRank[at.record.entry.tier] * RANK_SPAN + at.record.seq : Number.MAX_SAFE_INTEGER
    },
    tokenize,
    keys: () => [...parts.keys()],
    placement: (id) => placed.get(id)?.partition,
    live: (key) => parts.get(key)
  }
}

/**
 * The usual change — records replaced in place, appended, or a few removed — found in one walk over both
 * lists comparing references; undefined when the lists disagree in another way.
 */
const aligned = <R extends Row>(
  known: ReadonlyMap<string, unknown>,
  prev: ReadonlyArray<Row>,
  rows: ReadonlyArray<R>
): Changes<R> | undefined => {
  const changed: Array<R> = []
  const removed: Array<string> = []
  let i = 0
  let j = 0
  while (i < prev.length && j < rows.length) {
    const p = prev[i]
    const r = rows[j]
    if (p === undefined || r === undefined) return undefined
    if (p === r || p.id === r.id) {
      if (p !== r) changed.push(r)
      i++
      j++
    } else if (!known.has(r.id)) {
      changed.push(r)
      j++
    } else if (prev[i + 1]?.id === r.id) {
      removed.push(p.id)
      i++
    } else return undefined
  }
  for (; i < prev.length; i++) removed.push(prev[i]?.id ?? "")
  for (; j < rows.length; j++) {
    const r = rows[j]
    if (r !== undefined) changed.push(r)
  }
  return { rows, changed, removed }
}

/** Any change: the common head and tail by reference, then the rows between compared by id. */
const general = <R extends Row>(
  known: ReadonlyMap<string, { readonly row: Row }>,
  prev: ReadonlyArray<Row>,
  rows: ReadonlyArray<R>
): Changes<R> => {
  const max = Math.min(prev.length, rows.length)
  let head = 0
  while (head < max && prev[head] === rows[head]) head++
  let tail = 0
  while (tail < max - head && prev[prev.length - 1 - tail] === rows[rows.length - 1 - tail]) tail++
  const middle = rows.slice(head, rows.length - tail)
  const present = new Set(middle.map((r) => r.id))
  const changed = middle.filter((r) => known.get(r.id)?.row !== r)
  const removed = prev
    .slice(head, prev.length - tail)
    .map((r) => r.id)
    .filter((id) => !present.has(id))
  return { rows, changed, removed }
}
