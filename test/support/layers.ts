/** In-process runtime layers over a temp memory root, for actor and service tests. */
import { Effect, Layer } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { OutboxHandlers, SettleWork } from "../../src/actor/Ports.js"
import { appLayer } from "../../src/App.js"
import { tunablesFrom } from "../../src/Config.js"
import type { Tunables } from "../../src/Tunables.js"

export const testSettings = (overrides: Partial<Tunables> = {}) => {
  const root = mkdtempSync(path.join(tmpdir(), "kioku-rt-"))
  return { dataDir: path.join(root, "memory"), configDir: path.join(root, "config"), tunables: tunablesFrom(overrides) }
}

export const testRuntime = (
  options: {
    readonly settle?: (name: string) => Effect.Effect<void>
    readonly tunables?: Partial<Tunables>
  } = {}
) => {
  const settings = testSettings(options.tunables)
  const work = Layer.merge(
    Layer.succeed(SettleWork, { run: (name) => (options.settle ? options.settle(name) : Effect.void) }),
    OutboxHandlers.Default
  )
  return { settings, layer: appLayer({ settings, work }) }
}
