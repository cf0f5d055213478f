/**
 * What `kioku mcp` asks of memory, whichever way it reaches it: the embedded runtime on the memory root
 * (LocalBackend.ts) or the kioku server that already holds the root (RemoteBackend.ts). Both give the same
 * answers: the `recall_memory` tool text of `/query_memory?format=markdown`, the `/new_dialog` text, the
 * character directories, the persona as `/get_persona` answers it and the facts as the memory browser lists
 * them. Every failure is one `McpBackendError` with a message fit to show a model (no memory text in it).
 */
import { Context, Schema, type Effect, type Option } from "effect"
import type { FactView } from "../browser/Wire.js"
import type { QueryRequest } from "../recall/RecallTypes.js"

export class McpBackendError extends Schema.TaggedError<McpBackendError>()("McpBackendError", {
  message: Schema.String
}) {}

export interface Turn {
  readonly role: "user" | "assistant"
  readonly content: string
}

export type ForgetKind = "fact" | "persona"

export type ForgetOutcome =
  | { readonly _tag: "Forgotten"; readonly status: string }
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "NotAllowed"; readonly status: string }

export interface Backend {
  /** `embedded` runs the runtime in this process; `server` talks to the kioku server at `url`. */
  readonly mode: { readonly _tag: "embedded" } | { readonly _tag: "server"; readonly url: string }
  /** Appends the turns as `/cache` does (durable, journaled; extraction is left to maintenance). */
  readonly remember: (
    name: string,
    turns: ReadonlyArray<Turn>,
    language: string | undefined
  ) => Effect.Effect<number, McpBackendError>
  /** Runs the character's due maintenance now (as `kioku maintain --once`): the facts it added. */
  readonly maintainNow: (name: string) => Effect.Effect<number, McpBackendError>
  readonly recallText: (name: string, input: QueryRequest) => Effect.Effect<string, McpBackendError>
  readonly context: (name: string, language: string) => Effect.Effect<string, McpBackendError>
  readonly characters: Effect.Effect<ReadonlyArray<string>, McpBackendError>
  readonly forget: (name: string, kind: ForgetKind, id: string) => Effect.Effect<ForgetOutcome, McpBackendError>
  /** The whole `persona.json` object (character card synced), as JSON. */
  readonly persona: (name: string) => Effect.Effect<unknown, McpBackendError>
  readonly facts: (name: string) => Effect.Effect<ReadonlyArray<FactView>, McpBackendError>
  /** The character's durable prompt language, if one is set. */
  readonly promptLanguage: (name: string) => Effect.Effect<Option.Option<string>, McpBackendError>
}

export class McpBackend extends Context.Tag("app/mcp/McpBackend")<McpBackend, Backend>() {}
