/**
 * Operator commands: `kioku doctor [--data-dir DIR] [--config FILE] [--json]` (read-only health check; exit
 * code 1 when it finds problems).
 */
import { Effect, Schema } from "effect"
import { loadSettings } from "../Config.js"
import * as Doctor from "../ops/Doctor.js"
import { DoctorReport } from "../ops/Findings.js"
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
