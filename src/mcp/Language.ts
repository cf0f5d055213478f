/**
 * The language of the MCP tools' descriptions when none is chosen: the default character's durable prompt
 * language, else the fallback (`default_language`); an unreadable one is logged and falls back.
 */
import { Effect, Option } from "effect"
import { normaliseLanguage, type Language } from "../domain/Locale.js"
import { McpBackend } from "./Backend.js"

export const languageFor = (character: string | undefined, fallback: Language) =>
  character === undefined
    ? Effect.succeed(fallback)
    : Effect.flatMap(McpBackend, (b) => b.promptLanguage(character)).pipe(
        Effect.map((l) => Option.getOrUndefined(Option.flatMapNullable(l, normaliseLanguage)) ?? fallback),
        Effect.catchAll((e) =>
          Effect.logWarning("prompt language unreadable; descriptions in the default language").pipe(
            Effect.annotateLogs({ error: e.message }),
            Effect.as(fallback)
          )
        )
      )
