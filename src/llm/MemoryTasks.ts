/**
 * The memory tasks behind one interface. For each call, a tier with a configured model answers through its
 * prompt template and the chat port (the answer decoded with the task's Schema); a tier without one is
 * answered by the deterministic `local` provider. Callers never know which.
 */
import { Context, Effect, Either, Layer, Schema } from "effect"
import type { Language } from "../domain/Locale.js"
import { decodeAnswer } from "./JsonAnswer.js"
import { LlmClient, LlmError, Tier } from "./LlmClient.js"
import { ConfigInvalid, KiokuConfig } from "../Config.js"
import type { Tunables } from "../Tunables.js"
import { localTasks } from "../recent/local/LocalTasks.js"
import * as P from "../recent/prompts.js"
import { fillPrompt, promptLanguage } from "./prompts/templates.js"
import { FactDedup, Reflection as ReflectionAnswer, ReflectionFeedback } from "./prompts/contracts.js"
import { reflection, reflectionContext, reflectionFeedback } from "../reflection/prompts.js"
import { personaTasks, type PersonaTasks } from "../persona/PersonaTasks.js"
import { localFeedback } from "../reflection/local/LocalFeedback.js"
import { relatedFacts, synthesise } from "../reflection/local/LocalReflection.js"
import type { Drafted } from "../reflection/Synthesis.js"
import { factDedup } from "../facts/prompts.js"
import { localArbitration } from "../facts/local/LocalDedup.js"
import { Tokenizer } from "./Tokenizer.js"
import { ChineseScript } from "../domain/ChineseScript.js"
import { templateText } from "./prompts/templates.js"
import { outside } from "./Section.js"
import { makeFactTasks, type ExtractInput } from "../facts/FactTasks.js"
import type { Names, ReviewInput, ReviewOutput, SummaryInput } from "./TaskTypes.js"
import { loadEnglish } from "../domain/EnglishNlp.js"
import type { Extracted } from "../facts/local/LocalFacts.js"

export type { Observation, PersonaTasks } from "../persona/PersonaTasks.js"
export type { CorrectionAnswer, NegativeAnswer, PromotionAnswer, SignalsAnswer } from "../persona/PersonaTasks.js"

export type { Names, ReviewInput, ReviewMessage, ReviewOutput, SummaryInput } from "./TaskTypes.js"

/** Narrows a pool of facts (oldest first) to those one reflection is drawn from. */
export type Focus = <F extends { readonly text: string; readonly importance: number; readonly entity: string }>(
  pool: ReadonlyArray<F>
) => ReadonlyArray<F>

export interface Tasks extends PersonaTasks {
  readonly summarize: (input: SummaryInput) => Effect.Effect<string, LlmError>
  readonly furtherSummarize: (input: {
    readonly summary: string
    readonly language: Language
    readonly limit: number
  }) => Effect.Effect<string, LlmError>
  readonly reviewHistory: (input: ReviewInput) => Effect.Effect<ReviewOutput, LlmError>
  readonly extractFacts: (input: ExtractInput) => Effect.Effect<ReadonlyArray<Extracted>, LlmError>
  /** True when fact extraction runs on the `local` provider (cheap per message) rather than a model. */
  readonly extractsLocally: () => boolean
  /**
   * The facts one synthesis may draw from, out of the eligible pool (oldest first): a model gets the whole
   * pool (undefined: neko-compat §4.4 then keeps the top 20); the `local` provider only its best group of
   * five or more related facts (none when there is no such group), so unrelated facts stay unabsorbed.
   */
  readonly reflectionFocus: (names: Names, language: Language) => Focus | undefined
  /** Draws one insight from a set of facts (REFLECTION task). */
  readonly synthesizeReflection: (input: {
    readonly facts: ReadonlyArray<{ readonly text: string; readonly importance: number; readonly entity: string }>
    readonly names: Names
    readonly language: Language
    /** Related existing observations (vectors), shown to the model as context; empty without vectors. */
    readonly context?: ReadonlyArray<string>
  }) => Effect.Effect<Drafted & { readonly event_when: unknown }, LlmError>
  /** Reads the user's reaction to surfaced reflections (REFLECTION_FEEDBACK task). */
  readonly reflectionFeedback: (input: {
    readonly reflections: ReadonlyArray<{ readonly id: string; readonly text: string }>
    readonly messages: ReadonlyArray<string>
    readonly names: Names
    readonly language: Language
  }) => Effect.Effect<
    ReadonlyArray<{ readonly reflection_id: string; readonly feedback: "confirmed" | "denied" | "ignored" }>,
    LlmError
  >
  /** Decides each near-duplicate pair: merge (keep existing), replace (keep candidate) or keep_both. */
  readonly arbitrateFacts: (
    pairs: ReadonlyArray<{ readonly candidate: string; readonly existing: string }>
  ) => Effect.Effect<
    ReadonlyArray<{ readonly index: number; readonly action: "merge" | "replace" | "keep_both" }>,
    LlmError
  >
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
    return {
      extractFacts: yield* tier("evidence_extract_facts_model_tier", t.evidence_extract_facts_model_tier),
      detectSignals: yield* tier("evidence_detect_signals_model_tier", t.evidence_detect_signals_model_tier),
      negativeTarget: yield* tier("evidence_negative_target_model_tier", t.evidence_negative_target_model_tier),
      promotionMerge: yield* tier("evidence_promotion_merge_model_tier", t.evidence_promotion_merge_model_tier)
    }
  })

/** Tasks whose answers rest on reflections or persona entries (see Section.ts); facts and recent are not. */
const watchesRecords = (task: string) => !task.startsWith("facts.") && !task.startsWith("recent.")

