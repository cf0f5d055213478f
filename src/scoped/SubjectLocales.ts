/**
 * `scoped_prompt_locales.json`: the prompt language each group-chat subject's requests last named, in
 * N.E.K.O.'s schema — `{"subjects": {<key>: {language, order, reserved_order}}}`, the key the compact JSON
 * array `["<kind>","<id>","<scope>"]`, the language in its full form (`zh-CN`), the order a nanosecond-scale
 * timestamp above every order the row has seen (as `prompt_locale.json`, character/locale/PromptLocale.ts).
 * Written beside `scoped_subjects.json` (SubjectNames.ts, which keeps its own copy of the language) so that
 * N.E.K.O. reading kioku's directory, or kioku reading N.E.K.O.'s, agree; read first, the other file being
 * the fallback. A row is rewritten only when its language changes; `scoped_forget` removes the subject's row.
 * Unknown keys, and rows this reader does not understand, are kept as they are.
 */
import { Clock, Effect, Either, Option, Schema } from "effect"
import * as path from "node:path"
import { normaliseLanguage, storedCode, type Language } from "../domain/Locale.js"
import { makeSubject, subjectMarker, type MemorySubject } from "../domain/Subject.js"
import * as ViewFile from "../store/ViewFile.js"

const Row = Schema.Struct(
  {
    language: Schema.optional(Schema.NullOr(Schema.Unknown)),
    order: Schema.optional(Schema.NullOr(Schema.Unknown)),
    reserved_order: Schema.optional(Schema.NullOr(Schema.Unknown))
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)
type Row = typeof Row.Type
export const LocalesFile = Schema.Struct(
  {
    subjects: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Unknown }), { default: () => ({}) })
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)
type File = typeof LocalesFile.Type
const decodeRow = Schema.decodeUnknownOption(Row)
const decodeKey = Schema.decodeUnknownOption(
  Schema.parseJson(Schema.Tuple(Schema.String, Schema.String, Schema.String))
)

export const FILE = "scoped_prompt_locales.json"

/** N.E.K.O.'s row key of a subject (`json.dumps([kind, id, scope], separators=(",", ":"))`). */
export const localeKey = (s: MemorySubject): string => JSON.stringify([s.kind, s.subjectId, s.scope])

const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined)

/** The smallest double above `x` that a later order can take even where integers are no longer exact. */
const above = (x: number) => (x < Number.MAX_SAFE_INTEGER ? x + 1 : x + 2 ** (Math.floor(Math.log2(x)) - 51))

export const make = (dir: string) => {
  const view = ViewFile.make(LocalesFile, path.join(dir, FILE))
  /** The file, empty when absent — or when it does not decode: bookkeeping, rewritten whole (as N.E.K.O.). */
  const file = view.read.pipe(
    Effect.catchTag("ViewDecodeError", () => Effect.succeed(Option.none<File>())),
    Effect.map(Option.getOrElse((): File => ({ subjects: {} })))
  )

  /** The remembered language of every subject the file names, by subject marker. */
  const languages = Effect.map(file, (f) => {
    const out = new Map<string, Language>()
    for (const [key, raw] of Object.entries(f.subjects)) {
      const parts = Option.getOrUndefined(decodeKey(key))
      const row = Option.getOrUndefined(decodeRow(raw))
      const lang = typeof row?.language === "string" ? normaliseLanguage(row.language) : undefined
      const s = parts === undefined ? undefined : Either.getOrUndefined(makeSubject(...parts))
      if (s !== undefined && lang !== undefined) out.set(subjectMarker(s), lang)
    }
    return out
  })

  /** Records each write's language (those without one are skipped); one file write when a row changed. */
  const record = (
    written: ReadonlyArray<{ readonly subject: MemorySubject; readonly language?: Language | undefined }>
  ) =>
    Effect.gen(function* () {
      const wanted = written.flatMap((w) => (w.language === undefined ? [] : [{ ...w, language: w.language }]))
      if (wanted.length === 0) return
      const current = yield* file
      const subjects: Record<string, unknown> = { ...current.subjects }
      const now = (yield* Clock.currentTimeMillis) * 1_000_000
      let changed = false
      for (const w of wanted) {
        const key = localeKey(w.subject)
        const old: Row | undefined = Option.getOrUndefined(decodeRow(subjects[key]))
        if (typeof old?.language === "string" && normaliseLanguage(old.language) === w.language) continue
        const high = Math.max(num(old?.order) ?? 0, num(old?.reserved_order) ?? 0)
        const order = Math.max(now, above(high))
        subjects[key] = { ...old, language: storedCode(w.language), order, reserved_order: order }
        changed = true
      }
      if (changed) yield* view.write({ ...current, subjects })
    })

  /** Drops `subject`'s row; 1 when there was one, else 0 (N.E.K.O.'s `forget_subject_prompt_locale`). */
  const forget = (subject: MemorySubject) =>
    Effect.gen(function* () {
      const current = yield* file
      const key = localeKey(subject)
      if (!(key in current.subjects)) return 0
      const { [key]: _gone, ...subjects } = current.subjects
      yield* view.write({ ...current, subjects })
      return 1
    })

  return { file: view.file, languages, record, forget }
}
