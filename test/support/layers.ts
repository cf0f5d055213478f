/** In-process runtime layers over a temp memory root, for actor and service tests. */
import { Effect, Layer } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { appLayer } from "../../src/App.js"
import { tunablesFrom } from "../../src/Config.js"
import type { LlmClient, LlmError } from "../../src/llm/LlmClient.js"
import { Tokenizer } from "../../src/llm/Tokenizer.js"
import { RecentCompressor, type CompressionInput } from "../../src/memory/recent/RecentCompressor.js"
import type { Tunables } from "../../src/Tunables.js"

export const testSettings = (overrides: Partial<Tunables> = {}) => {
  const root = mkdtempSync(path.join(tmpdir(), "kioku-rt-"))
  return { dataDir: path.join(root, "memory"), configDir: path.join(root, "config"), tunables: tunablesFrom(overrides) }
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
