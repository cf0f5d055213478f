/**
 * `recent_meta.json`: `{"last_past_block_update_at": iso}`, the anchor of the stale hint. No anchor: the next
 * compression writes a baseline and sends no hint; an anchor at least `recent_summary_stale_hours` old: the
 * compression asks the model to move outdated content below a `---` line, and the anchor moves on.
 */
import { Effect, Option, Schema } from "effect"
import * as path from "node:path"
import { localIso, parseLocal } from "../domain/LocalTime.js"
import * as ViewFile from "../store/ViewFile.js"

export const RecentMetaView = Schema.Struct(
  { last_past_block_update_at: Schema.optional(Schema.NullOr(Schema.String)) },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)

export interface StaleDecision {
  readonly hint: boolean
  /** Set when the anchor must be (re)written after a successful compression. */
  readonly writeAnchor: boolean
}

export const decide = (anchor: Option.Option<number>, nowMillis: number, staleHours: number): StaleDecision =>
  Option.match(anchor, {
    onNone: () => ({ hint: false, writeAnchor: true }),
    onSome: (at) =>
      nowMillis - at >= staleHours * 3600_000 ? { hint: true, writeAnchor: true } : { hint: false, writeAnchor: false }
  })

export const make = (dir: string) => {
  const view = ViewFile.make(RecentMetaView, path.join(dir, "recent_meta.json"))
  return {
    anchor: view.read.pipe(
      Effect.map((v) =>
        Option.flatMap(v, (x) =>
          Option.fromNullable(x.last_past_block_update_at ? parseLocal(x.last_past_block_update_at) : undefined)
        )
      ),
      Effect.orElseSucceed(() => Option.none<number>())
    ),
    setAnchor: (nowMillis: number) =>
      view.read.pipe(
        Effect.orElseSucceed(() => Option.none()),
        Effect.flatMap((current) =>
          view.write({ ...Option.getOrElse(current, () => ({})), last_past_block_update_at: localIso(nowMillis) })
        )
      )
  }
}
