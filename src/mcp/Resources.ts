/**
 * The resources of `kioku mcp`: for every character, `kioku://<name>/persona` (the whole `persona.json`, as
 * `/get_persona` answers it) and `kioku://<name>/facts` (`{"facts": [...]}`, the active facts as the memory
 * browser lists them, with the ids `forget` takes), both `application/json`, the name percent-encoded. The
 * list names every character directory; the two URI templates reach any character.
 */
import { Effect, Either, Option } from "effect"
import type { Language } from "../domain/Locale.js"
import { McpBackend, McpBackendError } from "./Backend.js"
import { describe } from "./Descriptions.js"

export type View = "persona" | "facts"

export interface ResourceInfo {
  readonly uri: string
  readonly name: string
  readonly description: string
  readonly mimeType: "application/json"
}

export interface TemplateInfo {
  readonly uriTemplate: string
  readonly name: string
  readonly description: string
  readonly mimeType: "application/json"
}

export const uriOf = (name: string, view: View) => `kioku://${encodeURIComponent(name)}/${view}`

const pattern = /^kioku:\/\/([^/]+)\/(persona|facts)$/

/** The character and view a `kioku://` URI names, if it names one. */
export const parseUri = (uri: string): Option.Option<{ readonly name: string; readonly view: View }> => {
  const m = pattern.exec(uri)
  if (m === null || m[1] === undefined) return Option.none()
  const view: View = m[2] === "facts" ? "facts" : "persona"
  return Either.getRight(
    Either.map(
      Either.try(() => decodeURIComponent(m[1] ?? "")),
      (name) => ({ name, view })
    )
  )
}

const describeView = (view: View, lang: Language) =>
  describe(view === "persona" ? "personaResource" : "factsResource", lang)

export const templates = (lang: Language): ReadonlyArray<TemplateInfo> =>
  (["persona", "facts"] as const).map((view) => ({
    uriTemplate: `kioku://{character}/${view}`,
    name: `character ${view}`,
    description: describeView(view, lang),
    mimeType: "application/json"
  }))

export const list = (lang: Language) =>
  Effect.map(
    Effect.flatMap(McpBackend, (b) => b.characters),
    (names): ReadonlyArray<ResourceInfo> =>
      names.flatMap((name) =>
        (["persona", "facts"] as const).map((view) => ({
          uri: uriOf(name, view),
          name: `${name} ${view}`,
          description: describeView(view, lang),
          mimeType: "application/json"
        }))
      )
  )

export const read = (uri: string) =>
  Effect.gen(function* () {
    const target = parseUri(uri)
    if (Option.isNone(target)) return yield* new McpBackendError({ message: `unknown resource ${uri}` })
    const { name, view } = target.value
    const backend = yield* McpBackend
    const value = view === "persona" ? yield* backend.persona(name) : { facts: yield* backend.facts(name) }
    return { uri, mimeType: "application/json" as const, text: JSON.stringify(value, null, 2) }
  })
