/**
 * The chat-completions port. Every memory task calls one tier (`summary`, `correction`, `emotion`) with a
 * task name and a timeout; adapters return the answer text or a typed `LlmError`. Adapters never send a
 * temperature and never log prompt or answer text at INFO. A JSON task also passes its output's JSON Schema,
 * which an in-process model turns into a grammar; the HTTP adapter ignores it.
 */
import { Context, Duration, Effect, Schema, type JSONSchema } from "effect"
import { llmRetry } from "../maintenance/policies.js"

export const Tier = Schema.Literal("summary", "correction", "emotion")
export type Tier = typeof Tier.Type

export interface ChatMessage {
  readonly role: "system" | "user" | "assistant"
  readonly content: string
}

export interface ChatRequest {
  readonly tier: Tier
  readonly task: string
  readonly messages: ReadonlyArray<ChatMessage>
  readonly timeoutMs: number
  readonly maxCompletionTokens?: number
  /** The JSON Schema of the answer (effect's `JSONSchema.make` of the task's Schema), when the task wants JSON. */
  readonly jsonSchema?: JSONSchema.JsonSchema7Root
}

export class LlmError extends Schema.TaggedError<LlmError>()("LlmError", {
  task: Schema.String,
  reason: Schema.Literal(
    "not_configured",
    "network",
    "timeout",
    "rate_limited",
    "http",
    "bad_answer",
    "output_limit",
    "superseded",
    "engine",
    "prompt_too_long"
  ),
  message: Schema.String,
  status: Schema.optional(Schema.Number)
}) {
  get retryable(): boolean {
    return (
      this.reason === "network" ||
      this.reason === "rate_limited" ||
      this.reason === "engine" ||
      (this.reason === "http" && (this.status ?? 0) >= 500)
    )
  }
}

export class LlmClient extends Context.Tag("app/llm/LlmClient")<
  LlmClient,
  {
    /** True when this tier has a model behind it; false means the `local` provider handles its tasks. */
    readonly configured: (tier: Tier) => boolean
    readonly complete: (request: ChatRequest) => Effect.Effect<string, LlmError>
  }
>() {}

/**
 * The try policy every adapter applies to one call: `perTry` for each try, the retries of `llmRetry` on
 * retryable errors, and `hardCap` over all of them; timeouts are `LlmError`s of reason `timeout`.
 */
export const withTries =
  (request: ChatRequest, perTry: Duration.Duration, hardCap: Duration.Duration) =>
  <A, R>(call: Effect.Effect<A, LlmError, R>): Effect.Effect<A, LlmError, R> =>
    call.pipe(
      Effect.timeoutFail({
        duration: perTry,
        onTimeout: () =>
          new LlmError({
            task: request.task,
            reason: "timeout",
            message: `no answer within ${Duration.format(perTry)}`
          })
      }),
      Effect.retry({ schedule: llmRetry, while: (e) => e.retryable }),
      Effect.timeoutFail({
        duration: hardCap,
        onTimeout: () => new LlmError({ task: request.task, reason: "timeout", message: "hard timeout" })
      })
    )
