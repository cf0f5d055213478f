/**
 * The memory tasks behind one interface. For each call, a tier with a configured model answers through its
 * prompt template and the chat port (the answer decoded with the task's Schema); a tier without one is
 * answered by the deterministic `local` provider. Callers never know which.
 */
import { Context, Effect, Either, Layer, Schema } from "effect"
import type { Language } from "../domain/Locale.js"
import { decodeAnswer } from "./JsonAnswer.js"
import { LlmClient, LlmError, type Tier } from "./LlmClient.js"
import { localTasks } from "./local/LocalTasks.js"
import * as P from "./prompts/recent.js"
import {
  FactDedup,
  NegativeTargets,
  PersonaCorrections,
  PromotionMerge,
  Reflection as ReflectionAnswer,
  ReflectionFeedback,
  Signals
} from "./prompts/contracts.js"
import { negativeTarget, reflection, reflectionFeedback, signalDetection } from "./prompts/reflection.js"
import { personaCorrection, promotionMerge } from "./prompts/persona.js"
import { localSignals } from "./local/LocalSignals.js"
import { localNegativeTargets } from "./local/LocalNegative.js"
import { localPromotion } from "./local/LocalPromotion.js"
import { localCorrections } from "./local/LocalCorrection.js"
import type { Observation } from "./local/LocalOverlap.js"
import { localFeedback } from "./local/LocalFeedback.js"
import { synthesise } from "./local/LocalReflection.js"
import type { Drafted } from "../memory/reflection/Synthesis.js"
import { factDedup } from "./prompts/facts.js"
import { localArbitration } from "./local/LocalDedup.js"
import { Tokenizer } from "./Tokenizer.js"
import { makeFactTasks, type ExtractInput } from "./FactTasks.js"
import type { Extracted } from "./local/LocalFacts.js"

export interface Names {
  readonly master: string
  readonly character: string
}

export interface SummaryInput {
  /** The conversation as "speaker | text" lines. */
  readonly text: string
  readonly detailed: boolean
  readonly language: Language
  readonly staleHint: boolean
  readonly names: Names
}

export interface ReviewMessage {
  readonly role: "system" | "user" | "assistant"
  readonly content: string
}

export interface ReviewInput {
  readonly items: ReadonlyArray<ReviewMessage>
  readonly language: Language
  readonly names: Names
}

export interface ReviewOutput {
  readonly explanation: string
  readonly corrected: ReadonlyArray<{ readonly role: string; readonly content: string }>
}

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

export type SignalsAnswer = typeof Signals.Type
export type NegativeAnswer = typeof NegativeTargets.Type
export type PromotionAnswer = typeof PromotionMerge.Type
export type CorrectionAnswer = typeof PersonaCorrections.Type
export type { Observation }

export interface PersonaTasks {
  /** Stage 2: which observations the new facts support or contradict (SIGNAL_DETECTION). */
  readonly detectSignals: (input: {
    readonly facts: ReadonlyArray<{ readonly id: string; readonly text: string; readonly entity: string }>
    readonly observations: ReadonlyArray<Observation>
    readonly names: Names
  }) => Effect.Effect<SignalsAnswer, LlmError>
  /** Which observations a "stop mentioning" request is about (NEGATIVE_TARGET_CHECK). */
  readonly negativeTargets: (input: {
    readonly messages: ReadonlyArray<string>
    readonly observations: ReadonlyArray<Observation>
    readonly names: Names
  }) => Effect.Effect<NegativeAnswer, LlmError>
  /** promote_fresh / merge_into / reject for a reflection due for promotion (PROMOTION_MERGE). */
  readonly promotionMerge: (input: {
    readonly reflection: string
    readonly entries: ReadonlyArray<{
      readonly id: string
      readonly text: string
      readonly protected: boolean
      readonly score: number
    }>
    readonly names: Names
  }) => Effect.Effect<PromotionAnswer, LlmError>
  /** Resolves queued old/new persona pairs (PERSONA_CORRECTION). */
  readonly resolveCorrections: (input: {
    readonly pairs: ReadonlyArray<{ readonly old: string; readonly new: string }>
    readonly names: Names
  }) => Effect.Effect<CorrectionAnswer, LlmError>
}

