/**
 * `kioku/ai`: kioku's memory as tools for the Vercel AI SDK (`ai` 6, an optional peer dependency). The tools are
 * `kioku mcp`'s (mcp/Tools.ts: `remember`, `recall_memory`, `get_context`, `list_characters`, `forget`, with
 * their JSON Schemas and localized descriptions) over a typed client of a kioku server (mcp/RemoteBackend.ts),
 * each wrapped in `tool({ description, inputSchema, execute })`. A refused call throws `KiokuToolError` with
 * the reason, which the AI SDK hands the model as the tool's error.
 */
import { jsonSchema, tool, type JSONSchema7, type Tool } from "ai"
import { Effect } from "effect"
import type { KiokuClient } from "../api/Client.js"
import { normaliseLanguage } from "../domain/Locale.js"
import { McpBackend } from "../mcp/Backend.js"
import { fromClient } from "../mcp/RemoteBackend.js"
import * as Tools from "../mcp/Tools.js"

export interface MemoryToolsOptions {
  /** A client of the kioku server (`createClient` from `kioku/client`). */
  readonly client: KiokuClient
  /** The character the tools remember for; without it each call names one (`character`). */
  readonly character?: string
  /** The language of the descriptions and of recall's answers: en (default), ja, zh, zh-TW, ko, ru, es, pt. */
  readonly language?: string
}

export type MemoryToolName = "remember" | "recall_memory" | "get_context" | "list_characters" | "forget"
export type MemoryToolInput = Readonly<Record<string, unknown>>
export type MemoryTools = { readonly [K in MemoryToolName]: Tool<MemoryToolInput, string> }

export class KiokuToolError extends Error {
  override readonly name = "KiokuToolError"
}

/** The five memory tools, to pass as `tools` to `generateText` / `streamText` (or an `Agent`). */
export const memoryTools = (options: MemoryToolsOptions): MemoryTools => {
  const backend = fromClient(options.client, "kioku/client")
  const ctx: Tools.ToolContext = {
    language: normaliseLanguage(options.language) ?? "en",
    character: options.character?.trim() || undefined
  }
  const wrap = (t: Tools.McpTool): Tool<MemoryToolInput, string> =>
    tool({
      description: t.description,
      // The JSON Schema effect/Schema derived for the MCP tool: plain JSON, readonly only in its type.
      inputSchema: jsonSchema<MemoryToolInput>(t.inputSchema as unknown as JSONSchema7),
      execute: async (input) => {
        const answer = await Effect.runPromise(t.call(input).pipe(Effect.provideService(McpBackend, backend)))
        if (answer.isError) throw new KiokuToolError(answer.text)
        return answer.text
      }
    })
  const byName = new Map(Tools.make(ctx).map((t) => [t.name, wrap(t)]))
  const get = (name: MemoryToolName) => {
    const t = byName.get(name)
    if (t === undefined) throw new Error(`kioku has no ${name} tool`)
    return t
  }
  return {
    remember: get("remember"),
    recall_memory: get("recall_memory"),
    get_context: get("get_context"),
    list_characters: get("list_characters"),
    forget: get("forget")
  }
}
