/**
 * `kioku eval memory [--data DIR] [--json] [--work-dir DIR] [--language en|ja|zh] [--vectors on|off]
 * [--config FILE]`: the offline-default memory benchmark (src/eval/RunMemory.ts) against the built server
 * binary beside this bundle. `--data` defaults to the repository's `bench/memory`. Progress on stderr; the
 * table (or one JSON object with `--json`) on stdout.
 */
import { Effect, Option, Schema } from "effect"
import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { summaryOf, formatMemoryRun } from "../eval/MemoryReport.js"
import { findCli } from "../eval/MemoryServer.js"
import { MemoryLanguage } from "../eval/MemorySet.js"
import { runMemoryEval } from "../eval/RunMemory.js"
import { parse, UsageError } from "./Args.js"
import { makeProgress, progressTo } from "./Progress.js"

const dataCandidates = ["../bench/memory", "../../bench/memory"]

const defaultData = () =>
  Option.fromNullable(dataCandidates.map((c) => fileURLToPath(new URL(c, import.meta.url))).find((d) => existsSync(d)))

const decodeLanguage = Schema.decodeUnknownOption(MemoryLanguage)

export const evalMemory = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const { values } = yield* parse(args, {
      data: { type: "string" },
      json: { type: "boolean" },
      "work-dir": { type: "string" },
      language: { type: "string" },
      vectors: { type: "string" },
      config: { type: "string" }
    })
    const data = values.data ?? Option.getOrUndefined(defaultData())
    if (data === undefined) return yield* new UsageError({ message: "eval memory needs --data DIR (bench/memory)" })
    const language = values.language === undefined ? undefined : decodeLanguage(values.language)
    if (language !== undefined && Option.isNone(language))
      return yield* new UsageError({ message: "--language takes en, ja or zh" })
    if (values.vectors !== undefined && values.vectors !== "on" && values.vectors !== "off")
      return yield* new UsageError({ message: "--vectors takes on or off" })
    const cli = findCli()
    if (Option.isNone(cli)) return yield* new UsageError({ message: "kioku.mjs not found: run `npm run build`" })
    const runs = yield* runMemoryEval({
      data,
      cli: cli.value,
      languages: language === undefined ? undefined : Option.toArray(language),
      vectors: values.vectors !== "off",
      configFile: values.config,
      workDir: values["work-dir"],
      ...progressTo(makeProgress())
    })
    const out = values.json === true ? JSON.stringify(summaryOf(runs)) : formatMemoryRun(runs)
    yield* Effect.sync(() => process.stdout.write(`${out}\n`))
  })
