/**
 * Writes the vectors a warm query used as the recall index's packed copy (VectorPack.ts), in the background and
 * in order with the index writes of RecallIndexWriter.ts (same lock, same job set).
 */
import { Clock, Effect } from "effect"
import { yieldToIo } from "../../runtime/Actor.js"
import { matches } from "./RecallIndex.js"
import * as Db from "./RecallIndexDb.js"
import * as Pack from "./VectorPack.js"

/**
 * While only the vectors move (a backfill under way), the next pack of the same sources waits this many times as
 * long as the last one took, which bounds the background work to a small share of the time whatever the size.
 */
const PACK_SPACING = 20

export interface PackOffer {
  readonly dir: string
  /** The vectors grouped by partition in pool order, from the corpus or the index they were checked against. */
  readonly groups: Effect.Effect<ReadonlyArray<Pack.Group>, unknown>
  readonly config: string
  /** Source stamps of the corpus the vectors were checked against, and the current ones. */
  readonly sources: string
  readonly current: () => string
  readonly modelId: string
  /** The `vectors.db` version read before the vectors. */
  readonly version: string
  readonly map: ReadonlyMap<string, Float32Array>
}

/** Runs a job in the background after the index jobs queued before it, holding the index lock. */
export type Enqueue = (job: Effect.Effect<void>) => Effect.Effect<void>

export const make = (enqueue: Enqueue) => {
  /** When packed vectors were last written, and for which sources (the throttle of `packed`). */
  let lastPack:
    | { readonly key: string; readonly sources: string; readonly at: number; readonly took: number }
    | undefined
  /** Pack jobs in flight. */
  let packing = 0

  /**
   * Offers the vectors a warm query used for the index's packed copy (VectorPack.ts): nothing when this process
   * wrote that pack last; else grouped by partition, encoded and written in the background after the index
   * writes reported before, when the index then mirrors `sources` and holds no pack of the same key. While only the
   * vectors moved (a backfill under way) packs are spaced by PACK_SPACING, unless `settled` (the backfill is over:
   * this pack is the one the next start reads).
   */
  return (p: PackOffer, settled = false) =>
    Effect.gen(function* () {
      const key = Pack.packKey(p.modelId, p.version, p.sources)
      const now = yield* Clock.currentTimeMillis
      const spaced = lastPack && lastPack.sources === p.sources && now - lastPack.at < PACK_SPACING * lastPack.took
      if (lastPack?.key === key || (!settled && (packing > 0 || spaced))) return
      packing++
      const fresh = (meta: ReadonlyMap<string, string>) =>
        matches(meta, p.config, p.sources) && p.current() === p.sources && meta.get("vectors") !== key
      const write = Effect.gen(function* () {
        if (!(yield* Effect.try(() => Db.readerMeta(p.dir)).pipe(Effect.map(fresh)))) return
        // Sources unchanged since the offer, so the corpus (or index) is still in the state the vectors were
        // checked against (it changes only with them): grouped here, off the query's path.
        const began = yield* Clock.currentTimeMillis
        const packs: Array<Pack.PartPack> = []
        for (const g of yield* p.groups) {
          yield* yieldToIo
          packs.push(Pack.encodeGroup(g))
        }
        const written = yield* Effect.try(() => Pack.writePacks(p.dir, packs, key, fresh))
        const end = yield* Clock.currentTimeMillis
        if (written) lastPack = { key, sources: p.sources, at: end, took: end - began }
        yield* Effect.logDebug("recall index: vectors packed").pipe(Effect.annotateLogs({ dir: p.dir, written }))
      })
      // After the writes reported before it (they take the lock only once their copy is made).
      yield* enqueue(
        write.pipe(
          Effect.catchAllCause((cause) =>
            Effect.logWarning("recall index: vectors not packed", cause).pipe(Effect.annotateLogs({ dir: p.dir }))
          ),
          Effect.ensuring(Effect.sync(() => packing--))
        )
      )
    })
}
