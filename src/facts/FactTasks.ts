/**
 * Stage-1 fact extraction behind the memory-task interface: a configured `summary` tier answers through
 * the FACT_EXTRACTION template (60 s), decoded with its contract; otherwise the `local` provider's
 * extraction engine runs, with wink-nlp (loaded on first use, shared with the local memo) for English.
 */
import { Effect, Either } from "effect"
import type { Language } from "../domain/Locale.js"
import { ChineseScript } from "../domain/ChineseScript.js"
import { decodeAnswer } from "../llm/JsonAnswer.js"
import { LlmClient, LlmError, type Tier } from "../llm/LlmClient.js"
import { outside } from "../llm/Section.js"
import type { EnglishNlp } from "../domain/EnglishNlp.js"
import { extractFacts, type Extracted, type Utterance } from "./local/LocalFacts.js"
import { ExtractedFacts, ExtractedFactsAiAware } from "../llm/prompts/contracts.js"
import { factExtraction, factExtractionAiAware } from "./prompts.js"
import { fillPrompt } from "../llm/prompts/templates.js"
import { templateText } from "../llm/prompts/templates.js"

export interface ExtractInput {
  readonly utterances: ReadonlyArray<Utterance>
  readonly language: Language
  readonly names: { readonly master: string; readonly character: string }
  /** Path B (AI-aware): the facts already known; answers then say which side each fact came from. */
  readonly known?: ReadonlyArray<string>
}

/** The fact tasks; `tier` answers them when it has a model, else the `local` provider does. */
export const makeFactTasks = (tier: Tier, english: Effect.Effect<EnglishNlp>) =>
  Effect.gen(function* () {
    const client = yield* LlmClient
    const script = yield* ChineseScript

    const text = templateText(script)
    const template = (lang: Language, aiAware: boolean) => text(aiAware ? factExtractionAiAware : factExtraction, lang)

    const extract = (input: ExtractInput): Effect.Effect<ReadonlyArray<Extracted>, LlmError> => {
      if (!client.configured(tier)) {
        return Effect.map(english, (nlp) => extractFacts(input.utterances, input.names, nlp))
      }
      return Effect.gen(function* () {
        const conversation = input.utterances
          .map((u) => `${u.speaker === "human" ? input.names.master : input.names.character} | ${u.text}`)
          .join("\n")
        const aiAware = input.known !== undefined
        const task = aiAware ? "facts.extract_ai_aware" : "facts.extract"
        const prompt = fillPrompt(
          fillPrompt(yield* template(input.language, aiAware), {
            CONVERSATION: conversation,
            LANLAN_NAME: input.names.character,
            KNOWN_FACTS: (input.known ?? []).map((k) => `- ${k}`).join("\n")
          }),
          { MASTER_NAME: input.names.master }
        )
        const answer = yield* outside(
          task,
          client.complete({ tier, task, messages: [{ role: "user", content: prompt }], timeoutMs: 60_000 }),
          false
        )
        const decoded = decodeAnswer(ExtractedFactsAiAware)(answer)
        const plain = decodeAnswer(ExtractedFacts)(answer)
        if (aiAware && Either.isRight(decoded)) {
          return decoded.right.map((f): Extracted => ({ ...f, event_when: f.event_when ?? null }))
        }
        if (Either.isLeft(plain)) {
          return yield* new LlmError({ task, reason: "bad_answer", message: plain.left })
        }
        return plain.right.map(
          (f): Extracted => ({
            text: f.text,
            importance: f.importance,
            entity: f.entity,
            event_when: f.event_when ?? null,
            source: aiAware ? "ai_disclosure" : "user_observation"
          })
        )
      })
    }
    return { extract, local: () => !client.configured(tier) }
  })
