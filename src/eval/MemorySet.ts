/**
 * The multilingual memory set of `kioku eval memory` (bench/memory/*.json, one file per language): statements
 * a user tells a companion, each with the key details a fact made from it must keep (every group of `keys`
 * needs one of its alternatives); fillers that must not become facts; questions asked later in other words,
 * each answered when one of its `expected` strings appears in a recalled row; and the character's short
 * acknowledgements, interleaved as its replies. Strings are matched by `holds` after `normalize`, so Chinese
 * keys list both scripts themselves. `loadMemorySets` decodes every file of a
 * directory and checks ids and references.
 */
import { Effect, Schema } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { EvalError } from "./Provenance.js"

export const MemoryLanguage = Schema.Literal("en", "ja", "zh")
export type MemoryLanguage = typeof MemoryLanguage.Type

const Text = Schema.String.pipe(Schema.filter((s) => s.trim() !== "", { message: () => "must not be blank" }))
const Id = Schema.String.pipe(Schema.pattern(/^[a-z]{2}-[a-z]\d{2,3}$/))

export const Topic = Schema.Literal(
  "self",
  "family",
  "friends",
  "pets",
  "plans",
  "preferences",
  "dislikes",
  "habits",
  "history",
  "health",
  "work",
  "study",
  "home",
  "relationship"
)

export const FillerKind = Schema.Literal(
  "greeting",
  "thanks",
  "acknowledgement",
  "laughter",
  "question",
  "remark",
  "farewell"
)

const AnyOf = Schema.NonEmptyArray(Text)

export const Statement = Schema.Struct({
  id: Id,
  topic: Topic,
  text: Text,
  /** Every group must be found in a fact of this statement; a group is met by any of its strings. */
  keys: Schema.NonEmptyArray(AnyOf)
})
export type Statement = typeof Statement.Type

export const Filler = Schema.Struct({ id: Id, kind: FillerKind, text: Text })
export type Filler = typeof Filler.Type

export const Question = Schema.Struct({
  id: Id,
  text: Text,
  /** Answered when any of these appears in a recalled row's text. */
  expected: AnyOf,
  /** The statements that hold the answer. */
  about: Schema.NonEmptyArray(Id)
})
export type Question = typeof Question.Type

export const MemorySet = Schema.Struct({
  language: MemoryLanguage,
  character: Text,
  acknowledgements: Schema.NonEmptyArray(Text),
  statements: Schema.Array(Statement),
  fillers: Schema.Array(Filler),
  questions: Schema.Array(Question)
})
export type MemorySet = typeof MemorySet.Type

const decodeSet = Schema.decodeUnknown(Schema.parseJson(MemorySet))

/** The form strings are compared in: NFKC, lower case, straight apostrophes, runs of white space as one space. */
export const normalize = (text: string): string =>
  text.normalize("NFKC").toLowerCase().replace(/[‘’]/g, "'").replace(/\s+/g, " ").trim()

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * Whether `text` holds `alternative`: a Latin word or phrase as whole words (plus a plural or possessive
 * ending: "radio" finds "radios", "Tom" never finds "tomatoes"), anything else (Japanese, Chinese) as a substring.
 */
export const holds = (text: string, alternative: string): boolean => {
  const t = normalize(text)
  const a = normalize(alternative)
  if (!/^[a-z0-9]/.test(a) || !/[a-z0-9]$/.test(a)) return t.includes(a)
  return new RegExp(`(?<![a-z0-9])${escape(a)}(?:s|es|'s)?(?![a-z0-9])`).test(t)
}

export const containsAny = (text: string, anyOf: ReadonlyArray<string>): boolean => anyOf.some((a) => holds(text, a))

/** Problems of one decoded set: duplicate ids, ids of another language, questions about unknown statements. */
export const problemsOf = (set: MemorySet): ReadonlyArray<string> => {
  const ids = [...set.statements, ...set.fillers, ...set.questions].map((x) => x.id)
  const seen = new Set<string>()
  const problems: Array<string> = []
  for (const id of ids) {
    if (seen.has(id)) problems.push(`duplicate id ${id}`)
    if (!id.startsWith(`${set.language}-`)) problems.push(`id ${id} is not of language ${set.language}`)
    seen.add(id)
  }
  const statements = new Set(set.statements.map((s) => s.id))
  for (const q of set.questions)
    for (const about of q.about) if (!statements.has(about)) problems.push(`${q.id} is about unknown ${about}`)
  return problems
}

/** Decodes every `*.json` of `dir` (by file name) as a `MemorySet`; fails on a bad file or a second set of a language. */
export const loadMemorySets = (dir: string) =>
  Effect.gen(function* () {
    const files = yield* Effect.try({
      try: () =>
        readdirSync(dir)
          .filter((f) => f.endsWith(".json"))
          .sort(),
      catch: (e) => new EvalError({ message: `cannot read ${dir}: ${String(e)}` })
    })
    const sets: Array<MemorySet> = []
    for (const file of files) {
      const full = path.join(dir, file)
      const text = yield* Effect.try({
        try: () => readFileSync(full, "utf8"),
        catch: (e) => new EvalError({ message: `cannot read ${full}: ${String(e)}` })
      })
      const set = yield* Effect.mapError(decodeSet(text), (e) => new EvalError({ message: `${full}: ${e.message}` }))
      const problems = [...problemsOf(set), ...(sets.some((s) => s.language === set.language) ? ["second set"] : [])]
      if (problems.length > 0) return yield* new EvalError({ message: `${full}: ${problems.join("; ")}` })
      sets.push(set)
    }
    if (sets.length === 0) return yield* new EvalError({ message: `no memory set (*.json) in ${dir}` })
    return sets
  })