export class MemoryTasks extends Context.Tag("app/llm/MemoryTasks")<MemoryTasks, Tasks>() {
  static readonly layer = Layer.effect(
    MemoryTasks,
    Effect.gen(function* () {
      const client = yield* LlmClient
      const tokens = yield* Tokenizer
      const local = localTasks(tokens, 900)
      const facts = yield* makeFactTasks
      const ask = <A, I>(
        tier: Tier,
        task: string,
        prompt: string,
        schema: Schema.Schema<A, I>,
        timeoutMs: number,
        max?: number
      ) =>
        client
          .complete({
            tier,
            task,
            messages: [{ role: "user", content: prompt }],
            timeoutMs,
            ...(max !== undefined ? { maxCompletionTokens: max } : {})
          })
          .pipe(
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
          const lang = P.promptLanguage(input.language)
          const template = (input.detailed ? P.detailedSummaryPrompt : P.summaryPrompt)[lang]
          const prompt =
            (input.staleHint ? P.staleHint[lang] : "") +
            P.fillPrompt(P.fillPrompt(template, { CONVERSATION: input.text, LANLAN_NAME: input.names.character }), {
              MASTER_NAME: input.names.master
            })
          return ask("summary", "recent.summary", prompt, SummaryAnswer, 30_000).pipe(
            Effect.map((a) => summaryText(a.summary))
          )
        },
        furtherSummarize: (input) => {
          if (!client.configured("summary")) return local.furtherSummarize(input)
          const prompt = P.fillPrompt(P.furtherSummaryPrompt[P.promptLanguage(input.language)], {
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
          const prompt = P.fillPrompt(
            P.fillPrompt(reflectionFeedback.en, {
              REFLECTIONS: input.reflections.map((r) => `- [${r.id}] ${r.text}`).join("\n"),
              MESSAGES: input.messages.map((m) => `- ${m}`).join("\n"),
              LANLAN_NAME: input.names.character
            }),
            { MASTER_NAME: input.names.master }
          )
          return ask("summary", "reflection.feedback", prompt, ReflectionFeedback, 60_000)
        },
        synthesizeReflection: (input) => {
          if (!client.configured("summary")) {
            return Effect.succeed({ ...synthesise(input.facts, input.names), event_when: null })
          }
          const prompt = P.fillPrompt(
            P.fillPrompt(reflection.en, {
              FACTS: input.facts.map((f) => `- ${f.text} (importance: ${f.importance})`).join("\n"),
              CONTEXT:
                input.context && input.context.length > 0
                  ? `\nWhat ${input.names.character} already believes (context only; do not repeat it):\n${input.context.map((c) => `- ${c}`).join("\n")}\n`
                  : "",
              CONTEXT_NOTE: input.context && input.context.length > 0 ? " (with related earlier impressions)" : "",
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
        },
        arbitrateFacts: (pairs) => {
          if (!client.configured("summary")) return Effect.succeed(localArbitration(pairs))
          const listing = pairs
            .map((p, i) => `[${i}] candidate: ${p.candidate}\n    existing: ${p.existing}`)
            .join("\n")
          const prompt = P.fillPrompt(factDedup.en, { PAIRS: listing })
          return ask("summary", "facts.dedup", prompt, FactDedup, 60_000)
        },
        ...personaTasks(client, ask),
        reviewHistory: (input) => {
          if (!client.configured("correction")) return local.reviewHistory(input)
          const blocks = input.items.map((m) => `${m.role}: ${m.content}`).join("\n\n")
          const prompt = P.fillPrompt(
            P.fillPrompt(P.historyReviewPrompt[P.promptLanguage(input.language)], {
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

const fill2 = (template: string, values: Readonly<Record<string, string>>, names: Names) =>
  P.fillPrompt(P.fillPrompt(template, { ...values, LANLAN_NAME: names.character }), { MASTER_NAME: names.master })
const nameList = (n: Names) => [n.character, n.master]
const observationLines = (obs: ReadonlyArray<Observation>) =>
  obs.map((o) => `- [${o.type}:${o.id}] (${o.entity}) ${o.text}`).join("\n")

type Ask = <A, I>(
  tier: Tier,
  task: string,
  prompt: string,
  schema: Schema.Schema<A, I>,
  timeoutMs: number
) => Effect.Effect<A, LlmError>

/** The persona tasks: the model of their tier when one is configured, else the `local` provider. */
const personaTasks = (client: typeof LlmClient.Service, ask: Ask): PersonaTasks => ({
  detectSignals: (input) =>
    client.configured("summary")
      ? ask(
          "summary",
          "evidence.signals",
          fill2(
            signalDetection.en,
            {
              FACTS: input.facts.map((f) => `- [${f.id}] (${f.entity}) ${f.text}`).join("\n"),
              OBSERVATIONS: observationLines(input.observations)
            },
            input.names
          ),
          Signals,
          90_000
        )
      : Effect.succeed(localSignals({ ...input, names: nameList(input.names) })),
  negativeTargets: (input) =>
    client.configured("emotion")
      ? ask(
          "emotion",
          "evidence.negative_target",
          fill2(
            negativeTarget.en,
            {
              MESSAGES: input.messages.map((m) => `- ${m}`).join("\n"),
              OBSERVATIONS: observationLines(input.observations)
            },
            input.names
          ),
          NegativeTargets,
          60_000
        )
      : Effect.succeed(localNegativeTargets({ ...input, names: nameList(input.names) })),
  promotionMerge: (input) =>
    client.configured("correction")
      ? ask(
          "correction",
          "reflection.promotion_merge",
          fill2(
            promotionMerge.en,
            {
              REFLECTION: input.reflection,
              ENTRIES: input.entries
                .map((e) => `- [${e.id}] ${e.text} (score ${Number.isFinite(e.score) ? e.score.toFixed(2) : "card"})`)
                .join("\n")
            },
            input.names
          ),
          PromotionMerge,
          90_000
        )
      : Effect.succeed(localPromotion({ ...input, names: nameList(input.names) })),
  resolveCorrections: (input) =>
    client.configured("correction")
      ? ask(
          "correction",
          "persona.corrections",
          fill2(
            personaCorrection.en,
            { PAIRS: input.pairs.map((p, i) => `[${i}] old: ${p.old}\n    new: ${p.new}`).join("\n") },
            input.names
          ),
          PersonaCorrections,
          110_000
        )
      : Effect.succeed(localCorrections(input.pairs, nameList(input.names)))
})
