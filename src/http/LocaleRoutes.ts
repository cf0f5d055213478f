/**
 * The prompt-locale routes (neko-compat §1.6): `GET /prompt-locale/{name}` answers the durable prompt language,
 * its write order and the language in effect; `PUT /prompt-locale/{name}` `{"language"}` sets it (422 without a
 * string `language`, 400 for an unsupported one, 409 `language_preference_superseded` if a newer write won).
 * Also the deprecated `GET /search_for_memory/{name}/{query}` (§1.4): a fixed placeholder text, as N.E.K.O.
 * keeps it, pointing at `/query_memory`.
 */
import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { Effect, Either, Option, Schema } from "effect"
import { KiokuConfig } from "../Config.js"
import { validateCharacterName } from "../domain/CharacterName.js"
import { normaliseLanguage, searchForMemoryText } from "../domain/Locale.js"
import { storedCode } from "../character/locale/PromptLocale.js"
import { MemoryService } from "../MemoryService.js"
import { modelBodyText } from "./Body.js"
import { detail, json, validation } from "./Responses.js"
import { failure, nameParam } from "./Routes.js"
import { api } from "../api/Api.js"

const decodeBody = Schema.decodeUnknownEither(Schema.parseJson(api.setPromptLocale.body))

const defaultLanguage = Effect.map(KiokuConfig, ({ tunables }) => normaliseLanguage(tunables.default_language) ?? "en")

export const localeHandlers = {
  getPromptLocale: Effect.gen(function* () {
    const memory = yield* MemoryService
    const fallback = yield* defaultLanguage
    return yield* memory.promptLocale(yield* nameParam).pipe(
      Effect.map((s) =>
        json({
          success: true,
          language: Option.getOrNull(Option.map(s.language, storedCode)),
          order: Option.getOrNull(s.order),
          effective_language: storedCode(Option.getOrElse(s.language, () => fallback))
        })
      ),
      Effect.catchAll((e) => Effect.succeed(failure(e)))
    )
  }),
  setPromptLocale: Effect.gen(function* () {
    const memory = yield* MemoryService
    const name = yield* nameParam
    const body = decodeBody(yield* modelBodyText)
    if (body._tag === "Left") return validation(["body", "language"], "language must be a string", "missing")
    const valid = validateCharacterName(name)
    if (Either.isLeft(valid)) return detail(400, valid.left.detail)
    const language = normaliseLanguage(body.right.language)
    if (language === undefined) return detail(400, "Unsupported language")
    return yield* memory.setPromptLocale(name, language).pipe(
      Effect.map((c) =>
        json({
          success: true,
          language: storedCode(c.language),
          order: c.order,
          previous_language: Option.getOrNull(Option.map(c.previous, storedCode)),
          changed: c.changed
        })
      ),
      Effect.catchAll((e) => Effect.succeed(failure(e)))
    )
  }).pipe(Effect.catchTag("BodyRejected", (e) => Effect.succeed(e.response))),
  searchForMemory: Effect.gen(function* () {
    const params = yield* HttpRouter.params
    const name = params["name"] ?? ""
    const valid = validateCharacterName(name)
    if (Either.isLeft(valid)) return detail(400, valid.left.detail)
    const { language } = yield* HttpServerRequest.schemaSearchParams(api.searchForMemory.query).pipe(
      Effect.orElseSucceed(() => ({ language: undefined }))
    )
    const lang = normaliseLanguage(language) ?? (yield* defaultLanguage)
    return json(searchForMemoryText(valid.right, params["query"] ?? "", lang))
  })
}
