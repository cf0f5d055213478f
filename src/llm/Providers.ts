/**
 * The chat port as the server and the library wire it: per tier, a GGUF file (`llm_<tier>_gguf`, served in
 * process) wins; otherwise a base URL and a model (the OpenAI-compatible adapter); otherwise nothing, and the
 * tier's tasks run on the offline `local` provider. A tier whose GGUF file did not load is `local` too, even
 * when it also has a base URL: the log says why, and no call goes where the configuration did not ask.
 */
import { Effect, Layer } from "effect"
import { makeGguf } from "./gguf/GgufLlm.js"
import { LlmClient } from "./LlmClient.js"
import { makeOpenAi } from "./OpenAiLlm.js"

export const ProvidersLive = Layer.scoped(
  LlmClient,
  Effect.gen(function* () {
    const http = yield* makeOpenAi
    const gguf = yield* makeGguf
    return {
      configured: (tier) => (gguf.named.has(tier) ? gguf.served(tier) : http.configured(tier)),
      complete: (request) => (gguf.named.has(request.tier) ? gguf.complete(request) : http.complete(request))
    }
  })
)
