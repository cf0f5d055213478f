/**
 * OpenAI-compatible chat-completions adapter (OpenAI, DeepSeek, Qwen, Ollama, llama.cpp server, vLLM,
 * LM Studio). Per tier: base URL, API key, model, timeout. No temperature is sent; `max_completion_tokens`
 * is capped at the output guard; network errors, 429 and 5xx are retried with exponential backoff
 * (1 s, 2 s); the whole call is capped at the hard timeout.
 */
import { Duration, Effect, Layer, Schema } from "effect"
import { KiokuConfig } from "../Config.js"
import type { Tunables } from "../Tunables.js"
import { LlmClient, LlmError, withTries, type ChatRequest, type Tier } from "./LlmClient.js"

export interface TierSettings {
  readonly baseUrl: string
  readonly apiKey: string
  readonly model: string
  readonly timeoutSeconds: number
}

export const tierSettings = (t: Tunables, tier: Tier): TierSettings =>
  tier === "summary"
    ? {
        baseUrl: t.llm_summary_base_url,
        apiKey: t.llm_summary_api_key,
        model: t.llm_summary_model,
        timeoutSeconds: t.llm_summary_timeout_seconds
      }
    : tier === "correction"
      ? {
          baseUrl: t.llm_correction_base_url,
          apiKey: t.llm_correction_api_key,
          model: t.llm_correction_model,
          timeoutSeconds: t.llm_correction_timeout_seconds
        }
      : {
          baseUrl: t.llm_emotion_base_url,
          apiKey: t.llm_emotion_api_key,
          model: t.llm_emotion_model,
          timeoutSeconds: t.llm_emotion_timeout_seconds
        }

const Completion = Schema.Struct({
  choices: Schema.NonEmptyArray(
    Schema.Struct({
      message: Schema.Struct({ content: Schema.NullOr(Schema.String) }),
      finish_reason: Schema.optional(Schema.NullOr(Schema.String))
    })
  ),
  usage: Schema.optional(Schema.Struct({ prompt_tokens: Schema.Number, completion_tokens: Schema.Number }))
})
const decodeCompletion = Schema.decodeUnknownEither(Schema.parseJson(Completion))

const endpoint = (baseUrl: string) => `${baseUrl.replace(/\/+$/, "")}/chat/completions`

const once = (settings: TierSettings, request: ChatRequest, guard: number) =>
  Effect.tryPromise({
    try: (signal) =>
      fetch(endpoint(settings.baseUrl), {
        method: "POST",
        signal,
        headers: {
          "content-type": "application/json",
          ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {})
        },
        body: JSON.stringify({
          model: settings.model,
          messages: request.messages,
          max_completion_tokens: Math.min(request.maxCompletionTokens ?? guard, guard)
        })
      }).then(async (res) => ({ status: res.status, text: await res.text() })),
    catch: (e) =>
      new LlmError({ task: request.task, reason: "network", message: e instanceof Error ? e.message : String(e) })
  }).pipe(
    Effect.flatMap(({ status, text }) => {
      if (status === 429)
        return Effect.fail(new LlmError({ task: request.task, reason: "rate_limited", message: "HTTP 429", status }))
      if (status < 200 || status >= 300) {
        return Effect.fail(new LlmError({ task: request.task, reason: "http", message: `HTTP ${status}`, status }))
      }
      const body = decodeCompletion(text)
      if (body._tag === "Left") {
        return Effect.fail(new LlmError({ task: request.task, reason: "bad_answer", message: "not a chat completion" }))
      }
      const choice = body.right.choices[0]
      if (choice.finish_reason === "length") {
        return Effect.fail(
          new LlmError({ task: request.task, reason: "output_limit", message: "answer cut at the output limit" })
        )
      }
      return Effect.succeed({ content: choice.message.content ?? "", usage: body.right.usage })
    })
  )

/** The adapter itself, for the tier router (Providers.ts). */
export const makeOpenAi: Effect.Effect<typeof LlmClient.Service, never, KiokuConfig> = Effect.gen(function* () {
  const { tunables } = yield* KiokuConfig
  const hardCap = Duration.seconds(tunables.memory_llm_hard_timeout_seconds)
  return {
    configured: (tier) => {
      const s = tierSettings(tunables, tier)
      return s.baseUrl !== "" && s.model !== ""
    },
    complete: (request) =>
      Effect.gen(function* () {
        const settings = tierSettings(tunables, request.tier)
        if (settings.baseUrl === "" || settings.model === "") {
          return yield* new LlmError({
            task: request.task,
            reason: "not_configured",
            message: `tier ${request.tier} has no model`
          })
        }
        const perTry = Duration.millis(Math.min(request.timeoutMs, settings.timeoutSeconds * 1000))
        const started = yield* Effect.clockWith((c) => c.currentTimeMillis)
        const result = yield* once(settings, request, tunables.llm_output_guard_max_tokens).pipe(
          withTries(request, perTry, hardCap)
        )
        const latency = (yield* Effect.clockWith((c) => c.currentTimeMillis)) - started
        yield* Effect.logInfo("llm call").pipe(
          Effect.annotateLogs({
            tier: request.tier,
            task: request.task,
            ms: latency,
            prompt_tokens: result.usage?.prompt_tokens ?? -1,
            completion_tokens: result.usage?.completion_tokens ?? -1
          })
        )
        return result.content
      }).pipe(
        Effect.tapError((e) =>
          Effect.logWarning("llm call failed").pipe(
            Effect.annotateLogs({ tier: request.tier, task: request.task, reason: e.reason })
          )
        )
      )
  }
})

export const OpenAiLlm = Layer.effect(LlmClient, makeOpenAi)
