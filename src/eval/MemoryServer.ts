/**
 * The server under `kioku eval memory`: the built binary (`dist/kioku.mjs serve --port 0`) as a child process
 * on a fresh memory root, found from its "kioku listening" and "startup recovery done" log lines, stopped with
 * SIGTERM (SIGKILL after 30 s) when the scope closes. Requests go over real loopback HTTP in N.E.K.O.'s shapes:
 * `input_history` as a JSON string, names percent-encoded, success judged by the body. Its log is kept so a
 * caller can wait for a line (the embedding model's "ready").
 */
import { Duration, Effect, Option, Schema, type Scope } from "effect"
import { spawn, type ChildProcess } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { EvalError } from "./Provenance.js"

const cliCandidates = ["./kioku.mjs", "../../dist/kioku.mjs"]

/** `kioku.mjs` beside the running bundle, or under `dist/` when running from the sources. */
export const findCli = (): Option.Option<string> =>
  Option.fromNullable(cliCandidates.map((c) => fileURLToPath(new URL(c, import.meta.url))).find((f) => existsSync(f)))

export interface ServerOptions {
  readonly cli: string
  readonly dataDir: string
  readonly configFile: string
}

export interface RunningServer {
  readonly url: string
  /** Waits until the log holds `pattern` (or fails when the process exits or `timeout` passes); the match. */
  readonly waitForLog: (pattern: RegExp, timeout: Duration.DurationInput) => Effect.Effect<string, EvalError>
  readonly post: (route: string, body: unknown) => Effect.Effect<unknown, EvalError>
  readonly getText: (route: string) => Effect.Effect<string, EvalError>
}

const requestTimeout = Duration.minutes(10)

const fail = (message: string) => new EvalError({ message })

const exitOf = (child: ChildProcess) =>
  Effect.async<void>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
    const done = () => resume(Effect.void)
    child.once("exit", done)
    return Effect.sync(() => child.off("exit", done))
  })

const stop = (child: ChildProcess) =>
  Effect.sync(() => child.kill("SIGTERM")).pipe(
    Effect.zipRight(exitOf(child)),
    Effect.timeout(Duration.seconds(30)),
    Effect.catchAll(() => Effect.sync(() => child.kill("SIGKILL")).pipe(Effect.zipRight(exitOf(child))))
  )

const call = (what: string, f: () => Promise<{ readonly status: number; readonly text: string }>) =>
  Effect.tryPromise({ try: f, catch: (e) => fail(`${what}: ${e instanceof Error ? e.message : String(e)}`) }).pipe(
    Effect.timeoutFail({ duration: requestTimeout, onTimeout: () => fail(`${what}: no answer in 10 minutes`) }),
    Effect.flatMap((r) =>
      r.status >= 200 && r.status < 300
        ? Effect.succeed(r.text)
        : Effect.fail(fail(`${what}: HTTP ${r.status}: ${r.text.slice(0, 300)}`))
    )
  )

const decodeJson = Schema.decodeUnknown(Schema.parseJson(Schema.Unknown))

export const startServer = (options: ServerOptions): Effect.Effect<RunningServer, EvalError, Scope.Scope> =>
  Effect.gen(function* () {
    const child = yield* Effect.acquireRelease(
      Effect.try({
        try: () =>
          spawn(
            process.execPath,
            [
              options.cli,
              "serve",
              "--port",
              "0",
              "--data-dir",
              options.dataDir,
              "--config",
              options.configFile,
              "--log-level",
              "info"
            ],
            { stdio: ["ignore", "pipe", "pipe"] }
          ),
        catch: (e) => fail(`cannot start ${options.cli}: ${String(e)}`)
      }),
      stop
    )
    let log = ""
    const append = (chunk: Buffer) => {
      log += chunk.toString()
    }
    child.stdout?.on("data", append)
    child.stderr?.on("data", append)

    const waitForLog = (pattern: RegExp, timeout: Duration.DurationInput) =>
      Effect.async<string, EvalError>((resume) => {
        const check = () => {
          const m = pattern.exec(log)
          if (m !== null) {
            cleanup()
            resume(Effect.succeed(m[0]))
          }
        }
        const exited = () => {
          cleanup()
          resume(Effect.fail(fail(`the server exited: ${log.slice(-2000)}`)))
        }
        const cleanup = () => {
          child.stdout?.off("data", check)
          child.stderr?.off("data", check)
          child.off("exit", exited)
        }
        child.stdout?.on("data", check)
        child.stderr?.on("data", check)
        child.once("exit", exited)
        check()
        return Effect.sync(cleanup)
      }).pipe(
        Effect.timeoutFail({
          duration: timeout,
          onTimeout: () => fail(`no log line ${pattern.source} in ${Duration.format(timeout)}: ${log.slice(-2000)}`)
        })
      )

    const listening = yield* waitForLog(/kioku listening[\s\S]*?port: (\d+)/, Duration.minutes(2))
    yield* waitForLog(/startup recovery done/, Duration.minutes(2))
    const port = Number(/port: (\d+)/.exec(listening)?.[1] ?? "0")
    const url = `http://127.0.0.1:${port}`

    const post = (route: string, body: unknown) =>
      call(`POST ${route}`, () =>
        fetch(`${url}${route}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body)
        }).then(async (res) => ({ status: res.status, text: await res.text() }))
      ).pipe(Effect.flatMap((text) => Effect.mapError(decodeJson(text), (e) => fail(`POST ${route}: ${e.message}`))))

    const getText = (route: string) =>
      call(`GET ${route}`, () =>
        fetch(`${url}${route}`).then(async (res) => ({ status: res.status, text: await res.text() }))
      )

    return { url, waitForLog, post, getText } satisfies RunningServer
  })
