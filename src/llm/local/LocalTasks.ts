/**
 * The `local` provider's recent-memory tasks: extractive summary and further summary, and a history review
 * that only removes exact repeats (a review that changes nothing is a valid answer).
 */
import { Effect } from "effect"
import type { ReviewInput, ReviewOutput, SummaryInput } from "../TaskTypes.js"
import type { TokenCounter } from "../Tokenizer.js"
import { summarise } from "./LocalSummary.js"

export const localTasks = (tokens: TokenCounter, summaryBudget: number) => ({
  summarize: (input: SummaryInput) => Effect.sync(() => summarise(input.text, summaryBudget, tokens.count)),
  furtherSummarize: (input: { readonly summary: string; readonly limit: number }) =>
    Effect.sync(() => summarise(input.summary, Math.floor(input.limit * 0.9), tokens.count)),
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
