/**
 * `scoped_subjects.json`: the group-chat subjects a character has memories of, with the display name a
 * request last gave (a group's name, a member's nickname; sanitised, cosmetic, never part of the isolation
 * key) and the prompt language its requests last named (also written to N.E.K.O.'s
 * `scoped_prompt_locales.json`, SubjectLocales.ts); rewritten only when a row is new or its name or language
 * changed. Read by `scoped_context` headers and the memory browser; a subject's row goes with
 * `scoped_forget`. kioku's own file: N.E.K.O. keeps the name on the persona section.
 */
import { Effect, Option, Schema } from "effect"
import * as path from "node:path"
import { normaliseLanguage, type Language } from "../domain/Locale.js"
import { stampedWith, subjectFields, subjectMarker, subjectOfRow, type MemorySubject } from "../domain/Subject.js"
import * as ViewFile from "../store/ViewFile.js"

const Row = Schema.Struct(
  {
    subject_kind: Schema.String,
    subject_id: Schema.String,
    scope: Schema.String,
    display_name: Schema.optional(Schema.NullOr(Schema.String)),
    language: Schema.optional(Schema.NullOr(Schema.String))
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)
type Row = typeof Row.Type
const File = Schema.Array(Row)

export const FILE = "scoped_subjects.json"

/** The display names of `rows` by subject marker. */
export const namesOf = (rows: ReadonlyArray<Row>): ReadonlyMap<string, string> => {
  const out = new Map<string, string>()
  for (const r of rows) {
    const s = subjectOfRow(r)
    if (s !== undefined && typeof r.display_name === "string" && r.display_name !== "")
      out.set(subjectMarker(s), r.display_name)
  }
  return out
}

export const make = (dir: string) => {
  const view = ViewFile.make(File, path.join(dir, FILE))
  const rows = Effect.map(
    view.read,
    Option.getOrElse((): ReadonlyArray<Row> => [])
  )

  /** Display names by subject marker. */
  const names = Effect.map(rows, namesOf)

  /** The prompt language each subject's requests last gave, by subject marker. */
  const languagesBy = Effect.map(rows, (rs) => {
    const out = new Map<string, Language>()
    for (const r of rs) {
      const s = subjectOfRow(r)
      const lang = normaliseLanguage(r.language)
      if (s !== undefined && lang !== undefined) out.set(subjectMarker(s), lang)
    }
    return out
  })

  /** Records a write for each subject, with its display name and prompt language when given. */
  const touch = (
    written: ReadonlyArray<{
      readonly subject: MemorySubject
      readonly displayName?: string | undefined
      readonly language?: Language | undefined
    }>
  ) =>
    Effect.gen(function* () {
      if (written.length === 0) return
      const byMarker = new Map<string, Row>()
      for (const r of yield* rows) {
        const s = subjectOfRow(r)
        if (s !== undefined) byMarker.set(subjectMarker(s), r)
      }
      let changed = false
      for (const w of written) {
        const marker = subjectMarker(w.subject)
        const old = byMarker.get(marker)
        const displayName = w.displayName ?? old?.display_name ?? null
        const language = w.language ?? old?.language ?? null
        if (old !== undefined && old.display_name === displayName && old.language === language) continue
        byMarker.set(marker, { ...old, ...subjectFields(w.subject), display_name: displayName, language })
        changed = true
      }
      if (changed) yield* view.write([...byMarker.values()])
    })

  /** Drops `subject`'s row; true when there was one. */
  const forget = (subject: MemorySubject) =>
    Effect.gen(function* () {
      const all = yield* rows
      const gone = stampedWith([subject])
      const kept = all.filter((r) => !gone(r))
      if (kept.length !== all.length) yield* view.write(kept)
      return kept.length !== all.length
    })

  return { file: view.file, rows, names, languages: languagesBy, touch, forget }
}
