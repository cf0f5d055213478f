/**
 * `prompt_locale.json`: the character's durable prompt language (`{language, order, reserved_order}`), set by an
 * explicit supported `language` on a request or by `PUT /prompt-locale/{name}`. Every write takes a new order, a
 * nanosecond-scale timestamp above every order the file has seen (N.E.K.O. allocates them the same way), so a
 * write can tell whether a newer one superseded it; inside one actor writes are serialised, so none is.
 */
import { Clock, Effect, Option, Schema } from "effect"
import * as path from "node:path"
import { languages, normaliseLanguage, storedCode, type Language } from "../../domain/Locale.js"
import * as ViewFile from "../../store/ViewFile.js"

export const PromptLocaleView = Schema.Struct(
  {
    language: Schema.NullOr(Schema.String),
    order: Schema.optional(Schema.NullOr(Schema.Number)),
    reserved_order: Schema.optional(Schema.NullOr(Schema.Number))
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)

export const view = (dir: string) => ViewFile.make(PromptLocaleView, path.join(dir, "prompt_locale.json"))

export { storedCode }

const LanguageCode = Schema.Literal(...languages)

export const LocaleState = Schema.Struct({ language: Schema.Option(LanguageCode), order: Schema.Option(Schema.Number) })
export type LocaleState = typeof LocaleState.Type

export const LocaleChange = Schema.Struct({
  previous: Schema.Option(LanguageCode),
  language: LanguageCode,
  order: Schema.Number,
  changed: Schema.Boolean
})
export type LocaleChange = typeof LocaleChange.Type

const current = (dir: string) => view(dir).read.pipe(Effect.catchAll(() => Effect.succeed(Option.none())))

export const stateOf = (dir: string): Effect.Effect<LocaleState> =>
  current(dir).pipe(
    Effect.map((v) => ({
      language: Option.flatMap(v, (x) => Option.fromNullable(normaliseLanguage(x.language))),
      order: Option.flatMap(v, (x) => Option.fromNullable(x.order))
    }))
  )

export const read = (dir: string) => Effect.map(stateOf(dir), (s) => s.language)

/** The smallest double above `x` that a later order can take even where integers are no longer exact. */
const above = (x: number) => (x < Number.MAX_SAFE_INTEGER ? x + 1 : x + 2 ** (Math.floor(Math.log2(x)) - 51))

/** Writes `language` with a fresh order; fails when the file cannot be written. */
export const write = (dir: string, language: Language) =>
  Effect.gen(function* () {
    const stored = yield* current(dir)
    const high = Option.match(stored, {
      onNone: () => 0,
      onSome: (v) => Math.max(v.order ?? 0, v.reserved_order ?? 0)
    })
    const order = Math.max((yield* Clock.currentTimeMillis) * 1_000_000, above(high))
    yield* view(dir).write({ language: storedCode(language), order, reserved_order: order })
    const previous = Option.flatMap(stored, (x) => Option.fromNullable(normaliseLanguage(x.language)))
    return { previous, language, order, changed: !Option.contains(previous, language) } satisfies LocaleChange
  })

/** Remembers a request's explicit language (a failed write is logged; the request goes on). */
export const remember = (state: { readonly dir: string; locale: Option.Option<Language> }, language: Language) =>
  Effect.gen(function* () {
    if (Option.contains(state.locale, language)) return
    const written = yield* Effect.either(write(state.dir, language))
    if (written._tag === "Right") state.locale = Option.some(language)
    else yield* Effect.logWarning("prompt locale not saved").pipe(Effect.annotateLogs({ error: written.left.message }))
  })
