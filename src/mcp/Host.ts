/**
 * The `kioku/mcp` entry: the MCP server of `kioku mcp` started from a host process. `createMcpServer` reaches
 * the memory root as the command does (the embedded runtime, or the kioku server that holds the root) and
 * hands back one session to connect to any SDK transport; `serveMcpStdio` serves it on stdin/stdout until
 * stdin ends. The runtime's logs go to stderr, so stdout carries only protocol messages.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import { Effect, Either, Layer, Logger, LogLevel, ManagedRuntime, Option } from "effect"
import { loadSettings, parseLogLevel } from "../Config.js"
import { validateCharacterName } from "../domain/CharacterName.js"
import { normaliseLanguage } from "../domain/Locale.js"
import type { Tunables } from "../Tunables.js"
import { backendLayer } from "./Attach.js"
import { McpBackend } from "./Backend.js"
import { languageFor } from "./Language.js"
import { makeSession } from "./Protocol.js"
import { serveStdio } from "./Transports.js"

export interface McpServerOptions {
  /** The memory root, as for `createMemoryRuntime`. */
  readonly dataDir: string
  /** The default character of the tools (`--character`). */
  readonly character?: string
  /** The tool descriptions' language (`en`, `ja`, `zh`…); else the character's prompt language, else the default. */
  readonly language?: string
  readonly config?: Partial<Tunables>
  readonly configFile?: string
  /** Sent to a kioku server that holds the root. */
  readonly authToken?: string
  /** Minimum level of the runtime's logs on stderr (default "warning"). */
  readonly logLevel?: "debug" | "info" | "warning" | "error" | "none"
}

export interface McpServer {
  /** `embedded` runs the runtime in this process; `server` talks to the kioku server holding the root. */
  readonly mode: "embedded" | "server"
  /** Connects the session to a transport of `@modelcontextprotocol/sdk` (stdio, in-memory, …). */
  readonly connect: (transport: Transport) => Promise<void>
  /** Closes the session and releases the memory root. */
  readonly close: () => Promise<void>
}

const start = async (options: McpServerOptions) => {
  if (options.language !== undefined && normaliseLanguage(options.language) === undefined)
    throw new Error(`unsupported language: ${options.language}`)
  const name = options.character === undefined ? undefined : validateCharacterName(options.character)
  if (name !== undefined && Either.isLeft(name)) throw new Error(`character: ${name.left.detail}`)
  const character = name?.right
  const settings = await Effect.runPromise(
    loadSettings({ dataDir: options.dataDir, configFile: options.configFile, overrides: options.config })
  )
  const level = Option.getOrElse(parseLogLevel(options.logLevel ?? "warning"), () => LogLevel.Warning)
  const runtime = ManagedRuntime.make(
    backendLayer({ settings, authToken: options.authToken }).pipe(
      Layer.provideMerge(Logger.minimumLogLevel(level)),
      Layer.provideMerge(Logger.replace(Logger.defaultLogger, Logger.prettyLogger({ stderr: true, colors: false })))
    )
  )
  try {
    const fallback =
      normaliseLanguage(options.language) ?? normaliseLanguage(settings.tunables.default_language) ?? "en"
    const language = await runtime.runPromise(
      options.language === undefined ? languageFor(character, fallback) : Effect.succeed(fallback)
    )
    const mode = (await runtime.runPromise(McpBackend)).mode._tag
    return { runtime, ctx: { language, character }, mode }
  } catch (e) {
    await runtime.dispose()
    throw e
  }
}

/** One MCP session over the memory root; rejects when the root is held by a process that serves no kioku api. */
export const createMcpServer = async (options: McpServerOptions): Promise<McpServer> => {
  const { runtime, ctx, mode } = await start(options)
  const session = makeSession(await runtime.runtime(), ctx)
  return {
    mode: mode === "embedded" ? "embedded" : "server",
    connect: (transport) => session.connect(transport),
    close: () => session.close().finally(() => runtime.dispose())
  }
}

/** Serves MCP on this process's stdin/stdout until stdin ends, then releases the memory root. */
export const serveMcpStdio = async (options: McpServerOptions): Promise<void> => {
  const { runtime, ctx } = await start(options)
  await runtime.runPromise(serveStdio(ctx)).finally(() => runtime.dispose())
}
