/**
 * Argument helpers shared by the `kioku` commands: strict `parseArgs` as an Effect, a flag-or-environment
 * fallback, and the `UsageError` every command fails with.
 */
import { Config, Effect, Schema } from "effect"
import { parseArgs, type ParseArgsConfig } from "node:util"

export class UsageError extends Schema.TaggedError<UsageError>()("UsageError", { message: Schema.String }) {}

export const envOr = (flag: string | undefined, name: string, fallback: string) =>
  flag !== undefined
    ? Effect.succeed(flag)
    : Config.string(name).pipe(
        Config.withDefault(fallback),
        Effect.orElseSucceed(() => fallback)
      )

export const parse = <O extends NonNullable<ParseArgsConfig["options"]>>(
  args: ReadonlyArray<string>,
  options: O,
  allowPositionals = false
) =>
  Effect.try({
    try: () => parseArgs({ args: [...args], options, strict: true, allowPositionals }),
    catch: (e) => new UsageError({ message: e instanceof Error ? e.message : String(e) })
  })

/** `--data-dir`, else `KIOKU_DATA_DIR`, else `./kioku-data/memory`. */
export const dataDirOf = (flag: string | undefined) => envOr(flag, "KIOKU_DATA_DIR", "./kioku-data/memory")
