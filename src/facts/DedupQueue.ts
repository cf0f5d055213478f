/**
 * `facts_pending_dedup.json`: near-duplicate pairs waiting for arbitration, as N.E.K.O. stores them
 * (`candidate_id`, `existing_id`, `entity`, `cosine`, `queued_at`, `detector`, `text_overlap`). A lost
 * write only loses a chance to merge, so the queue is a plain atomic view, not journaled.
 */
import { Effect, Option, Schema } from "effect"
import * as path from "node:path"
import * as ViewFile from "../store/ViewFile.js"

export const DedupPair = Schema.Struct(
  {
    candidate_id: Schema.String,
    existing_id: Schema.String,
    entity: Schema.String,
    cosine: Schema.optionalWith(Schema.NullOr(Schema.Number), { default: () => null }),
    queued_at: Schema.String,
    detector: Schema.optional(Schema.String),
    text_overlap: Schema.optional(Schema.Number)
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)
export type DedupPair = typeof DedupPair.Type

export const make = (dir: string) => {
  const view = ViewFile.make(Schema.Array(DedupPair), path.join(dir, "facts_pending_dedup.json"))
  const read = view.read.pipe(Effect.map(Option.getOrElse((): ReadonlyArray<DedupPair> => [])))
  return {
    read,
    push: (pairs: ReadonlyArray<DedupPair>) =>
      pairs.length === 0
        ? Effect.void
        : read.pipe(
            Effect.flatMap((current) => {
              const known = new Set(current.map((p) => `${p.candidate_id}|${p.existing_id}`))
              return view.write([...current, ...pairs.filter((p) => !known.has(`${p.candidate_id}|${p.existing_id}`))])
            })
          ),
    /** Drops the pairs naming one of `ids` on either side (forgotten facts); writes only on a change. */
    forget: (ids: ReadonlySet<string>) =>
      read.pipe(
        Effect.flatMap((current) => {
          const kept = current.filter((p) => !ids.has(p.candidate_id) && !ids.has(p.existing_id))
          return kept.length === current.length ? Effect.void : view.write(kept)
        })
      ),
    /** Drops the pairs whose candidate ids are given (arbitrated). */
    drop: (candidateIds: ReadonlyArray<string>) =>
      read.pipe(
        Effect.flatMap((current) => {
          const done = new Set(candidateIds)
          return view.write(current.filter((p) => !done.has(p.candidate_id)))
        })
      )
  }
}