export class MemoryTasks extends Context.Tag("app/llm/MemoryTasks")<MemoryTasks, Tasks>() {
  static readonly layer = Layer.effect(
    MemoryTasks,
    Effect.gen(function* () {
      const client = yield* LlmClient
      const tokens = yield* Tokenizer
      const tiers = yield* tiersFrom((yield* KiokuConfig).tunables)
      const english = yield* Effect.cached(loadEnglish)
      const local = localTasks(tokens, 900, english)
      const facts = yield* makeFactTasks(tiers.extractFacts, english)
      const script = yield* ChineseScript
      const template = templateText(script)
      const ask = <A, I>(
        tier: Tier,
        task: string,
        prompt: string,
        schema: Schema.Schema<A, I>,
        timeoutMs: number,
        max?: number
      ) =>
        outside(
          task,
          client.complete({
            tier,
            task,
            messages: [{ role: "user", content: prompt }],
            timeoutMs,
            ...(max !== undefined ? { maxCompletionTokens: max } : {})
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
      const summaryText = (s: unknown) => (typeof s === "string" ? s : JSON.stringify(s))
      const SummaryAnswer = Schema.Struct({ summary: Schema.Unknown })
      const ReviewAnswer = Schema.Struct({
        explanation: Schema.optionalWith(Schema.String, { default: () => "" }),
        corrected_dialogue: Schema.Array(Schema.Struct({ role: Schema.String, content: Schema.String }))
      })
      return {
        summarize: (input) => {
          if (!client.configured("summary")) return local.summarize(input)
          const lang = promptLanguage(input.language)
          const template = (input.detailed ? P.detailedSummaryPrompt : P.summaryPrompt)[lang]
          const prompt =
            (input.staleHint ? P.staleHint[lang] : "") +
            fillPrompt(fillPrompt(template, { CONVERSATION: input.text, LANLAN_NAME: input.names.character }), {
              MASTER_NAME: input.names.master
            })
          return ask("summary", "recent.summary", prompt, SummaryAnswer, 30_000).pipe(
            Effect.map((a) => summaryText(a.summary))
          )
        },
        furtherSummarize: (input) => {
          if (!client.configured("summary")) return local.furtherSummarize(input)
          const prompt = fillPrompt(P.furtherSummaryPrompt[promptLanguage(input.language)], {
            CONVERSATION: input.summary,
            LIMIT: String(input.limit)
          })
          return ask("summary", "recent.further_summary", prompt, SummaryAnswer, 30_000, 1100).pipe(
            Effect.map((a) => summaryText(a.summary))
          )
        },
        extractFacts: facts.extract,
        extractsLocally: facts.local,
        reflectionFeedback: (input) => {
          if (!client.configured("summary")) return Effect.succeed(localFeedback(input.reflections, input.messages))
          return Effect.flatMap(template(reflectionFeedback, input.language), (text) => {
            const prompt = fillPrompt(
              fillPrompt(text, {
                REFLECTIONS: input.reflections.map((r) => `- [${r.id}] ${r.text}`).join("\n"),
                MESSAGES: input.messages.map((m) => `- ${m}`).join("\n"),
                LANLAN_NAME: input.names.character
              }),
              { MASTER_NAME: input.names.master }
            )
            return ask("summary", "reflection.feedback", prompt, ReflectionFeedback, 60_000)
          })
        },
        reflectionFocus: (names, language) =>
          client.configured("summary") ? undefined : (pool) => relatedFacts(pool, names, language),
        synthesizeReflection: (input) => {
          if (!client.configured("summary")) {
            return Effect.succeed({ ...synthesise(input.facts, input.names, input.language), event_when: null })
          }
          const context = input.context ?? []
          const related = context.length > 0
          const frame = reflectionContext[promptLanguage(input.language)]
          return Effect.flatMap(template(reflection, input.language), (text) => {
            const prompt = fillPrompt(
              fillPrompt(text, {
                FACTS: input.facts.map((f) => `- ${f.text} (importance: ${f.importance})`).join("\n"),
                CONTEXT: related
                  ? `\n${frame.header(input.names.character)}\n${context.map((c) => `- ${c}`).join("\n")}\n`
                  : "",
                CONTEXT_NOTE: related ? frame.note : "",
                LANLAN_NAME: input.names.character
              }),
              { MASTER_NAME: input.names.master }
            )
            return ask("summary", "reflection.synthesize", prompt, ReflectionAnswer, 110_000).pipe(
              Effect.map((a) => ({
                entity: a.entity,
                relation_type: a.relation_type ?? null,
                text: a.reflection,
                temporal_scope: a.temporal_scope ?? null,
                event_when: a.event_when ?? null
              }))
            )
          })
        },
        arbitrateFacts: (pairs) => {
          if (!client.configured("summary")) return Effect.succeed(localArbitration(pairs))
          const listing = pairs
            .map((p, i) => `[${i}] candidate: ${p.candidate}\n    existing: ${p.existing}`)
            .join("\n")
          const prompt = fillPrompt(factDedup.en, { PAIRS: listing })
          return ask("summary", "facts.dedup", prompt, FactDedup, 60_000)
        },
        ...personaTasks(client, ask, template, tiers),
        reviewHistory: (input) => {
          if (!client.configured("correction")) return local.reviewHistory(input)
          const blocks = input.items.map((m) => `${m.role}: ${m.content}`).join("\n\n")
          const prompt = fillPrompt(
            fillPrompt(P.historyReviewPrompt[promptLanguage(input.language)], {
              CONVERSATION: blocks,
              LANLAN_NAME: input.names.character
            }),
            { MASTER_NAME: input.names.master }
          )
          return ask("correction", "recent.review", prompt, ReviewAnswer, 110_000).pipe(
            Effect.map((a) => ({ explanation: a.explanation, corrected: a.corrected_dialogue }))
          )
        }
      }
    })
  )
}
