/**
 * `prompt_locale.json`: the character's durable prompt language, set by an explicit supported `language` on a
 * request (`{language, order, reserved_order}`, order increasing with every change).
 */
import { Effect, Option, Schema } from "effect"
import * as path from "node:path"
import { normaliseLanguage, type Language } from "../domain/Locale.js"
import * as ViewFile from "../store/ViewFile.js"

export const PromptLocaleView = Schema.Struct(
  {
    language: Schema.NullOr(Schema.String),
    order: Schema.optional(Schema.Number),
    reserved_order: Schema.optional(Schema.Number)
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)

export const view = (dir: string) => ViewFile.make(PromptLocaleView, path.join(dir, "prompt_locale.json"))

export const read = (dir: string) =>
  view(dir).read.pipe(
    Effect.map((v) => Option.flatMap(v, (x) => Option.fromNullable(normaliseLanguage(x.language)))),
    Effect.catchAll(() => Effect.succeed(Option.none<Language>()))
  )

export const remember = (state: { readonly dir: string; locale: Option.Option<Language> }, language: Language) =>
  Effect.gen(function* () {
    if (Option.contains(state.locale, language)) return
    const file = view(state.dir)
    const current = yield* file.read.pipe(Effect.catchAll(() => Effect.succeed(Option.none())))
    const order = Option.match(current, { onNone: () => 0, onSome: (v) => v.order ?? 0 }) + 1
    const written = yield* Effect.either(file.write({ language, order, reserved_order: order }))
    if (written._tag === "Right") state.locale = Option.some(language)
    else yield* Effect.logWarning("prompt locale not saved").pipe(Effect.annotateLogs({ error: written.left.message }))
  })
