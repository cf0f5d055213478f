/**
 * What `kioku eval memory` reads back from a character's directory while its server runs (read-only, never
 * through the server's own modules, so the yardstick does not move with them): the `time_indexed_original`
 * rows in id order (N.E.K.O.'s row format, neko-compat §2.2), the live facts and reflections (only the fields
 * scored), and the rows of kioku's derived `vectors.db` (kind, entry id, text hash, model id) — an empty list
 * while the file does not exist.
 */
import Database from "better-sqlite3"
import { Effect, Option, Schema } from "effect"
import { existsSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { contentText } from "../domain/Message.js"
import { EvalError } from "./Provenance.js"

export interface StoredRow {
  readonly id: number
  readonly type: string
  readonly text: string
}

export const ScoredFact = Schema.Struct({
  id: Schema.String,
  text: Schema.String,
  entity: Schema.optional(Schema.String),
  source_row_ids: Schema.optional(Schema.NullOr(Schema.Array(Schema.Number)))
})
export type ScoredFact = typeof ScoredFact.Type

const ScoredReflection = Schema.Struct({
  id: Schema.String,
  text: Schema.String,
  status: Schema.optional(Schema.String)
})
export type ScoredReflection = typeof ScoredReflection.Type

const VectorRow = Schema.Struct({
  kind: Schema.String,
  entry_id: Schema.String,
  text_sha256: Schema.String,
  model_id: Schema.String
})
export type VectorRow = typeof VectorRow.Type

const RawRow = Schema.Struct({ id: Schema.Number, message: Schema.String })
const Message = Schema.parseJson(
  Schema.Struct({ type: Schema.String, data: Schema.Struct({ content: Schema.Unknown }) })
)
const decodeMessage = Schema.decodeUnknownOption(Message)

const fail = (what: string) => (e: unknown) =>
  new EvalError({ message: `${what}: ${e instanceof Error ? e.message : String(e)}` })

const query = <A, I>(file: string, sql: string, row: Schema.Schema<A, I>) =>
  Effect.acquireUseRelease(
    Effect.try({ try: () => new Database(file, { readonly: true, fileMustExist: true }), catch: fail(file) }),
    (db) =>
      Effect.try({ try: () => db.prepare(sql).all(), catch: fail(file) }).pipe(
        Effect.flatMap((raw) => Effect.mapError(Schema.decodeUnknown(Schema.Array(row))(raw), fail(file)))
      ),
    (db) => Effect.sync(() => db.close())
  )

/** The rows of `time_indexed.db`, oldest first, with the text of their content (a string or text parts). */
export const readRows = (characterDir: string) =>
  query(
    path.join(characterDir, "time_indexed.db"),
    "SELECT id, message FROM time_indexed_original ORDER BY id",
    RawRow
  ).pipe(
    Effect.map((rows) =>
      rows.map((r): StoredRow => {
        const m = Option.getOrUndefined(decodeMessage(r.message))
        return { id: r.id, type: m?.type ?? "", text: m === undefined ? "" : contentText(m.data.content) }
      })
    )
  )

const readArray = <A, I>(file: string, item: Schema.Schema<A, I>) =>
  existsSync(file)
    ? Effect.try({ try: () => readFileSync(file, "utf8"), catch: fail(file) }).pipe(
        Effect.flatMap((text) => Schema.decodeUnknown(Schema.parseJson(Schema.Array(item)))(text)),
        Effect.mapError(fail(file))
      )
    : Effect.succeed<ReadonlyArray<A>>([])

export const readFacts = (characterDir: string) => readArray(path.join(characterDir, "facts.json"), ScoredFact)

export const readReflections = (characterDir: string) =>
  readArray(path.join(characterDir, "reflections.json"), ScoredReflection)

export const readVectors = (characterDir: string) => {
  const file = path.join(characterDir, "vectors.db")
  return existsSync(file)
    ? query(file, "SELECT kind, entry_id, text_sha256, model_id FROM vectors ORDER BY kind, entry_id", VectorRow)
    : Effect.succeed<ReadonlyArray<VectorRow>>([])
}

/** A fingerprint of the vector rows: equal across two reads when the backfill changed nothing in between. */
export const vectorFingerprint = (rows: ReadonlyArray<VectorRow>): string =>
  rows.map((r) => `${r.kind}/${r.entry_id}/${r.text_sha256}/${r.model_id}`).join("\n")
