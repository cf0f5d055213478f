/**
 * Stage-1 fact extraction behind the memory-task interface: a configured `summary` tier answers through
 * the FACT_EXTRACTION template (60 s), decoded with its contract; otherwise the `local` provider's pattern
 * extraction runs, with wink-nlp (loaded on first use) finding English sentence boundaries.
 */
import { Effect, Either } from "effect"
import type { Language } from "../domain/Locale.js"
import { ChineseScript } from "./ChineseScript.js"
import { decodeAnswer } from "./JsonAnswer.js"
import { LlmClient, LlmError } from "./LlmClient.js"
import { extractFacts, type Extracted, type Utterance } from "./local/LocalFacts.js"
import { ExtractedFacts } from "./prompts/contracts.js"
import { factExtraction } from "./prompts/facts.js"
import { fillPrompt } from "./prompts/recent.js"
import { pickTemplate } from "./prompts/templates.js"

export interface ExtractInput {
  readonly utterances: ReadonlyArray<Utterance>
  readonly language: Language
  readonly names: { readonly master: string; readonly character: string }
}

export const makeFactTasks = Effect.gen(function* () {
  const client = yield* LlmClient
  const script = yield* ChineseScript
  const sentences = yield* Effect.cached(
    Effect.tryPromise(async () => {
      const [{ default: winkNLP }, { default: model }] = await Promise.all([
        import("wink-nlp"),
        import("wink-eng-lite-web-model")
      ])
      const nlp = winkNLP(model)
      return (text: string): ReadonlyArray<string> => nlp.readDoc(text).sentences().out()
    }).pipe(
      Effect.orElseSucceed(
        () =>
          (text: string): ReadonlyArray<string> =>
            text.split(/(?<=[.!?])\s+/)
      )
    )
  )

  const template = (lang: Language) => {
    const pick = pickTemplate(factExtraction, lang)
    return pick._tag === "Text" ? Effect.succeed(pick.text) : script.toTraditional(pick.text)
  }

  const extract = (input: ExtractInput): Effect.Effect<ReadonlyArray<Extracted>, LlmError> => {
    if (!client.configured("summary")) {
      return Effect.map(sentences, (split) => extractFacts(input.utterances, input.names, split))
    }
    return Effect.gen(function* () {
      const conversation = input.utterances
        .map((u) => `${u.speaker === "human" ? input.names.master : input.names.character} | ${u.text}`)
        .join("\n")
      const prompt = fillPrompt(
        fillPrompt(yield* template(input.language), { CONVERSATION: conversation, LANLAN_NAME: input.names.character }),
        { MASTER_NAME: input.names.master }
      )
      const answer = yield* client.complete({
        tier: "summary",
        task: "facts.extract",
        messages: [{ role: "user", content: prompt }],
        timeoutMs: 60_000
      })
      const decoded = decodeAnswer(ExtractedFacts)(answer)
      if (Either.isLeft(decoded)) {
        return yield* new LlmError({ task: "facts.extract", reason: "bad_answer", message: decoded.left })
      }
      return decoded.right.map(
        (f): Extracted => ({
          text: f.text,
          importance: f.importance,
          entity: f.entity,
          event_when: f.event_when ?? null,
          source: "user_observation"
        })
      )
    })
  }
  return { extract }
})
