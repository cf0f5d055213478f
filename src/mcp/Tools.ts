/**
 * The tools of `kioku mcp`: `remember`, `recall_memory`, `get_context`, `list_characters` and `forget`. Each
 * argument shape is an effect/Schema whose JSON Schema (with the localized descriptions of Descriptions.ts)
 * is what `tools/list` shows, and the same Schema decodes the arguments of `tools/call`. A call answers text;
 * a refused call (bad arguments, an unknown id, a failure of the memory) answers `isError` with the reason.
 * `character` is optional when the server was started with a default character, else required.
 */
import { Effect, JSONSchema, Option, ParseResult, Schema } from "effect"
import type { Language } from "../domain/Locale.js"
import { noResult } from "../recall/RecallLabels.js"
import { McpBackend, McpBackendError, type Turn } from "./Backend.js"
import { describe, type DescriptionKey } from "./Descriptions.js"

export interface ToolContext {
  readonly language: Language
  /** The default character (`--character`), if any. */
  readonly character: string | undefined
}

export interface InputSchema {
  readonly type: "object"
  readonly properties: Readonly<Record<string, unknown>>
  readonly required: ReadonlyArray<string>
  readonly additionalProperties: false
}

export interface ToolAnswer {
  readonly text: string
  readonly isError: boolean
}

export interface McpTool {
  readonly name: string
  readonly description: string
  readonly inputSchema: InputSchema
  readonly call: (args: unknown) => Effect.Effect<ToolAnswer, never, McpBackend>
}

const Derived = Schema.Struct({
  properties: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Unknown }), {
    default: () => ({})
  }),
  required: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] })
})

const refuse = (message: string) => new McpBackendError({ message })

/** The derived JSON Schema without the `title`s effect/Schema gives refinements (`"minLength(1)"`). */
const untitled = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(untitled)
    : typeof value === "object" && value !== null
      ? Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (k === "title" ? [] : [[k, untitled(v)]])))
      : value

