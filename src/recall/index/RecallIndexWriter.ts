/**
 * Keeps `recall_index.db` in step with the in-memory recall corpus (RecallIndex.ts reads it). After every
 * sync Recall.ts reports the ids it touched and the source stamps before and after; the writer then, in a
 * background fiber (one write at a time, in order):
 * - does nothing when nothing changed and the index already mirrors the corpus;
 * - applies the touched ids in one transaction when the index mirrors the corpus's previous state;
 * - otherwise writes the whole corpus (copied before the corpus can change again, written in slices with pending
 *   I/O let through between them) to a temporary file renamed into place.
 * Before each slice, and inside the transaction of a change, the current source stamps are compared with
 * those of the reported state; when they moved (a write, a forget) the work is dropped, so the index never
 * holds text the files no longer hold past the next forget. Failures are logged and leave recall on its
 * in-memory path. The vectors of a warm query are offered too (`packed`) and written as the index's packed
 * vectors the same way, after the index writes before them. Without a corpus, `follow` brings the index up to
 * date from the files (IndexFollow.ts), in order with the rest.
 */
import { Deferred, Effect } from "effect"
import { yieldToIo } from "../../runtime/Actor.js"
import type { RecallCorpus } from "../RecallCorpus.js"
import { encodeEntry, matches, metaOf } from "./RecallIndex.js"
import * as Db from "./RecallIndexDb.js"
import * as IndexFollow from "./IndexFollow.js"
import * as PackWriter from "./PackWriter.js"
import * as Pack from "./VectorPack.js"

const DOC_SLICE = 5000
const POSTING_SLICE = 200_000
/** Units of copying (a posting 1, an entry 10) between two yields to pending I/O. */
const COPY_SLICE = 50_000

export interface Synced {
  readonly dir: string
  readonly corpus: RecallCorpus
  readonly config: string
  /** Source stamps of the corpus's previous state; undefined for a corpus just built. */
  readonly before: string | undefined
  readonly after: string
  readonly current: () => string
  readonly touched: ReadonlySet<string>
}

const partStats = (corpus: RecallCorpus): Array<Db.PartStats> =>
  corpus.keys().flatMap((key) => {
    const p = corpus.live(key)
    return p ? [{ key, n: p.index.size(), total: p.index.totalLength(), dynamic: p.dynamic.size }] : []
  })

const docRow = (corpus: RecallCorpus, id: string): Db.DocRow | undefined => {
  const key = corpus.placement(id)
  const p = key === undefined ? undefined : corpus.live(key)
  const entry = p?.members.get(id)
  if (key === undefined || p === undefined || entry === undefined) return undefined
  return {
    ord: corpus.order(id),
    id,
    partition: key,
    length: p.index.lengthOf(id) ?? 0,
    terms: p.index.termsOf(id),
    entry: encodeEntry(entry, key)
  }
}

interface TermPostings {
  readonly key: string
  readonly term: string
  readonly triples: Db.Postings
}

interface Snapshot {
  readonly docs: ReadonlyArray<Db.DocRow>
  readonly postings: ReadonlyArray<TermPostings>
  readonly parts: ReadonlyArray<Db.PartStats>
}

/**
 * A whole copy of the corpus (docs by pool order, postings by partition, term and order), taken in slices with
 * pending I/O let through between them; the caller keeps the corpus from changing meanwhile.
 */
const snapshot = (corpus: RecallCorpus): Effect.Effect<Snapshot> =>
  Effect.gen(function* () {
    const docs: Array<Db.DocRow> = []
    const postings: Array<TermPostings> = []
    let work = 0
    const step = (n: number) => {
      work += n
      if (work < COPY_SLICE) return Effect.void
      work = 0
      return yieldToIo
    }
    for (const key of corpus.keys()) {
      const p = corpus.live(key)
      if (p === undefined) continue
      for (const id of [...p.members.keys()]) {
        const row = docRow(corpus, id)
        if (row) docs.push(row)
        yield* step(10)
      }
      for (const term of [...p.index.terms()].sort()) {
        const triples: Array<readonly [number, number, number]> = []
        p.index.forEachPosting(term, (id, tf, length) => triples.push([corpus.order(id), tf, length]))
        triples.sort((a, b) => a[0] - b[0])
        postings.push({ key, term, triples: Float64Array.from(triples.flat()) })
        yield* step(1 + triples.length)
      }
    }
    docs.sort((a, b) => a.ord - b.ord)
    return { docs, postings, parts: partStats(corpus) }
  })

class Moved {
  readonly _tag = "Moved"
}

/** Writes a snapshot to a fresh file in slices; false when the sources moved meanwhile. */
const writeWhole = (s: Synced, snap: Snapshot) =>
  Effect.gen(function* () {
    const build = Db.build(s.dir)
    const step = (f: Parameters<typeof build.slice>[0]) =>
      Effect.gen(function* () {
        yield* yieldToIo
        if (s.current() !== s.after) {
          yield* Effect.logDebug("recall index: sources moved").pipe(
            Effect.annotateLogs({ now: s.current(), then: s.after })
          )
          return yield* Effect.fail(new Moved())
        }
        build.slice(f)
      })
    const run = Effect.gen(function* () {
      yield* step((w) => w.parts(snap.parts))
      for (let i = 0; i < snap.docs.length; i += DOC_SLICE)
        yield* step((w) => snap.docs.slice(i, i + DOC_SLICE).forEach((d) => w.doc(d)))
      let at = 0
      while (at < snap.postings.length) {
        const from = at
        let rows = 0
        while (at < snap.postings.length && rows < POSTING_SLICE) rows += (snap.postings[at++]?.triples.length ?? 0) / 3
        yield* step((w) => {
          for (const t of snap.postings.slice(from, at)) w.postings(t.key, t.term, t.triples)
        })
      }
      if (s.current() !== s.after) return yield* Effect.fail(new Moved())
      build.commit(metaOf(s.config, s.after))
      return true
    })
    return yield* run.pipe(
      Effect.catchTag("Moved", () => Effect.succeed(false)),
      Effect.onExit(() => Effect.sync(() => build.abort()))
    )
  })

