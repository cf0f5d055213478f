/**
 * `cursors.json`: a character's durable read positions, e.g. `{"rebuttal_checked_until": iso}` (N.E.K.O.)
 * and kioku's extraction cursors. Unknown keys are kept on every write; a corrupt file reads as a typed
 * error and is never overwritten.
 */
import { Effect, Option, Schema } from "effect"
import * as path from "node:path"
import * as ViewFile from "./ViewFile.js"

export const CursorsView = Schema.Record({ key: Schema.String, value: Schema.Unknown })
export type Cursors = typeof CursorsView.Type

export const make = (dir: string) => {
  const view = ViewFile.make(CursorsView, path.join(dir, "cursors.json"))
  const readAll = view.read.pipe(Effect.map(Option.getOrElse((): Cursors => ({}))))
  return {
    file: view.file,
    /** The cursor's value when it is a string (cursors are ISO timestamps or ids). */
    get: (key: string) =>
      readAll.pipe(Effect.map((all) => Option.filter(Option.fromNullable(all[key]), (v) => typeof v === "string"))),
    /** Sets several cursors in one atomic write, keeping every other key. */
    set: (values: Readonly<Record<string, string>>) =>
      readAll.pipe(Effect.flatMap((all) => view.write({ ...all, ...values })))
  }
}