export const make = (ctx: ToolContext): ReadonlyArray<McpTool> => {
  const d = (key: DescriptionKey) => describe(key, ctx.language, ctx.character ?? "")
  const text = (key: DescriptionKey) => Schema.String.annotations({ description: d(key) })
  const character = Schema.optional(
    Schema.String.annotations({ description: d(ctx.character === undefined ? "character" : "characterDefault") })
  )
  const who = (raw: string | undefined) => {
    const name = raw?.trim() || ctx.character
    return name === undefined ? Effect.fail(refuse("character is required")) : Effect.succeed(name)
  }

  const tool = <A, I>(
    name: string,
    description: DescriptionKey,
    fields: Schema.Schema<A, I>,
    run: (args: A) => Effect.Effect<string, McpBackendError, McpBackend>
  ): McpTool => {
    const derived = Schema.decodeUnknownSync(Derived)(untitled(JSONSchema.make(fields)))
    const needsCharacter = ctx.character === undefined && "character" in derived.properties
    const required = [...derived.required, ...(needsCharacter ? ["character"] : [])]
    return {
      name,
      description: d(description),
      inputSchema: { type: "object", properties: derived.properties, required, additionalProperties: false },
      call: (args) =>
        Schema.decodeUnknown(fields)(args ?? {}).pipe(
          Effect.mapError((e) => refuse(`invalid arguments: ${ParseResult.TreeFormatter.formatErrorSync(e)}`)),
          Effect.flatMap(run),
          Effect.map((out) => ({ text: out, isError: false })),
          Effect.catchAll((e) => Effect.succeed({ text: e.message, isError: true }))
        )
    }
  }

  const TurnSchema = Schema.Struct({
    role: Schema.Literal("user", "assistant").annotations({ description: d("role") }),
    content: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(8000)).annotations({ description: d("content") })
  })
  const remember = tool(
    "remember",
    "remember",
    Schema.Struct({
      character,
      statement: Schema.optional(
        Schema.String.pipe(Schema.minLength(1), Schema.maxLength(8000)).annotations({ description: d("statement") })
      ),
      messages: Schema.optional(
        Schema.Array(TurnSchema)
          .pipe(Schema.minItems(1), Schema.maxItems(20))
          .annotations({ description: d("messages") })
      ),
      language: Schema.optional(text("language")),
      extract_now: Schema.optional(Schema.Boolean.annotations({ description: d("extractNow") }))
    }),
    (args) =>
      Effect.gen(function* () {
        const name = yield* who(args.character)
        if ((args.statement === undefined) === (args.messages === undefined))
          return yield* refuse("give either statement or messages")
        const turns: ReadonlyArray<Turn> = args.messages ?? [{ role: "user", content: args.statement ?? "" }]
        const backend = yield* McpBackend
        const count = yield* backend.remember(name, turns, args.language)
        if (args.extract_now !== true)
          return `Remembered ${count} message(s) for ${name}; facts are extracted in background maintenance.`
        const added = yield* backend.maintainNow(name)
        return `Remembered ${count} message(s) for ${name}; ${added} fact(s) extracted.`
      })
  )

  const Subject = Schema.Struct({
    subject_kind: Schema.Literal("group_chat", "participant", "group_participant"),
    subject_id: Schema.String.pipe(Schema.minLength(1)).annotations({
      description: "The subject's id (a group_participant's is platform:group:speaker)."
    }),
    scope: Schema.optional(Schema.String)
  })
  const recall = tool(
    "recall_memory",
    "recall",
    Schema.Struct({
      character,
      query: Schema.optional(text("query")),
      time: Schema.optional(text("time")),
      subjects: Schema.optional(
        Schema.Array(Subject)
          .pipe(Schema.minItems(1), Schema.maxItems(8))
          .annotations({ description: d("subjects") })
      )
    }),
    (args) =>
      Effect.gen(function* () {
        const name = yield* who(args.character)
        const query = args.query?.trim() ?? ""
        const time = args.time?.trim() ?? ""
        if (query === "" && time === "") return noResult[ctx.language]
        const backend = yield* McpBackend
        return yield* backend.recallText(name, {
          ...(query === "" ? {} : { query }),
          ...(time === "" ? {} : { time }),
          ...(args.subjects === undefined ? {} : { subjects: args.subjects }),
          language: ctx.language
        })
      })
  )

  const context = tool(
    "get_context",
    "getContext",
    Schema.Struct({ character, language: Schema.optional(text("contextLanguage")) }),
    (args) =>
      Effect.gen(function* () {
        const name = yield* who(args.character)
        const backend = yield* McpBackend
        const language = args.language ?? Option.getOrElse(yield* backend.promptLanguage(name), () => ctx.language)
        const out = yield* backend.context(name, language)
        return out === "" ? `No memory of ${name} yet.` : out
      })
  )

  const list = tool("list_characters", "listCharacters", Schema.Struct({}), () =>
    Effect.flatMap(McpBackend, (b) => b.characters).pipe(Effect.map((characters) => JSON.stringify({ characters })))
  )

  const forget = tool(
    "forget",
    "forget",
    Schema.Struct({
      character,
      kind: Schema.Literal("fact", "persona").annotations({ description: d("kind") }),
      id: Schema.String.pipe(Schema.minLength(1)).annotations({ description: d("id") })
    }),
    (args) =>
      Effect.gen(function* () {
        const name = yield* who(args.character)
        const outcome = yield* (yield* McpBackend).forget(name, args.kind, args.id)
        const what = args.kind === "fact" ? "fact" : "persona entry"
        switch (outcome._tag) {
          case "Forgotten":
            return `Forgot ${what} ${args.id} of ${name} (${outcome.status}).`
          case "NotFound":
            return yield* refuse(`${name} has no ${what} ${args.id}`)
          case "NotAllowed":
            return yield* refuse(`${what} ${args.id} cannot be forgotten (it is ${outcome.status})`)
        }
      })
  )

  return [remember, recall, context, list, forget]
}
