/** Entry point of the `kioku` binary. */
import { NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import { run } from "./cli/Cli.js"

NodeRuntime.runMain(
  run(process.argv.slice(2)).pipe(
    Effect.tapError((e) => Effect.sync(() => process.stderr.write(`kioku: ${e.message}\n`)))
  ),
  { disableErrorReporting: true }
)
