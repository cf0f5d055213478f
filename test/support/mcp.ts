import { afterEach } from "@effect/vitest"
/**
 * Harness for `kioku mcp` tests: drives the real binary (dist/kioku.mjs) with the MCP SDK's own client, over
 * stdio (the client spawns the process) or Streamable HTTP (spawned here, ready once it logs "kioku mcp
 * listening" on stderr). Every client error (a stdout line that is not a protocol message included) is
 * recorded, so a test can assert there was none. Clients and processes started here are closed after each test.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { spawn, type ChildProcess } from "node:child_process"
import { distBin } from "./server.js"

export interface Connected {
  readonly client: Client
  readonly errors: Array<Error>
  readonly stderr: () => string
}

const baseEnv = (env: Readonly<Record<string, string>>): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) out[k] = v
  return { ...out, KIOKU_VECTORS_ENABLED: "false", ...env }
}

/** The text of a tool answer's first content item. */
export const textOf = (result: Awaited<ReturnType<Client["callTool"]>>): string => {
  const content = result["content"]
  const first = Array.isArray(content) ? content[0] : undefined
  return typeof first === "object" && first !== null && "text" in first && typeof first.text === "string"
    ? first.text
    : ""
}

export const mcpSuite = () => {
  const clients: Array<Client> = []
  const children: Array<ChildProcess> = []
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()))
    await Promise.all(
      children.splice(0).map(
        (child) =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done()
            child.once("exit", () => done())
            child.kill("SIGTERM")
          })
      )
    )
  })

  const track = (client: Client) => {
    const errors: Array<Error> = []
    client.onerror = (e) => errors.push(e)
    clients.push(client)
    return errors
  }

  /** `kioku mcp --data-dir DIR ...args` over stdio, initialized. */
  const stdio = async (
    dataDir: string,
    args: ReadonlyArray<string> = [],
    env: Readonly<Record<string, string>> = {}
  ): Promise<Connected> => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [distBin, "mcp", "--data-dir", dataDir, ...args],
      env: baseEnv(env),
      stderr: "pipe"
    })
    let err = ""
    transport.stderr?.on("data", (c: Buffer) => (err += c.toString()))
    const client = new Client({ name: "kioku-test", version: "1.0.0" })
    const errors = track(client)
    await client.connect(transport)
    return { client, errors, stderr: () => err }
  }

  /** Spawns `kioku mcp --http 0 ...` and resolves with its /mcp url once it listens (or rejects on exit). */
  const spawnHttp = (
    dataDir: string,
    args: ReadonlyArray<string> = [],
    env: Readonly<Record<string, string>> = {}
  ): Promise<{ readonly url: URL; readonly child: ChildProcess; readonly stderr: () => string }> =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [distBin, "mcp", "--data-dir", dataDir, "--http", "0", ...args], {
        env: baseEnv(env),
        stdio: ["ignore", "pipe", "pipe"]
      })
      children.push(child)
      let err = ""
      child.stderr?.on("data", (c: Buffer) => {
        err += c.toString()
        const m = /kioku mcp listening[\s\S]*?port: (\d+)/.exec(err)
        if (m) resolve({ url: new URL(`http://127.0.0.1:${m[1]}/mcp`), child, stderr: () => err })
      })
      child.once("exit", (code) => reject(new Error(`kioku mcp exited with ${code}: ${err}`)))
    })

  /** A client connected to `url` over Streamable HTTP (extra request headers, e.g. the bearer token). */
  const http = async (url: URL, headers: Readonly<Record<string, string>> = {}) => {
    const client = new Client({ name: "kioku-test", version: "1.0.0" })
    const errors = track(client)
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { ...headers } } }))
    return { client, errors }
  }

  /** Runs `kioku mcp` to its exit (for refusals): exit code and stderr. */
  const exitOf = (dataDir: string, args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}) =>
    new Promise<{ readonly code: number | null; readonly stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [distBin, "mcp", "--data-dir", dataDir, ...args], {
        env: baseEnv(env),
        stdio: ["pipe", "pipe", "pipe"]
      })
      children.push(child)
      let err = ""
      child.stderr?.on("data", (c: Buffer) => (err += c.toString()))
      child.once("exit", (code) => resolve({ code, stderr: err }))
    })

  return { stdio, spawnHttp, http, exitOf }
}
