/**
 * One MCP server session: the SDK's protocol `Server` (the low-level class, because kioku's tool arguments
 * are effect/Schemas whose JSON Schema it hands out as is, where `McpServer` wants zod) answering
 * `tools/list`, `tools/call`, `resources/list`, `resources/templates/list` and `resources/read` from
 * Tools.ts and Resources.ts. The SDK calls handlers as promises, so each one runs its Effect on the runtime
 * the session was made with. A tool's failure is its `isError` answer; an unknown tool or resource is a
 * JSON-RPC error (invalid params).
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema
} from "@modelcontextprotocol/sdk/types.js"
import { Effect, Runtime } from "effect"
import { VERSION } from "../Version.js"
import type { McpBackend } from "./Backend.js"
import * as Resources from "./Resources.js"
import * as Tools from "./Tools.js"

const instructions =
  "kioku is the long-term memory of AI companion characters. Call get_context when a conversation starts, " +
  "recall_memory when you need something from the past, remember what the user tells you about themselves, " +
  "and forget an entry the user asks you to forget."

export const makeSession = (runtime: Runtime.Runtime<McpBackend>, ctx: Tools.ToolContext): Server => {
  const tools = Tools.make(ctx)
  const run = Runtime.runPromise(runtime)
  const server = new Server(
    { name: "kioku", version: VERSION },
    { capabilities: { tools: {}, resources: {} }, instructions }
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }))
  }))
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((t) => t.name === request.params.name)
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}`)
    const answer = await run(tool.call(request.params.arguments ?? {}))
    return { content: [{ type: "text", text: answer.text }], isError: answer.isError }
  })
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const listed = await run(Effect.either(Resources.list(ctx.language)))
    if (listed._tag === "Left") throw new McpError(ErrorCode.InternalError, listed.left.message)
    return { resources: [...listed.right] }
  })
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [...Resources.templates(ctx.language)]
  }))
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const read = await run(Effect.either(Resources.read(request.params.uri)))
    if (read._tag === "Left") throw new McpError(ErrorCode.InvalidParams, read.left.message)
    return { contents: [read.right] }
  })
  return server
}
