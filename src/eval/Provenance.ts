/**
 * Where a recall hit came from, read from one character's directory after ingestion (read-only; the actor
 * keeps writing through its own handles). The `time_indexed_original` rows, in id order, must be exactly the
 * ingested turns, which gives row id → `dia_id`; facts (live and archived) give fact id → `source_row_ids`;
 * reflections (live and archived) give reflection id → `source_fact_ids`. A hit maps to the dia_ids of its
 * rows: a turn directly, a fact or archived fact through its rows, a reflection through its facts' rows.
 */
import Database from "better-sqlite3"
import { Effect, Option, Schema } from "effect"
import * as path from "node:path"
import * as FactArchive from "../facts/FactArchive.js"
import { FactsFile, type Fact } from "../facts/Fact.js"
import * as ReflectionStore from "../reflection/ReflectionStore.js"
import * as ViewFile from "../store/ViewFile.js"
import type { Hit, IngestedTurn } from "./Recall.js"

export class EvalError extends Schema.TaggedError<EvalError>()("EvalError", { message: Schema.String }) {}

export interface Provenance {
  readonly turns: ReadonlyArray<IngestedTurn>
  readonly diaIdsOf: (hit: Hit) => ReadonlyArray<string>
  readonly stats: {
    readonly facts: number
    readonly factsWithRows: number
    readonly archivedFacts: number
    readonly reflections: number
  }
}

const StoredRow = Schema.Struct({ id: Schema.Number, message: Schema.String })
const decodeRows = Schema.decodeUnknown(Schema.Array(StoredRow))
const decodeMessage = Schema.decodeUnknownOption(
  Schema.parseJson(Schema.Struct({ data: Schema.Struct({ content: Schema.Unknown }) }))
)

const failWith = (what: string) => (e: { readonly message: string }) =>
  new EvalError({ message: `${what}: ${e.message}` })

/** The rows of `time_indexed.db`, oldest first, as `{id, content}`. */
const readRows = (file: string) =>
  Effect.acquireUseRelease(
    Effect.try({
      try: () => new Database(file, { readonly: true, fileMustExist: true }),
      catch: (e) => new EvalError({ message: `cannot open ${file}: ${String(e)}` })
    }),
    (db) =>
      Effect.try({
        try: () => db.prepare("SELECT id, message FROM time_indexed_original ORDER BY id").all(),
        catch: (e) => new EvalError({ message: `cannot read ${file}: ${String(e)}` })
      }).pipe(
        Effect.flatMap((raw) => Effect.mapError(decodeRows(raw), failWith(file))),
        Effect.map((rows) =>
          rows.map((r) => {
            const content = Option.getOrUndefined(decodeMessage(r.message))?.data.content
            return { id: r.id, content: typeof content === "string" ? content : undefined }
          })
        )
      ),
    (db) => Effect.sync(() => db.close())
  )

/**
 * Reads the character's rows and memories. `ingested` lists the turns in the order they were cached, with
 * the exact content sent; the time index must hold them one row each, in that order.
 */
export const readProvenance = (
  characterDir: string,
  ingested: ReadonlyArray<{ readonly diaId: string; readonly content: string }>
) =>
  Effect.gen(function* () {
    const rows = yield* readRows(path.join(characterDir, "time_indexed.db"))
    if (rows.length !== ingested.length) {
      return yield* new EvalError({ message: `time index holds ${rows.length} rows for ${ingested.length} turns` })
    }
    const turns: Array<IngestedTurn> = []
    for (const [i, row] of rows.entries()) {
      const turn = ingested[i]
      if (turn === undefined || row.content !== turn.content) {
        return yield* new EvalError({ message: `row ${row.id} is not turn ${turn?.diaId ?? i}` })
      }
      turns.push({ rowId: row.id, diaId: turn.diaId, text: turn.content })
    }
    const live = yield* ViewFile.make(FactsFile, path.join(characterDir, "facts.json")).read.pipe(
      Effect.map(Option.getOrElse((): ReadonlyArray<Fact> => [])),
      Effect.mapError(failWith("facts.json"))
    )
    const archived = yield* FactArchive.make(characterDir, { maxPerShard: 500 }).all.pipe(
      Effect.mapError(failWith("fact archive"))
    )
    const reflections = ReflectionStore.make(characterDir, { maxPerShard: 500 })
    const liveReflections = yield* Effect.mapError(reflections.load, failWith("reflections.json"))
    const archivedReflections = yield* Effect.mapError(reflections.archive.all, failWith("reflection archive"))

    const diaOfRow = new Map(turns.map((t) => [t.rowId, t.diaId]))
    const rowsOfFact = new Map<string, ReadonlyArray<number>>()
    for (const f of [...archived, ...live]) rowsOfFact.set(f.id, f.source_row_ids ?? [])
    const factsOfReflection = new Map<string, ReadonlyArray<string>>()
    for (const r of [...archivedReflections, ...liveReflections]) factsOfReflection.set(r.id, r.source_fact_ids)

    const diaOfRows = (ids: ReadonlyArray<number>) =>
      ids.flatMap((id) => Option.toArray(Option.fromNullable(diaOfRow.get(id))))
    const diaOfFact = (id: string) => diaOfRows(rowsOfFact.get(id) ?? [])
    const diaIdsOf = (hit: Hit): ReadonlyArray<string> => {
      if (hit.tier === "turn") return diaOfRows(hit.source_row_ids ?? [Number(hit.id)])
      if (hit.tier === "fact" || hit.tier === "fact_archive") return diaOfFact(hit.id)
      if (hit.tier === "reflection") return [...new Set((factsOfReflection.get(hit.id) ?? []).flatMap(diaOfFact))]
      return []
    }
    return {
      turns,
      diaIdsOf,
      stats: {
        facts: live.length,
        factsWithRows: live.filter((f) => (f.source_row_ids ?? []).length > 0).length,
        archivedFacts: archived.length,
        reflections: liveReflections.length + archivedReflections.length
      }
    } satisfies Provenance
  })
