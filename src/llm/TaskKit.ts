/**
 * What every feature's model-backed tasks are built from, made once per process: the chat port, `ask` (one
 * prompt through the port in the task's tier, the answer decoded with the task's Schema, the call made outside
 * the character's section), task templates in the call's prompt language, the evidence tasks' tiers, and
 * wink-nlp for the `local` provider (loaded on first use and shared). No feature is known here.
 */
import { Context, Effect, Either, Layer, Schema } from "effect"
import type { Language } from "../domain/Locale.js"
import { ChineseScript } from "../domain/ChineseScript.js"
import { loadEnglish, type EnglishNlp } from "../domain/EnglishNlp.js"
import { ConfigInvalid, KiokuConfig } from "../Config.js"
import type { Tunables } from "../Tunables.js"
import { answerJsonSchema, decodeAnswer } from "./JsonAnswer.js"
import { LlmClient, LlmError, Tier } from "./LlmClient.js"
import { templateText, type TemplateSet } from "./prompts/templates.js"
import { outside } from "./Section.js"
import { Tokenizer } from "./Tokenizer.js"

export type Ask = <A, I>(
  tier: Tier,
  task: string,
  prompt: string,
  schema: Schema.Schema<A, I>,
  timeoutMs: number,
  maxCompletionTokens?: number
) => Effect.Effect<A, LlmError>

/** A task's template in the call's prompt language (Traditional Chinese derived from the Simplified text). */
export type Template = (set: TemplateSet, language: Language) => Effect.Effect<string>

export interface EvidenceTiers {
  readonly extractFacts: Tier
  readonly detectSignals: Tier
  readonly negativeTarget: Tier
  readonly promotionMerge: Tier
}

/** The tiers of the evidence tasks (`evidence_*_model_tier`); a value that is not a tier is a config error. */
export const tiersFrom = (t: Tunables) =>
  Effect.gen(function* () {
    const tier = (name: string, value: string) =>
      Schema.decodeUnknown(Tier)(value).pipe(
        Effect.mapError(
          () => new ConfigInvalid({ message: `tunable ${name} must be summary, correction or emotion, got ${value}` })
        )
      )
    const tiers: EvidenceTiers = {
      extractFacts: yield* tier("evidence_extract_facts_model_tier", t.evidence_extract_facts_model_tier),
      detectSignals: yield* tier("evidence_detect_signals_model_tier", t.evidence_detect_signals_model_tier),
      negativeTarget: yield* tier("evidence_negative_target_model_tier", t.evidence_negative_target_model_tier),
      promotionMerge: yield* tier("evidence_promotion_merge_model_tier", t.evidence_promotion_merge_model_tier)
    }
    return tiers
  })

/** Tasks whose answers rest on reflections or persona entries (see Section.ts); facts and recent are not. */
const watchesRecords = (task: string) => !task.startsWith("facts.") && !task.startsWith("recent.")

export class TaskKit extends Context.Tag("app/llm/TaskKit")<
  TaskKit,
  {
    readonly client: typeof LlmClient.Service
    readonly ask: Ask
    readonly template: Template
    readonly tiers: EvidenceTiers
    readonly english: Effect.Effect<EnglishNlp>
    readonly tokens: typeof Tokenizer.Service
  }
>() {
  static readonly layer = Layer.effect(
    TaskKit,
    Effect.gen(function* () {
      const client = yield* LlmClient
      const tokens = yield* Tokenizer
      const tiers = yield* tiersFrom((yield* KiokuConfig).tunables)
      const english = yield* Effect.cached(loadEnglish)
      const template = templateText(yield* ChineseScript)
      const ask: Ask = (tier, task, prompt, schema, timeoutMs, max) => {
        const jsonSchema = answerJsonSchema(schema)
        return outside(
          task,
          client.complete({
            tier,
            task,
            messages: [{ role: "user", content: prompt }],
            timeoutMs,
            ...(max !== undefined ? { maxCompletionTokens: max } : {}),
            ...(jsonSchema !== undefined ? { jsonSchema } : {})
          }),
          watchesRecords(task)
        ).pipe(
          Effect.flatMap((answer) =>
            Either.match(decodeAnswer(schema)(answer), {
              onLeft: (message) => Effect.fail(new LlmError({ task, reason: "bad_answer", message })),
              onRight: Effect.succeed
            })
          )
        )
      }
      return { client, ask, template, tiers, english, tokens }
    })
  )
}
