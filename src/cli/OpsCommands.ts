/**
 * Operator commands: `kioku doctor [--data-dir DIR] [--config FILE] [--json]` (read-only health check; exit
 * code 1 when it finds problems); `kioku import-neko <app dir> [--data-dir DIR] [--config FILE] [--dry-run]
 * [--force]` (validate and copy a N.E.K.O. memory root and its config; refused with the problems listed).
 */
import { Effect, Schema } from "effect"
import { loadSettings } from "../Config.js"
import * as Doctor from "../ops/Doctor.js"
import { DoctorReport } from "../ops/Findings.js"
import { importNeko as runImport } from "../ops/ImportNeko.js"
import { dataDirOf, parse, UsageError } from "./Args.js"

const out = (text: string) => Effect.sync(() => process.stdout.write(`${text}\n`))

export const doctor = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const { values } = yield* parse(args, {
      "data-dir": { type: "string" },
      config: { type: "string" },
      json: { type: "boolean" }
    })
    const settings = yield* loadSettings({ dataDir: yield* dataDirOf(values["data-dir"]), configFile: values.config })
    const report = yield* Doctor.diagnose({
      dataDir: settings.dataDir,
      configDir: settings.configDir,
      maxPerShard: settings.tunables.archive_file_max_entries
    })
    yield* out(
      values.json === true ? JSON.stringify(yield* Schema.encode(DoctorReport)(report)) : Doctor.format(report)
    )
    if (report.problems.length > 0) {
      return yield* new UsageError({ message: `doctor found ${report.problems.length} problem(s)` })
    }
  })

export const importNeko = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const { values, positionals } = yield* parse(
      args,
      {
        "data-dir": { type: "string" },
        config: { type: "string" },
        "dry-run": { type: "boolean" },
        force: { type: "boolean" }
      },
      true
    )
    const [appDir, ...extra] = positionals
    if (appDir === undefined || extra.length > 0)
      return yield* new UsageError({ message: "import-neko takes one N.E.K.O. app directory" })
    const settings = yield* loadSettings({ dataDir: yield* dataDirOf(values["data-dir"]), configFile: values.config })
    const dryRun = values["dry-run"] === true
    const report = yield* Effect.scoped(
      runImport({
        appDir,
        dataDir: settings.dataDir,
        configDir: settings.configDir,
        dryRun,
        force: values.force === true,
        maxPerShard: settings.tunables.archive_file_max_entries
      })
    ).pipe(
      Effect.tapError((e) =>
        e._tag === "ImportRefused"
          ? out(e.problems.map((p) => `problem ${p.file}: ${p.problem} — fix: ${p.fix}`).join("\n"))
          : Effect.void
      )
    )
    const verb = dryRun ? "would import" : "imported"
    yield* out(
      [
        ...report.characters.map(
          (c) => `${verb} ${c.name} (${c.files} files)${c.replaced ? ", replacing the existing one" : ""}`
        ),
        ...report.config.map((line) => `config: ${line}`),
        ...report.notes.map((n) => `note ${n.file}: ${n.problem} — ${n.fix}`),
        `${verb} ${report.characters.length} character(s) from ${report.source} into ${settings.dataDir}`
      ].join("\n")
    )
  })
