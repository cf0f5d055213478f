/**
 * `kioku mcp [--data-dir DIR] [--character NAME] [--language L] [--http PORT [--host H]] [--auth-token T]
 * [--config FILE] [--log-level L]`: the Model Context Protocol server (src/mcp/, docs/mcp.md). Over stdio by
 * default; with `--http` Streamable HTTP at `/mcp`, with `kioku serve`'s listening rules. It runs the memory
 * runtime on the root, or talks to the kioku server that holds it (`--auth-token` is then sent to it too).
 * Every log line goes to stderr, so stdout carries only protocol messages. The tool descriptions are in
 * `--language`, else the default character's prompt language, else `default_language`.
 */
import { Effect, Either, FiberRef, HashSet, Layer, Logger, Option } from "effect"
import { loadSettings, parseLogLevel } from "../Config.js"
import { validateCharacterName } from "../domain/CharacterName.js"
import { normaliseLanguage } from "../domain/Locale.js"
import { backendLayer } from "../mcp/Attach.js"
import { languageFor } from "../mcp/Language.js"
import { httpLayer, serveStdio } from "../mcp/Transports.js"
import { dataDirOf, envOr, parse, UsageError } from "./Args.js"
import { authTokenOf, listenOptions } from "./Listen.js"

const stderrLogger = Logger.prettyLogger({ stderr: true, colors: false })

export const mcp = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const { values } = yield* parse(args, {
      "data-dir": { type: "string" },
      config: { type: "string" },
      character: { type: "string" },
      language: { type: "string" },
      http: { type: "string" },
      host: { type: "string" },
      "auth-token": { type: "string" },
      "log-level": { type: "string" }
    })
    const character = values.character === undefined ? undefined : validateCharacterName(values.character)
    if (character !== undefined && Either.isLeft(character))
      return yield* new UsageError({ message: `--character: ${character.left.detail}` })
    const chosen = values.language === undefined ? undefined : normaliseLanguage(values.language)
    if (values.language !== undefined && chosen === undefined)
      return yield* new UsageError({ message: `--language: unsupported language ${values.language}` })
    if (values.host !== undefined && values.http === undefined)
      return yield* new UsageError({ message: "--host needs --http PORT" })
    const levelName = yield* envOr(values["log-level"], "KIOKU_LOG_LEVEL", "info")
    const level = Option.getOrUndefined(parseLogLevel(levelName))
    if (level === undefined) return yield* new UsageError({ message: `unknown log level ${levelName}` })
    const http =
      values.http === undefined
        ? undefined
        : yield* listenOptions({
            flag: "--http",
            port: values.http,
            host: values.host,
            authToken: values["auth-token"]
          })
    const authToken = http?.token ?? (yield* authTokenOf(values["auth-token"]))
    const settings = yield* loadSettings({ dataDir: yield* dataDirOf(values["data-dir"]), configFile: values.config })
    const name = character === undefined ? undefined : character.right
    const serve = Effect.gen(function* () {
      const fallback = chosen ?? normaliseLanguage(settings.tunables.default_language) ?? "en"
      const ctx = { language: chosen ?? (yield* languageFor(name, fallback)), character: name }
      if (http === undefined) return yield* serveStdio(ctx)
      return yield* Layer.launch(httpLayer({ ...http, authToken, maxBodyBytes: settings.tunables.max_body_bytes }, ctx))
    })
    return yield* serve.pipe(
      Effect.provide(backendLayer({ settings, authToken })),
      Logger.withMinimumLogLevel(level),
      Effect.locally(FiberRef.currentLoggers, HashSet.make(stderrLogger))
    )
  })
