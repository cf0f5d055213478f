/**
 * Runs the build of a built-in model (DefaultModel.build) in a child process, `node kioku.mjs build-embeddings
 * --model ID --out DIR`, so the build's transient memory (~1 GB for the word-vector model) never enters the
 * server's heap. The CLI bundle is found next
 * to the running bundle (`dist/kioku.mjs` beside `dist/lib.mjs`), or under `dist/` when running from the
 * sources (tests: `npm run build` first). Interrupting the wait stops the child.
 */
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { EmbedError } from "./Embedder.js"

/** The command that builds the default model into a directory (appended as `--out DIR`). */
export interface BuildCommand {
  readonly command: string
  readonly args: ReadonlyArray<string>
}

const cliCandidates = ["./kioku.mjs", "../../dist/kioku.mjs"]

/** `node --max-old-space-size=2048 <kioku.mjs> build-embeddings --model ID`, with the bundle next to this module. */
export const buildCommandFor = (profileId: string): Effect.Effect<BuildCommand, EmbedError> =>
  Effect.suspend(() => {
    const cli = cliCandidates.map((c) => fileURLToPath(new URL(c, import.meta.url))).find((f) => existsSync(f))
    return cli === undefined
      ? Effect.fail(new EmbedError({ message: "kioku.mjs not found: run `npm run build`" }))
      : Effect.succeed({
          command: process.execPath,
          args: ["--max-old-space-size=2048", cli, "build-embeddings", "--model", profileId]
        })
  })

const tailOf = (text: string) => text.trim().split("\n").slice(-5).join(" | ").slice(-1000)

/** Runs `command --out dir` and succeeds when it exits with 0. */
export const runBuild = (command: BuildCommand, dir: string): Effect.Effect<void, EmbedError> =>
  Effect.async<void, EmbedError>((resume) => {
    let stderr = ""
    const child = spawn(command.command, [...command.args, "--out", dir], {
      stdio: ["ignore", "ignore", "pipe"]
    })
    child.stderr.setEncoding("utf8")
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-4000)
    })
    child.on("error", (e) =>
      resume(Effect.fail(new EmbedError({ message: `cannot start the model build: ${e.message}` })))
    )
    child.on("close", (code, signal) =>
      resume(
        code === 0
          ? Effect.void
          : Effect.fail(
              new EmbedError({
                message: `model build exited with ${signal ?? `code ${String(code)}`}: ${tailOf(stderr)}`
              })
            )
      )
    )
    return Effect.sync(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
    })
  })
