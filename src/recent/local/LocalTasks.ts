/**
 * The `local` provider's recent-memory tasks: the memo and its further shortening (LocalSummary.ts, with
 * wink-nlp loaded on first use for English), and a history review that only removes exact repeats (a review
 * that changes nothing is a valid answer).
 */
import { Effect } from "effect"
import type { ReviewInput, ReviewOutput, SummaryInput } from "../../llm/TaskTypes.js"
import type { TokenCounter } from "../../llm/Tokenizer.js"
import type { EnglishNlp } from "../../domain/EnglishNlp.js"
import { summarise } from "./LocalSummary.js"

const noNames = { master: "", character: "" }

export const localTasks = (tokens: TokenCounter, summaryBudget: number, english: Effect.Effect<EnglishNlp>) => ({
  summarize: (input: SummaryInput) =>
    Effect.map(english, (nlp) =>
      summarise(input.text, summaryBudget, tokens.count, { names: input.names, english: nlp })
    ),
  furtherSummarize: (input: { readonly summary: string; readonly limit: number }) =>
    Effect.map(english, (nlp) =>
      summarise(input.summary, Math.floor(input.limit * 0.9), tokens.count, { names: noNames, english: nlp })
    ),
  reviewHistory: (input: ReviewInput) =>
    Effect.sync((): ReviewOutput => {
      const kept = input.items.filter(
        (m, i) => i === 0 || m.role !== input.items[i - 1]?.role || m.content !== input.items[i - 1]?.content
      )
      const removed = input.items.length - kept.length
      return removed === 0
        ? { explanation: "nothing", corrected: [] }
        : { explanation: `removed ${removed} repeated message(s)`, corrected: kept }
    })
})
