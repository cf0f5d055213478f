/**
 * `facts_pending_dedup.json`: near-duplicate pairs waiting for arbitration, as N.E.K.O. stores them
 * (`candidate_id`, `existing_id`, `entity`, `cosine`, `queued_at`, `detector`, `text_overlap`; a group-chat
 * pair also `subject_key`, `scope` and the `candidate_`/`existing_` subject fields). A lost
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
    /**
     * Drops, before a `scoped_forget`, the pairs of one subject: those queued under its key and scope and those
     * naming one of its facts `ids`; answers how many went (N.E.K.O.'s `pending_dedup`).
     */
    forgetSubject: (key: string, scope: string, ids: ReadonlySet<string>) =>
      read.pipe(
        Effect.flatMap((current) => {
          const kept = current.filter(
            (p) =>
              !(p["subject_key"] === key && p["scope"] === scope) && !ids.has(p.candidate_id) && !ids.has(p.existing_id)
          )
          const removed = current.length - kept.length
          return removed === 0 ? Effect.succeed(0) : Effect.as(view.write(kept), removed)
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
