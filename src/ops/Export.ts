/**
 * `kioku export <name>`: one JSON document (`ExportDocument`, format `kioku-export/1`) holding a character's
 * whole memory as the runtime reads it: recent history, facts and their archive, reflections and their
 * archive, persona with its corrections and archive, every time-index row (message decoded), cursors and
 * surfacing feedback, plus metadata (kioku version, export time, character). Read-only; a view that does not
 * decode fails the export with its file named rather than exporting a partial memory.
 */
import { Effect, Either, Option, Schema } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { SurfacedFile } from "../reflection/Surfacing.js"
import { validateCharacterName } from "../domain/CharacterName.js"
import { localIso } from "../domain/LocalTime.js"
import { RecentFile } from "../domain/Message.js"
import * as FactArchive from "../facts/FactArchive.js"
import { FactsFile } from "../facts/Fact.js"
import { CorrectionsFile, PersonaEntry, PersonaFile } from "../persona/Persona.js"
import * as PersonaStore from "../persona/PersonaStore.js"
import * as ReflectionStore from "../reflection/ReflectionStore.js"
import { ReflectionsFile } from "../reflection/Reflection.js"
import { CursorsView } from "../store/Cursors.js"
import * as ViewFile from "../store/ViewFile.js"
import { VERSION } from "../Version.js"
import { innermost } from "./Findings.js"
import { withDatabase } from "./SqliteCopy.js"

export const TimeIndexRow = Schema.Struct({
  id: Schema.Number,
  session_id: Schema.NullOr(Schema.String),
  timestamp: Schema.NullOr(Schema.String),
  /** The stored `{"type","data":{"content"}}` object, or the raw text when it is not JSON. */
  message: Schema.Unknown
})
export type TimeIndexRow = typeof TimeIndexRow.Type

export const ExportDocument = Schema.Struct({
  format: Schema.Literal("kioku-export/1"),
  kioku_version: Schema.String,
  exported_at: Schema.String,
  character: Schema.String,
  recent: RecentFile,
  facts: FactsFile,
  facts_archive: FactsFile,
  reflections: ReflectionsFile,
  reflections_archive: ReflectionsFile,
  persona: PersonaFile,
  persona_corrections: CorrectionsFile,
  persona_archive: Schema.Array(PersonaEntry),
  surfaced: SurfacedFile,
  cursors: CursorsView,
  time_index: Schema.Array(TimeIndexRow)
})
export type ExportDocument = typeof ExportDocument.Type

export class ExportFailed extends Schema.TaggedError<ExportFailed>()("ExportFailed", { message: Schema.String }) {}

/** Names the file and the innermost line of the error. */
const fail = (e: { readonly message: string; readonly file?: string }) =>
  new ExportFailed({ message: e.file === undefined ? innermost(e.message) : `${e.file}: ${innermost(e.message)}` })

const view = <A, I>(schema: Schema.Schema<A, I>, file: string, empty: A) =>
  ViewFile.make(schema, file).read.pipe(Effect.map(Option.getOrElse(() => empty)), Effect.mapError(fail))

const RowShape = Schema.Struct({
  id: Schema.Number,
  session_id: Schema.NullOr(Schema.String),
  timestamp: Schema.NullOr(Schema.String),
  message: Schema.NullOr(Schema.String)
})
const decodeRows = Schema.decodeUnknownEither(Schema.Array(RowShape))
const decodeMessage = Schema.decodeUnknownEither(Schema.parseJson(Schema.Unknown))

const timeIndex = (file: string) =>
  Effect.try({
    try: () =>
      fs.existsSync(file)
        ? withDatabase(file, (db) =>
            db
              .prepare(
                "SELECT id, session_id, CAST(timestamp AS TEXT) AS timestamp, message FROM time_indexed_original ORDER BY timestamp, id"
              )
              .all()
          )
        : [],
    catch: (e) => new ExportFailed({ message: `${file}: ${e instanceof Error ? e.message : String(e)}` })
  }).pipe(
    Effect.flatMap((rows) =>
      Either.match(decodeRows(rows), {
        onLeft: () => Effect.fail(new ExportFailed({ message: `${file}: unexpected time_indexed_original rows` })),
        onRight: (ok) =>
          Effect.succeed(
            ok.map(
              (r): TimeIndexRow => ({
                ...r,
                message: r.message === null ? null : Either.getOrElse(decodeMessage(r.message), () => r.message)
              })
            )
          )
      })
    )
  )

export const exportCharacter = (options: {
  readonly dataDir: string
  readonly name: string
  readonly maxPerShard: number
  readonly now: number
}) =>
  Effect.gen(function* () {
    const valid = validateCharacterName(options.name)
    if (Either.isLeft(valid) || valid.right !== options.name)
      return yield* new ExportFailed({ message: `invalid character name ${JSON.stringify(options.name)}` })
    const dir = path.join(path.resolve(options.dataDir), options.name)
    if (!fs.existsSync(dir)) return yield* new ExportFailed({ message: `no memory for ${options.name} in ${dir}` })
    const shards = { maxPerShard: options.maxPerShard }
    const reflections = ReflectionStore.make(dir, shards)
    const persona = PersonaStore.make(dir, shards)
    const document: ExportDocument = {
      format: "kioku-export/1",
      kioku_version: VERSION,
      exported_at: localIso(options.now),
      character: options.name,
      recent: yield* view(RecentFile, path.join(dir, "recent.json"), []),
      facts: yield* view(FactsFile, path.join(dir, "facts.json"), []),
      facts_archive: yield* FactArchive.make(dir, shards).all.pipe(Effect.mapError(fail)),
      reflections: yield* reflections.loadAll.pipe(Effect.mapError(fail)),
      reflections_archive: yield* reflections.archive.all.pipe(Effect.mapError(fail)),
      persona: yield* persona.load.pipe(Effect.mapError(fail)),
      persona_corrections: yield* persona.loadCorrections.pipe(Effect.mapError(fail)),
      persona_archive: yield* persona.archive.all.pipe(Effect.mapError(fail)),
      surfaced: yield* view(SurfacedFile, path.join(dir, "surfaced.json"), []),
      cursors: yield* view(CursorsView, path.join(dir, "cursors.json"), {}),
      time_index: yield* timeIndex(path.join(dir, "time_indexed.db"))
    }
    return document
  })

/** The document as JSON text (indent 2, non-ASCII kept). */
export const encodeDocument = (document: ExportDocument) =>
  Schema.encode(ExportDocument)(document).pipe(
    Effect.map((encoded) => ViewFile.encodeJson(encoded)),
    Effect.mapError(fail)
  )