/** The touched ids as rows, and the partitions' statistics, as the corpus has them now. */
const changeOf = (s: Synced) => ({
  docs: [...s.touched].flatMap((id) => docRow(s.corpus, id) ?? []),
  parts: partStats(s.corpus)
})

/** The change applied to an index that mirrors `before`; false when it does not (or the sources moved). */
const applyChange = (s: Synced, before: string, change: ReturnType<typeof changeOf>) =>
  Effect.try(() =>
    Db.update(s.dir, {
      ids: [...s.touched],
      docs: change.docs,
      parts: change.parts,
      meta: metaOf(s.config, s.after),
      still: (meta) => matches(meta, s.config, before) && s.current() === s.after,
      rekey: (key) => Pack.rekeyed(key, before, s.after)
    })
  ).pipe(Effect.orElseSucceed(() => false))

/** Whether the index on disk already is the reported state. */
const mirrors = (s: Synced) =>
  Effect.try(() => {
    const reader = Db.openReader(s.dir)
    try {
      return matches(reader.meta, s.config, s.after)
    } finally {
      reader.close()
    }
  }).pipe(Effect.orElseSucceed(() => false))

export const make = Effect.gen(function* () {
  const lock = yield* Effect.makeSemaphore(1)
  /** Completed once the last reported state was copied out of the corpus (refresh waits for it). */
  let copying: Deferred.Deferred<void> | undefined
  const jobs = new Set<Deferred.Deferred<void>>()

  type Prepared =
    | { readonly _tag: "Whole"; readonly snap: Snapshot }
    | { readonly _tag: "Change"; readonly before: string; readonly change: ReturnType<typeof changeOf> }

  const write = (s: Synced, prepared: Prepared) =>
    Effect.gen(function* () {
      if (prepared._tag === "Change" && (yield* applyChange(s, prepared.before, prepared.change))) return
      if ((yield* mirrors(s)) || s.current() !== s.after) return
      // Sources unchanged since the report: the corpus is still in the reported state (it changes only with them);
      // writeWhole checks them again before its first slice, so a change during this copy drops it.
      const snap = prepared._tag === "Whole" ? prepared.snap : yield* snapshot(s.corpus)
      const done = yield* writeWhole(s, snap)
      yield* Effect.logDebug("recall index written").pipe(Effect.annotateLogs({ dir: s.dir, complete: done }))
    }).pipe(
      Effect.catchAllCause((cause) =>
        Effect.logWarning("recall index not written", cause).pipe(Effect.annotateLogs({ dir: s.dir }))
      ),
      lock.withPermits(1)
    )

  /**
   * Reports a sync of the corpus. The copy (whole for a corpus just built, else the touched rows) is taken by a
   * background fiber as soon as it runs, before the corpus can change again (see `beforeChange`), so the
   * answer does not wait for it; the write follows, one at a time.
   */
  const synced = (s: Synced) =>
    Effect.gen(function* () {
      if (s.before === s.after && s.touched.size === 0) return
      const copied = yield* Deferred.make<void>()
      const done = yield* Deferred.make<void>()
      copying = copied
      jobs.add(done)
      const job = Effect.gen(function* () {
        // After the answer is on its way (the copy of a large corpus takes a while).
        yield* yieldToIo
        yield* yieldToIo
        const before = s.before
        const prepared: Prepared =
          before === undefined
            ? { _tag: "Whole", snap: yield* snapshot(s.corpus) }
            : { _tag: "Change", before, change: changeOf(s) }
        yield* Deferred.succeed(copied, undefined)
        yield* write(s, prepared)
      }).pipe(
        Effect.ensuring(
          Effect.all([Deferred.succeed(copied, undefined), Deferred.succeed(done, undefined)]).pipe(
            Effect.zipRight(Effect.sync(() => jobs.delete(done)))
          )
        )
      )
      yield* Effect.forkDaemon(job)
    })

  const enqueue: PackWriter.Enqueue = (job) =>
    Effect.gen(function* () {
      const earlier = [...jobs]
      const done = yield* Deferred.make<void>()
      jobs.add(done)
      const queued = Effect.forEach(earlier, Deferred.await, { discard: true }).pipe(
        Effect.zipRight(yieldToIo),
        Effect.zipRight(lock.withPermits(1)(job)),
        Effect.ensuring(Effect.sync(() => jobs.delete(done)).pipe(Effect.zipRight(Deferred.succeed(done, undefined))))
      )
      yield* Effect.forkDaemon(queued)
    })

  const packed = PackWriter.make(enqueue)

  /** Brings the index up to date with the files without the corpus (IndexFollow.ts), after the writes before it. */
  const follow = (f: IndexFollow.Follow) => enqueue(Effect.asVoid(IndexFollow.catchUp(f)))

  /** Waits until the corpus may change: the last reported state has been copied (normally at once). */
  const beforeChange = Effect.suspend(() => (copying === undefined ? Effect.void : Deferred.await(copying)))

  /** Waits for the writes reported so far. */
  const settled = Effect.suspend(() => Effect.forEach([...jobs], Deferred.await, { discard: true }))

  return { synced, packed, follow, beforeChange, settled }
})
