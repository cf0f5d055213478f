/**
 * The in-process model tier: `llm_<tier>_gguf` names a GGUF file that serves the tier through node-llama-cpp,
 * run in a worker thread (Worker.ts) so the server's event loop stays free. Files are loaded when the layer is
 * built, each once however many tiers name it; a file that fails to load (or a machine without the engine)
 * leaves its tiers to the `local` provider, with one error log line naming the tiers, the file and the reason.
 * Calls to one model wait in arrival order for it. They follow the HTTP adapter's rules: per-try timeout
 * `min(task timeout, llm_<tier>_timeout_seconds)` counted from the moment the call joins the queue, retries of
 * engine failures after 1 s and 2 s, the hard cap, the output guard, a JSON task's answer sampled under its
 * schema's grammar, and an answer cut at the token limit as `output_limit`. A timed-out or interrupted call
 * aborts its generation and frees the model once llama.cpp has stopped.
 */
import { Duration, Effect, type Scope } from "effect"
import { KiokuConfig } from "../../Config.js"
import type { Tunables } from "../../Tunables.js"
import { LlmError, Tier, withTries, type ChatRequest } from "../LlmClient.js"
import { startWorker, type EngineWorker } from "./WorkerClient.js"

export const ggufFile = (t: Tunables, tier: Tier): string =>
  (tier === "summary" ? t.llm_summary_gguf : tier === "correction" ? t.llm_correction_gguf : t.llm_emotion_gguf).trim()

export interface GgufTiers {
  /** The tiers that name a GGUF file, loaded or not. */
  readonly named: ReadonlySet<Tier>
  /** True when the tier's file loaded. */
  readonly served: (tier: Tier) => boolean
  readonly complete: (request: ChatRequest) => Effect.Effect<string, LlmError>
}

interface Served {
  readonly file: string
  readonly worker: EngineWorker
  readonly queue: Effect.Semaphore
}

const once = (served: Served, request: ChatRequest, guard: number) =>
  Effect.gen(function* () {
    const reply = yield* served.queue.withPermits(1)(
      served.worker.generate({
        file: served.file,
        messages: request.messages,
        maxTokens: Math.min(request.maxCompletionTokens ?? guard, guard),
        ...(request.jsonSchema !== undefined ? { jsonSchema: request.jsonSchema } : {})
      })
    )
    if (reply._tag === "failed") {
      const reason = reply.reason === "prompt_too_long" ? "prompt_too_long" : "engine"
      return yield* new LlmError({ task: request.task, reason, message: reply.message })
    }
    if (reply.grammar === "failed") {
      yield* Effect.logWarning("gguf grammar not built; answered without it").pipe(
        Effect.annotateLogs({ task: request.task, error: reply.grammarError ?? "" })
      )
    }
    if (reply.stop === "length") {
      return yield* new LlmError({
        task: request.task,
        reason: "output_limit",
        message: "answer cut at the output limit"
      })
    }
    return reply
  })

const loadAll = Effect.gen(function* () {
  const { tunables } = yield* KiokuConfig
  const byFile = new Map<string, Array<Tier>>()
  for (const tier of Tier.literals) {
    const file = ggufFile(tunables, tier)
    if (file !== "") byFile.set(file, [...(byFile.get(file) ?? []), tier])
  }
  const served = new Map<Tier, Served>()
  if (byFile.size === 0) return served
  const settings = { threads: Math.max(1, tunables.llm_gguf_threads), contextTokens: tunables.llm_gguf_context_tokens }
  const fallBack = (file: string, tiers: ReadonlyArray<Tier>, message: string) =>
    Effect.logError("gguf model not loaded; its tiers are served by the local provider").pipe(
      Effect.annotateLogs({ tiers: tiers.join(","), file, error: message })
    )
  const worker = yield* startWorker({ ...settings, models: byFile.size })
  for (const [file, tiers] of byFile) {
    const started = yield* Effect.clockWith((c) => c.currentTimeMillis)
    const loaded = yield* worker.load(file)
    if (loaded._tag === "failed") {
      yield* fallBack(file, tiers, loaded.message)
      continue
    }
    const queue = yield* Effect.makeSemaphore(1)
    for (const tier of tiers) served.set(tier, { file, worker, queue })
    yield* Effect.logInfo("gguf model loaded").pipe(
      Effect.annotateLogs({
        tiers: tiers.join(","),
        file,
        template: loaded.template,
        context_tokens: loaded.contextTokens,
        threads: settings.threads,
        ms: (yield* Effect.clockWith((c) => c.currentTimeMillis)) - started
      })
    )
  }
  return served
})

export const makeGguf: Effect.Effect<GgufTiers, never, KiokuConfig | Scope.Scope> = Effect.gen(function* () {
  const { tunables } = yield* KiokuConfig
  const hardCap = Duration.seconds(tunables.memory_llm_hard_timeout_seconds)
  const named = new Set(Tier.literals.filter((tier) => ggufFile(tunables, tier) !== ""))
  const served = yield* loadAll
  const timeoutOf = (tier: Tier) =>
    tier === "summary"
      ? tunables.llm_summary_timeout_seconds
      : tier === "correction"
        ? tunables.llm_correction_timeout_seconds
        : tunables.llm_emotion_timeout_seconds
  return {
    named,
    served: (tier) => {
      const target = served.get(tier)
      return target !== undefined && target.worker.died() === undefined
    },
    complete: (request) =>
      Effect.gen(function* () {
        const target = served.get(request.tier)
        if (target === undefined) {
          return yield* new LlmError({
            task: request.task,
            reason: "not_configured",
            message: `tier ${request.tier} has no loaded model`
          })
        }
        const perTry = Duration.millis(Math.min(request.timeoutMs, timeoutOf(request.tier) * 1000))
        const started = yield* Effect.clockWith((c) => c.currentTimeMillis)
        const result = yield* once(target, request, tunables.llm_output_guard_max_tokens).pipe(
          withTries(request, perTry, hardCap)
        )
        yield* Effect.logInfo("llm call").pipe(
          Effect.annotateLogs({
            tier: request.tier,
            task: request.task,
            provider: "gguf",
            ms: (yield* Effect.clockWith((c) => c.currentTimeMillis)) - started,
            prompt_tokens: result.promptTokens,
            completion_tokens: result.completionTokens,
            grammar: result.grammar === "schema"
          })
        )
        return result.text
      }).pipe(
        Effect.tapError((e) =>
          Effect.logWarning("llm call failed").pipe(
            Effect.annotateLogs({ tier: request.tier, task: request.task, provider: "gguf", reason: e.reason })
          )
        )
      )
  }
})
