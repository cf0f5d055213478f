/**
 * Reflections' model-backed tasks on the `summary` tier: which facts one synthesis draws from, the synthesis
 * itself (REFLECTION, with related observations as context), and the reading of the user's reaction to
 * surfaced reflections (REFLECTION_FEEDBACK). Without a model the `local` provider answers each.
 */
import { Context, Effect, Layer } from "effect"
import type { Language } from "../domain/Locale.js"
import type { LlmError } from "../llm/LlmClient.js"
import { Reflection as ReflectionAnswer, ReflectionFeedback } from "../llm/prompts/contracts.js"
import { fillPrompt, promptLanguage } from "../llm/prompts/templates.js"
import { TaskKit } from "../llm/TaskKit.js"
import type { Names } from "../llm/TaskTypes.js"
import { localFeedback } from "./local/LocalFeedback.js"
import { relatedFacts, synthesise } from "./local/LocalReflection.js"
import { reflection, reflectionContext, reflectionFeedback } from "./prompts.js"
import type { Drafted } from "./Synthesis.js"

/** Narrows a pool of facts (oldest first) to those one reflection is drawn from. */
export type Focus = <F extends { readonly text: string; readonly importance: number; readonly entity: string }>(
  pool: ReadonlyArray<F>
) => ReadonlyArray<F>

export class ReflectionTasks extends Context.Tag("app/reflection/ReflectionTasks")<
  ReflectionTasks,
  {
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
  }
>() {
  static readonly layer = Layer.effect(
    ReflectionTasks,
    Effect.gen(function* () {
      const { client, ask, template } = yield* TaskKit
      return {
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
        }
      }
    })
  )
}
