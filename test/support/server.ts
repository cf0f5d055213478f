import { afterAll, afterEach } from "@effect/vitest"
/**
 * Test harness for the real server binary: spawns `dist/kioku.mjs serve` on a free loopback port, waits for
 * its "listening" log line, and offers small HTTP helpers. Also temp-dir helpers. Servers run with vectors off
 * unless started through `startWithVectors`: then the default embedding model (built once per test run into
 * the shared cache of test/vectors/fixtures.ts) is loaded at start and the server is returned once it is ready.
 */
import { Effect } from "effect"
import { spawn, type ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { sharedDefaultModel } from "../vectors/fixtures.js"

export const distBin = path.resolve(import.meta.dirname, "../../dist/kioku.mjs")

export const makeTempRoot = (): { readonly root: string; readonly memory: string; readonly cleanup: () => void } => {
  const root = mkdtempSync(path.join(tmpdir(), "kioku-test-"))
  return { root, memory: path.join(root, "memory"), cleanup: () => rmSync(root, { recursive: true, force: true }) }
}

export interface RunningServer {
  readonly url: string
  readonly port: number
  readonly child: ChildProcess
  readonly output: () => string
  /** Resolves once the server's output (since start) matches `pattern` `times` times. */
  readonly waitFor: (pattern: RegExp, times?: number) => Promise<void>
  readonly stop: () => Promise<void>
  readonly kill9: () => Promise<void>
}

/** How the process is launched: `wrap` runs it through a command (e.g. `unshare`), `uid`/`gid` as another user. */
export interface Launch {
  /** Resolve once startup recovery is done (default, unless started blocked) or as soon as it listens. */
  readonly untilRecovered?: boolean
  readonly wrap?: ReadonlyArray<string>
  readonly uid?: number
  readonly gid?: number
}

/** Node's options for the server as `npm start` passes them (a 64 MiB young generation; configuration.md). */
export const serverNodeOptions = ["--max-semi-space-size=64"]

export const startServer = (
  dataDir: string,
  extraArgs: ReadonlyArray<string> = [],
  env: Readonly<Record<string, string>> = {},
  launch: Launch = {}
): Promise<RunningServer> => {
  const waitReady = (launch.untilRecovered ?? true) && !extraArgs.includes("--start-blocked")
  return new Promise((resolve, reject) => {
    const nodeArgs = [
      ...serverNodeOptions,
      ...(process.env["KIOKU_SERVER_NODE_ARGS"] ?? "").split(" ").filter((a) => a !== "")
    ]
    const [command = process.execPath, ...prefix] = launch.wrap ?? []
    const node = launch.wrap === undefined ? [] : [process.execPath]
    const child = spawn(
      command,
      [...prefix, ...node, ...nodeArgs, distBin, "serve", "--port", "0", "--data-dir", dataDir, ...extraArgs],
      {
        env: { ...process.env, KIOKU_LOG_LEVEL: "debug", KIOKU_VECTORS_ENABLED: "false", ...env },
        stdio: ["ignore", "pipe", "pipe"],
        ...(launch.uid === undefined ? {} : { uid: launch.uid }),
        ...(launch.gid === undefined ? {} : { gid: launch.gid })
      }
    )
    let out = ""
    const exited = new Promise<void>((done) => child.once("exit", () => done()))
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      const m = /kioku listening[\s\S]*?port: (\d+)/.exec(out)
      if (m && (!waitReady || out.includes("startup recovery done"))) {
        child.stdout?.off("data", onData)
        const waiters: Array<() => void> = []
        child.stdout?.on("data", (c: Buffer) => {
          out += c.toString()
          for (const w of [...waiters]) w()
        })
        const count = (pattern: RegExp) => (out.match(new RegExp(pattern.source, "g")) ?? []).length
        const waitFor = (pattern: RegExp, times = 1) =>
          new Promise<void>((done) => {
            const check = () => {
              if (count(pattern) >= times) {
                waiters.splice(waiters.indexOf(check), 1)
                done()
              }
            }
            waiters.push(check)
            check()
          })
        const port = Number(m[1])
        resolve({
          url: `http://127.0.0.1:${port}`,
          port,
          child,
          output: () => out,
          waitFor,
          stop: async () => {
            child.kill("SIGTERM")
            await exited
          },
          kill9: async () => {
            child.kill("SIGKILL")
            await exited
          }
        })
      }
    }
    child.stdout?.on("data", onData)
    child.stderr?.on("data", (c: Buffer) => (out += c.toString()))
    child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)))
  })
}

export const history = (messages: ReadonlyArray<unknown>, extra: Readonly<Record<string, unknown>> = {}) =>
  JSON.stringify({ input_history: JSON.stringify(messages), ...extra })

export const post = async (url: string, body: string, headers: Readonly<Record<string, string>> = {}) => {
  const res = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json", ...headers } })
  return { status: res.status, text: await res.text(), type: res.headers.get("content-type") ?? "" }
}

export const get = async (url: string) => {
  const res = await fetch(url)
  return { status: res.status, text: await res.text(), type: res.headers.get("content-type") ?? "" }
}

/**
 * Asks the server for the memory browser's view of `name`'s recent.json, which writes the turns the server
 * holds for the next checkpoint (recent_write_at_checkpoint): afterwards the file on disk is current.
 */
export const flushRecent = async (url: string, name: string) => {
  const res = await fetch(`${url}/api/memory/recent_file?filename=${encodeURIComponent(`recent_${name}.json`)}`)
  await res.text()
}

export const turn = (user: string, ai: string) => [
  { role: "user", content: user },
  { role: "assistant", content: ai }
]

/** A `turns.appended` journal line as kioku writes it, for tests that plant journal state. */
export const turnsEvent = (
  eventId: string,
  rowTs: string,
  messages: ReadonlyArray<{ readonly type: string; readonly data: { readonly content: string } }>,
  extract = true
) => ({
  event_id: eventId,
  type: "turns.appended",
  ts: rowTs.replace(" ", "T"),
  payload: { session_id: `s-${eventId}`, row_ts: rowTs, kind: "cache", messages, extract }
})

/** The environment of a server with vectors on, using the shared default model (built here if missing). */
export const vectorEnv = async (): Promise<Record<string, string>> => {
  const modelDir = await Effect.runPromise(sharedDefaultModel)
  return {
    KIOKU_VECTORS_ENABLED: "true",
    KIOKU_EMBEDDING_CACHE_DIR: path.dirname(modelDir),
    KIOKU_VECTORS_WARMUP_DELAY_SECONDS: "0"
  }
}

/**
 * Registers the hooks of a suite of server tests: every server started through `start` is stopped after
 * its test, and the temp root is removed after the suite.
 */
export const serverSuite = () => {
  const temp = makeTempRoot()
  const running: Array<RunningServer> = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop()))
  })
  afterAll(() => temp.cleanup())
  const start = async (...args: Parameters<typeof startServer>) => {
    const server = await startServer(...args)
    running.push(server)
    return server
  }
  /** A server with vectors on, returned once its embedding model is loaded. */
  const startWithVectors = async (
    dataDir: string,
    extraArgs: ReadonlyArray<string> = [],
    env: Readonly<Record<string, string>> = {}
  ) => {
    const server = await start(dataDir, extraArgs, { ...(await vectorEnv()), ...env })
    await server.waitFor(/embedding model ready|vectors disabled/)
    if (!server.output().includes("embedding model ready")) throw new Error(`no vectors: ${server.output()}`)
    return server
  }
  return { temp, start, startWithVectors }
}
