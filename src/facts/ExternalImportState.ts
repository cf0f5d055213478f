/**
 * `external_import_state.json`, N.E.K.O.'s sidecar of the external Markdown import:
 * `{"version": 1, "daily": {"imported_day_fingerprints": [sorted sha256 hex]}}`. It holds only the journal days
 * whose extraction found no fact (a day that yielded facts is carried by their `external_import.day_fingerprint`).
 * Unreadable or malformed, it reads as empty: the worst case is extracting a day again. Unknown keys are kept.
 */
import { Effect, Option, Schema } from "effect"
import * as path from "node:path"
import type { StoreError } from "../store/DurableFs.js"
import * as ViewFile from "../store/ViewFile.js"

const Rest = Schema.Record({ key: Schema.String, value: Schema.Unknown })
const Daily = Schema.Struct({ imported_day_fingerprints: Schema.optional(Schema.Array(Schema.String)) }, Rest)
const StateFile = Schema.Struct({ version: Schema.optional(Schema.Number), daily: Schema.optional(Daily) }, Rest)
type StateFile = typeof StateFile.Type

export const FILE = "external_import_state.json"

export const make = (dir: string) => {
  const view = ViewFile.make(StateFile, path.join(dir, FILE))
  const read: Effect.Effect<StateFile> = view.read.pipe(
    Effect.map(Option.getOrElse((): StateFile => ({}))),
    Effect.catchAll((e) =>
      Effect.logWarning("external_import_state.json unreadable; read as empty").pipe(
        Effect.annotateLogs({ error: e._tag }),
        Effect.as({})
      )
    )
  )
  /** The recorded fact-less days. */
  const days = Effect.map(read, (s) => new Set(s.daily?.imported_day_fingerprints ?? []))
  /** Adds and removes day fingerprints in one write (none when nothing changes). */
  const update = (add: ReadonlyArray<string>, remove: ReadonlyArray<string>): Effect.Effect<void, StoreError> =>
    Effect.gen(function* () {
      const state = yield* read
      const before = new Set(state.daily?.imported_day_fingerprints ?? [])
      const next = new Set(before)
      for (const fp of add) next.add(fp)
      for (const fp of remove) next.delete(fp)
      if (next.size === before.size && [...next].every((fp) => before.has(fp))) return
      yield* view.write({
        ...state,
        version: state.version ?? 1,
        daily: { ...state.daily, imported_day_fingerprints: [...next].sort() }
      })
    })
  return { file: view.file, days, update }
}
