/**
 * Read-only access to a character's fact rows for the trust pool's two diagnostics: the owner signal events
 * stored on rows (`_speaker_trust_signal_events`, for `reconcile_from_facts`) and the rows an account wrote
 * into another account's subject pile (`stranded_rows` of an unbind). Reads `facts.json` (active), then the
 * archive (`facts_archive/<shard>.json`, the legacy `facts_archive.json`); a row id seen twice counts once.
 * Nothing here writes: the character's actor stays the only writer of its files.
 */
import { Effect, Either, Option, Predicate, Schema } from "effect"
import { existsSync, readdirSync } from "node:fs"
import * as path from "node:path"
import { readText } from "../store/DurableFs.js"
import type { SignalEvent } from "./Ledger.js"

export type Row = Readonly<Record<string, unknown>>

const decodeRows = Schema.decodeUnknownEither(Schema.parseJson(Schema.Array(Schema.Unknown)))

export class FactRowsUnreadable extends Schema.TaggedError<FactRowsUnreadable>()("FactRowsUnreadable", {
  file: Schema.String
}) {}

const rowsOf = (file: string) =>
  readText(file).pipe(
    Effect.mapError(() => new FactRowsUnreadable({ file })),
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.succeed<ReadonlyArray<Row>>([]),
        onSome: (text) => {
          const rows = decodeRows(text)
          return Either.isLeft(rows)
            ? Effect.fail(new FactRowsUnreadable({ file }))
            : Effect.succeed(rows.right.filter(Predicate.isRecord))
        }
      })
    )
  )

export const activeRows = (root: string, name: string) => rowsOf(path.join(root, name, "facts.json"))

export const archivedRows = (root: string, name: string) => {
  const dir = path.join(root, name, "facts_archive")
  return Effect.try({
    try: () =>
      existsSync(dir)
        ? readdirSync(dir)
            .filter((f) => f.endsWith(".json"))
            .sort()
        : [],
    catch: () => new FactRowsUnreadable({ file: dir })
  }).pipe(
    Effect.flatMap((shards) =>
      Effect.all([rowsOf(path.join(root, name, "facts_archive.json")), ...shards.map((s) => rowsOf(path.join(dir, s)))])
    ),
    Effect.map((parts) => parts.flat())
  )
}

/** Active and archived rows, a row id present in both read once. */
export const allRows = (root: string, name: string) =>
  Effect.map(Effect.all([activeRows(root, name), archivedRows(root, name)]), ([active, archived]) => {
    const seen = new Set<string>()
    return [...active, ...archived].filter((r) => {
      const id = r["id"]
      if (typeof id !== "string") return true
      if (seen.has(id)) return false
      seen.add(id)
      return true
    })
  })

export const signalEventsOf = (rows: ReadonlyArray<Row>): ReadonlyArray<SignalEvent> =>
  rows.flatMap((r) => {
    const events = r["_speaker_trust_signal_events"]
    return Array.isArray(events) ? events.filter(Predicate.isRecord) : []
  })
