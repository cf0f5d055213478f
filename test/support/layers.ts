/** In-process runtime layers over a temp memory root, for actor and service tests. */
import { Effect, Layer } from "effect"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { appLayer } from "../../src/App.js"
import { MemoryService } from "../../src/MemoryService.js"
import * as Startup from "../../src/Startup.js"
import { tunablesFrom } from "../../src/Config.js"
import type { LlmClient, LlmError } from "../../src/llm/LlmClient.js"
import { Tokenizer } from "../../src/llm/Tokenizer.js"
import type { Embedder } from "../../src/vectors/Embedder.js"
import { RecentCompressor, type CompressionInput } from "../../src/recent/RecentCompressor.js"
import type { Tunables } from "../../src/Tunables.js"

/**
 * Settings over a temp root. Each turn's outbox drain runs at once (`outbox_drain_interval_ms` 0), so tests that
 * hold the clock still see every turn's drain; `outbox-retry.test.ts` covers the default's grouping.
 */
export const testSettings = (overrides: Partial<Tunables> = {}) => {
  const root = mkdtempSync(path.join(tmpdir(), "kioku-rt-"))
  const tunables = tunablesFrom({ vectors_enabled: false, outbox_drain_interval_ms: 0 }, overrides)
  return { dataDir: path.join(root, "memory"), configDir: path.join(root, "config"), tunables }
}

export const testRuntime = (
  options: {
    /** Replaces the whole compressor, e.g. to hold a compression in flight. */
    readonly compress?: (input: CompressionInput) => Effect.Effect<string, LlmError>
    readonly llm?: Layer.Layer<LlmClient>
    readonly tunables?: Partial<Tunables>
  } = {}
) => {
  const settings = testSettings(options.tunables)
  const compressor = options.compress ? Layer.succeed(RecentCompressor, { summarize: options.compress }) : undefined
  return {
    settings,
    layer: appLayer({ settings, compressor, llm: options.llm, tokenizer: Tokenizer.Heuristic, maintenance: false })
  }
}

/** Writes `config/core_config.json` with the powerful-memory switch. */
export const setPowerful = (settings: ReturnType<typeof testSettings>, on: boolean) => {
  mkdirSync(settings.configDir, { recursive: true })
  writeFileSync(path.join(settings.configDir, "core_config.json"), JSON.stringify({ powerful_memory_enabled: on }))
}

/** Builds the whole runtime over `settings` (maintenance loops off unless asked), recovers, returns the service. */
export const boot = (
  settings: ReturnType<typeof testSettings>,
  options: {
    readonly llm?: Layer.Layer<LlmClient>
    readonly maintenance?: boolean
    readonly embedder?: Layer.Layer<Embedder>
  } = {}
) =>
  Effect.gen(function* () {
    const ctx = yield* Layer.build(
      appLayer({
        settings,
        tokenizer: Tokenizer.Heuristic,
        llm: options.llm,
        embedder: options.embedder,
        maintenance: options.maintenance ?? false
      })
    )
    yield* Effect.provide(Startup.recover, ctx)
    return yield* Effect.provide(MemoryService, ctx)
  })
