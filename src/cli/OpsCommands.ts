/**
 * Operator commands: `kioku doctor [--data-dir DIR] [--config FILE] [--json]` (read-only health check; exit
 * code 1 when it finds problems); `kioku import-neko <app dir> [--data-dir DIR] [--config FILE] [--dry-run]
 * [--force]` (validate and copy a N.E.K.O. memory root and its config; refused with the problems listed);
 * `kioku export <name> [--data-dir DIR] [--config FILE] [--out FILE]` (one JSON document, stdout by default).
 */
import { Clock, Effect, Schema } from "effect"
import * as path from "node:path"
import { loadSettings } from "../Config.js"
import { defaultModelDir } from "../vectors/DefaultModel.js"
import * as Doctor from "../ops/Doctor.js"
import { DoctorReport } from "../ops/Findings.js"
import { importNeko as runImport } from "../ops/ImportNeko.js"
import * as Export from "../ops/Export.js"
import { writeAtomic } from "../store/DurableFs.js"
import { dataDirOf, parse, UsageError } from "./Args.js"
import { makeProgress } from "./Progress.js"

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
      maxPerShard: settings.tunables.archive_file_max_entries,
      modelLock: `${defaultModelDir(settings)}.lock`
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
    const progress = makeProgress()
    const report = yield* Effect.scoped(
      runImport({
        appDir,
        dataDir: settings.dataDir,
        configDir: settings.configDir,
        dryRun,
        force: values.force === true,
        maxPerShard: settings.tunables.archive_file_max_entries,
        step: progress.step
      })
    ).pipe(
      Effect.tapError((e) =>
        e._tag === "ImportRefused" && e.problems.length > 0
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

export const exportCharacter = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const { values, positionals } = yield* parse(
      args,
      { "data-dir": { type: "string" }, config: { type: "string" }, out: { type: "string" } },
      true
    )
    const [name, ...extra] = positionals
    if (name === undefined || extra.length > 0)
      return yield* new UsageError({ message: "export takes one character name" })
    const settings = yield* loadSettings({ dataDir: yield* dataDirOf(values["data-dir"]), configFile: values.config })
    const document = yield* Export.exportCharacter({
      dataDir: settings.dataDir,
      name,
      maxPerShard: settings.tunables.archive_file_max_entries,
      now: yield* Clock.currentTimeMillis
    })
    const text = yield* Export.encodeDocument(document)
    if (values.out === undefined) return yield* out(text)
    yield* writeAtomic(path.resolve(values.out), text + "\n")
    yield* Effect.sync(() => process.stderr.write(`exported ${name} to ${path.resolve(values.out ?? "")}\n`))
  })
