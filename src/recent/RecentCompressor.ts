/**
 * Recent-memory compression as one effect: render the snapshot, summarise it (map-reduce in chunks of at
 * most `recent_compress_input_budget_tokens`, up to depth 3, then hard-truncated), and shrink a summary above
 * `recent_summary_max_tokens` with the further-summary task, cut back to a sentence end. If the shrink fails
 * the round starts again, at most 3 rounds. Any failure fails the whole compression: history stays untouched.
 */
import { Context, Effect, Layer } from "effect"
import type { Language } from "../domain/Locale.js"
import type { StoredMessage } from "../domain/Message.js"
import { KiokuConfig } from "../Config.js"
import type { LlmError } from "../llm/LlmClient.js"
import { RecentTasks } from "./RecentTasks.js"
import { type Names } from "../llm/TaskTypes.js"
import { Tokenizer } from "../llm/Tokenizer.js"
import { chunkLines, cutToSentenceEnd, renderLines } from "./Compression.js"

export interface CompressionInput {
  readonly snapshot: ReadonlyArray<StoredMessage>
  readonly detailed: boolean
  readonly language: Language
  readonly staleHint: boolean
  readonly names: Names
}

export class RecentCompressor extends Context.Tag("app/memory/RecentCompressor")<
  RecentCompressor,
  { readonly summarize: (input: CompressionInput) => Effect.Effect<string, LlmError> }
>() {
  static readonly layer = Layer.effect(
    RecentCompressor,
    Effect.gen(function* () {
      const tasks = yield* RecentTasks
      const tokens = yield* Tokenizer
      const t = (yield* KiokuConfig).tunables
      const budget = t.recent_compress_input_budget_tokens

      const summarizeText = (input: CompressionInput, text: string, staleHint: boolean) =>
        tasks.summarize({ text, detailed: input.detailed, language: input.language, staleHint, names: input.names })

      const stage1 = (input: CompressionInput) =>
        Effect.gen(function* () {
          const lines = renderLines(input.snapshot, input.names, tokens, t.recent_per_message_max_tokens / 2)
          const whole = lines.join("\n")
          if (tokens.count(whole) <= budget) return yield* summarizeText(input, whole, input.staleHint)
          let partials = yield* Effect.forEach(chunkLines(lines, budget, tokens), (chunk) =>
            summarizeText(input, chunk.join("\n"), false)
          )
          for (let depth = 1; depth < 3 && tokens.count(partials.join("\n")) > budget; depth++) {
            partials = yield* Effect.forEach(chunkLines(partials, budget, tokens), (group) =>
              summarizeText(input, group.join("\n"), false)
            )
          }
          const joined = tokens.truncate(partials.join("\n"), budget)
          return partials.length === 1 ? joined : yield* summarizeText(input, joined, input.staleHint)
        })

      const round = (input: CompressionInput) =>
        Effect.gen(function* () {
          const summary = yield* stage1(input)
          if (tokens.count(summary) <= t.recent_summary_max_tokens) return summary
          const shorter = yield* tasks.furtherSummarize({ summary, language: input.language, limit: 700 })
          return cutToSentenceEnd(shorter)
        })

      return {
        summarize: (input) =>
          round(input).pipe(Effect.retry({ times: 2, while: (e) => e.task === "recent.further_summary" }))
      }
    })
  )
}
