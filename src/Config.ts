/**
 * Runtime configuration: the tunables (defaults ← JSON file ← `KIOKU_<NAME>` env) and the data layout.
 * The memory root is `<data-dir>`; N.E.K.O.'s config folder sits beside it at `<data-dir>/../config`.
 */
import { Config, Context, Effect, Either, LogLevel, Option, Schema } from "effect"
import * as path from "node:path"
import { readFileSync } from "node:fs"
import { isTunableName, retiredTunables, tunableDefaults, type Tunables } from "./Tunables.js"

export class ConfigInvalid extends Schema.TaggedError<ConfigInvalid>()("ConfigInvalid", { message: Schema.String }) {}

export interface KiokuSettings {
  readonly dataDir: string
  readonly configDir: string
  readonly tunables: Tunables
}

export class KiokuConfig extends Context.Tag("app/Config")<KiokuConfig, KiokuSettings>() {}

const JsonObject = Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.Unknown }))

type Overrides = Partial<Record<keyof Tunables, number | boolean | string>>

const coerce = (name: keyof Tunables, value: unknown): Either.Either<number | boolean | string, ConfigInvalid> => {
  const expected = typeof tunableDefaults[name]
  let v: unknown = value
  if (typeof value === "string" && expected === "number") v = value.trim() === "" ? NaN : Number(value)
  if (typeof value === "string" && expected === "boolean") {
    v = ["1", "true", "yes", "on"].includes(value.toLowerCase())
      ? true
      : ["0", "false", "no", "off"].includes(value.toLowerCase())
        ? false
        : value
  }
  if (typeof v !== expected || (typeof v === "number" && !Number.isFinite(v))) {
    return Either.left(new ConfigInvalid({ message: `tunable ${name} must be a ${expected}, got ${String(value)}` }))
  }
  return typeof v === "number" || typeof v === "boolean" || typeof v === "string"
    ? Either.right(v)
    : Either.left(new ConfigInvalid({ message: `tunable ${name} has an unsupported value` }))
}

/** Checks a record of overrides against the known tunables and their types. */
export const checkOverrides = (raw: Readonly<Record<string, unknown>>): Either.Either<Overrides, ConfigInvalid> => {
  const out: Overrides = {}
  for (const [key, value] of Object.entries(raw)) {
    if (retiredTunables.has(key)) {
      return Either.left(
        new ConfigInvalid({ message: `tunable ${key} is not used by kioku (see docs/configuration.md)` })
      )
    }
    if (!isTunableName(key)) return Either.left(new ConfigInvalid({ message: `unknown tunable ${key}` }))
    const v = coerce(key, value)
    if (Either.isLeft(v)) return Either.left(v.left)
    out[key] = v.right
  }
  return Either.right(out)
}

export const tunablesFrom = (...layers: ReadonlyArray<Overrides>): Tunables =>
  Object.assign({}, tunableDefaults, ...layers)

const readFileOverrides = (file: string | undefined) =>
  Effect.gen(function* () {
    if (!file) return {}
    const text = yield* Effect.try({
      try: () => readFileSync(file, "utf8"),
      catch: (e) => new ConfigInvalid({ message: `cannot read config file ${file}: ${String(e)}` })
    })
    const raw = yield* Schema.decodeUnknown(JsonObject)(text).pipe(
      Effect.mapError(() => new ConfigInvalid({ message: `config file ${file} is not a JSON object` }))
    )
    return yield* checkOverrides(raw)
  })

const readEnvOverrides = Effect.gen(function* () {
  const raw: Record<string, string> = {}
  for (const key of Object.keys(tunableDefaults)) {
    const value = yield* Config.option(Config.string(`KIOKU_${key.toUpperCase()}`))
    if (Option.isSome(value)) raw[key] = value.value
  }
  return yield* checkOverrides(raw)
}).pipe(Effect.mapError((e) => (e instanceof ConfigInvalid ? e : new ConfigInvalid({ message: String(e) }))))

/** Builds the settings from an optional JSON file, the environment and explicit overrides (highest). */
export const loadSettings = (options: {
  readonly dataDir: string
  readonly configFile?: string | undefined
  readonly overrides?: Readonly<Record<string, unknown>> | undefined
}) =>
  Effect.gen(function* () {
    const fromFile = yield* readFileOverrides(options.configFile)
    const fromEnv = yield* readEnvOverrides
    const explicit = yield* checkOverrides(options.overrides ?? {})
    const dataDir = path.resolve(options.dataDir)
    return {
      dataDir,
      configDir: path.join(path.dirname(dataDir), "config"),
      tunables: tunablesFrom(fromFile, fromEnv, explicit)
    } satisfies KiokuSettings
  })

const logLevels: Readonly<Record<string, LogLevel.LogLevel>> = {
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warning: LogLevel.Warning,
  warn: LogLevel.Warning,
  error: LogLevel.Error,
  none: LogLevel.None
}

/** `debug`, `info`, `warning`, `error` or `none`. */
export const parseLogLevel = (name: string): Option.Option<LogLevel.LogLevel> =>
  Option.fromNullable(logLevels[name.trim().toLowerCase()])
