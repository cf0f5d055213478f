/**
 * Facts' model-backed tasks. Stage-1 extraction: the tier of `evidence_extract_facts_model_tier` answers
 * through the FACT_EXTRACTION template (60 s), decoded with its contract, when it has a model; otherwise the
 * `local` provider's extraction engine runs, with wink-nlp (loaded on first use, shared) for English. Dedup
 * arbitration: the `summary` tier's model, else the `local` provider's overlap rule.
 */
import { Context, Effect, Either, Layer } from "effect"
import type { Language } from "../domain/Locale.js"
import { answerJsonSchema, decodeAnswer } from "../llm/JsonAnswer.js"
import { LlmError } from "../llm/LlmClient.js"
import { outside } from "../llm/Section.js"
import { TaskKit } from "../llm/TaskKit.js"
import { extractFacts, type Extracted, type Utterance } from "./local/LocalFacts.js"
import { localArbitration } from "./local/LocalDedup.js"
import { ExtractedFacts, ExtractedFactsAiAware, FactDedup } from "../llm/prompts/contracts.js"
import { factDedup, factExtraction, factExtractionAiAware } from "./prompts.js"
import { fillPrompt } from "../llm/prompts/templates.js"
import { withFields } from "../domain/Shapes.js"

export interface ExtractInput {
  readonly utterances: ReadonlyArray<Utterance>
  readonly language: Language
  readonly names: { readonly master: string; readonly character: string }
  /** Path B (AI-aware): the facts already known; answers then say which side each fact came from. */
  readonly known?: ReadonlyArray<string>
}

const make = Effect.gen(function* () {
  const { client, ask, template: text, tiers, english } = yield* TaskKit
  const tier = tiers.extractFacts
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
      const jsonSchema = aiAware ? answerJsonSchema(ExtractedFactsAiAware) : answerJsonSchema(ExtractedFacts)
      const answer = yield* outside(
        task,
        client.complete({
          tier,
          task,
          messages: [{ role: "user", content: prompt }],
          timeoutMs: 60_000,
          ...(jsonSchema !== undefined ? { jsonSchema } : {})
        }),
        false
      )
      const decoded = decodeAnswer(ExtractedFactsAiAware)(answer)
      const plain = decodeAnswer(ExtractedFacts)(answer)
      if (aiAware && Either.isRight(decoded)) {
        return decoded.right.map((f): Extracted => withFields(f, { event_when: f.event_when ?? null }))
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
  /** Decides each near-duplicate pair: merge (keep existing), replace (keep candidate) or keep_both. */
  const arbitrateFacts = (
    pairs: ReadonlyArray<{ readonly candidate: string; readonly existing: string }>
  ): Effect.Effect<
    ReadonlyArray<{ readonly index: number; readonly action: "merge" | "replace" | "keep_both" }>,
    LlmError
  > => {
    if (!client.configured("summary")) return Effect.succeed(localArbitration(pairs))
    const listing = pairs.map((p, i) => `[${i}] candidate: ${p.candidate}\n    existing: ${p.existing}`).join("\n")
    return ask("summary", "facts.dedup", fillPrompt(factDedup.en, { PAIRS: listing }), FactDedup, 60_000)
  }
  return {
    extractFacts: extract,
    /** True when extraction runs on the `local` provider (cheap per message) rather than a model. */
    extractsLocally: () => !client.configured(tier),
    arbitrateFacts
  }
})

export class FactTasks extends Context.Tag("app/facts/FactTasks")<FactTasks, Effect.Effect.Success<typeof make>>() {
  static readonly layer = Layer.effect(FactTasks, make)
}
