/**
 * Recent memory's model-backed tasks: the memo of a compression and its further shortening (`summary` tier),
 * and the history review (`correction` tier), each through its prompt template when the tier has a model,
 * else by the deterministic `local` provider (local/LocalTasks.ts). Callers never know which.
 */
import { Context, Effect, Layer, Schema } from "effect"
import type { Language } from "../domain/Locale.js"
import type { LlmError } from "../llm/LlmClient.js"
import { fillPrompt, promptLanguage } from "../llm/prompts/templates.js"
import { TaskKit } from "../llm/TaskKit.js"
import type { ReviewInput, ReviewOutput, SummaryInput } from "../llm/TaskTypes.js"
import { localTasks } from "./local/LocalTasks.js"
import * as P from "./prompts.js"

const summaryText = (s: unknown) => (typeof s === "string" ? s : JSON.stringify(s))
const SummaryAnswer = Schema.Struct({ summary: Schema.Unknown })
const ReviewAnswer = Schema.Struct({
  explanation: Schema.optionalWith(Schema.String, { default: () => "" }),
  corrected_dialogue: Schema.Array(Schema.Struct({ role: Schema.String, content: Schema.String }))
})

export class RecentTasks extends Context.Tag("app/recent/RecentTasks")<
  RecentTasks,
  {
    readonly summarize: (input: SummaryInput) => Effect.Effect<string, LlmError>
    readonly furtherSummarize: (input: {
      readonly summary: string
      readonly language: Language
      readonly limit: number
    }) => Effect.Effect<string, LlmError>
    readonly reviewHistory: (input: ReviewInput) => Effect.Effect<ReviewOutput, LlmError>
  }
>() {
  static readonly layer = Layer.effect(
    RecentTasks,
    Effect.gen(function* () {
      const { client, ask, tokens, english } = yield* TaskKit
      const local = localTasks(tokens, 900, english)
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
