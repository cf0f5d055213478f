/**
 * The persona-side memory tasks (Stage-2 signal mapping, negative targets, promotion merge, persona
 * corrections): the model of the task's tier when one is configured, else the deterministic `local` provider.
 */
import { Context, Effect, Layer } from "effect"
import type { Names } from "../llm/TaskTypes.js"
import type { Language } from "../domain/Locale.js"
import type { LlmClient, LlmError } from "../llm/LlmClient.js"
import { TaskKit, type Ask, type EvidenceTiers, type Template } from "../llm/TaskKit.js"
import { fillPrompt } from "../llm/prompts/templates.js"
import {
  NegativeTargets,
  PersonaCorrections,
  PersonaFusion,
  PromotionMerge,
  Signals
} from "../llm/prompts/contracts.js"
import { negativeTarget, signalDetection } from "../reflection/prompts.js"
import { personaCorrection, personaFusion, promotionMerge } from "./prompts.js"
import { localSignals } from "../reflection/evidence/LocalSignals.js"
import { localNegativeTargets } from "../reflection/evidence/LocalNegative.js"
import { localPromotion } from "./local/LocalPromotion.js"
import { localCorrections } from "./local/LocalCorrection.js"
import { localFusion } from "./local/LocalFusion.js"
import type { Observation } from "./local/LocalOverlap.js"

export type { Observation }
export type SignalsAnswer = typeof Signals.Type
export type NegativeAnswer = typeof NegativeTargets.Type
export type PromotionAnswer = typeof PromotionMerge.Type
export type CorrectionAnswer = typeof PersonaCorrections.Type

/** A fusion's answer: with a model, the section's whole imported bucket rewritten; locally, the entries to append. */
export interface FusionAnswer {
  readonly fused: boolean
  readonly entries: ReadonlyArray<{ readonly text: string; readonly importance: number }>
}

export interface PersonaTaskApi {
  /** Stage 2: which observations the new facts support or contradict (SIGNAL_DETECTION). */
  readonly detectSignals: (input: {
    readonly facts: ReadonlyArray<{ readonly id: string; readonly text: string; readonly entity: string }>
    readonly observations: ReadonlyArray<Observation>
    readonly names: Names
    readonly language: Language
  }) => Effect.Effect<SignalsAnswer, LlmError>
  /** Which observations a "stop mentioning" request is about (NEGATIVE_TARGET_CHECK). */
  readonly negativeTargets: (input: {
    readonly messages: ReadonlyArray<string>
    readonly observations: ReadonlyArray<Observation>
    readonly names: Names
    readonly language: Language
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
    readonly language: Language
  }) => Effect.Effect<PromotionAnswer, LlmError>
  /** Resolves queued old/new persona pairs (PERSONA_CORRECTION). */
  readonly resolveCorrections: (input: {
    readonly pairs: ReadonlyArray<{ readonly old: string; readonly new: string }>
    readonly names: Names
    readonly language: Language
  }) => Effect.Effect<CorrectionAnswer, LlmError>
  /**
   * External-import persona material (PERSONA_FUSION, correction tier): the imported bucket and the candidates
   * fused within `budget` tokens; the `local` provider keeps the candidates that overlap neither an entry of the
   * section nor an earlier candidate.
   */
  readonly fuseExternal: (input: {
    readonly existing: ReadonlyArray<string>
    readonly bucket: ReadonlyArray<string>
    readonly candidates: ReadonlyArray<string>
    readonly who: string
    readonly budget: number
    readonly overlapRatio: number
    readonly names: Names
    readonly language: Language
  }) => Effect.Effect<FusionAnswer, LlmError>
}

const fill2 = (template: string, values: Readonly<Record<string, string>>, names: Names) =>
  fillPrompt(fillPrompt(template, { ...values, LANLAN_NAME: names.character }), { MASTER_NAME: names.master })
const nameList = (n: Names) => [n.character, n.master]
const observationLines = (obs: ReadonlyArray<Observation>) =>
  obs.map((o) => `- [${o.type}:${o.id}] (${o.entity}) ${o.text}`).join("\n")

/** The persona tasks: the model of their tier when one is configured, else the `local` provider. */
const personaTasks = (
  client: typeof LlmClient.Service,
  ask: Ask,
  template: Template,
  tiers: EvidenceTiers
): PersonaTaskApi => ({
  detectSignals: (input) =>
    client.configured(tiers.detectSignals)
      ? Effect.flatMap(template(signalDetection, input.language), (text) =>
          ask(
            tiers.detectSignals,
            "evidence.signals",
            fill2(
              text,
              {
                FACTS: input.facts.map((f) => `- [${f.id}] (${f.entity}) ${f.text}`).join("\n"),
                OBSERVATIONS: observationLines(input.observations)
              },
              input.names
            ),
            Signals,
            90_000
          )
        )
      : Effect.succeed(localSignals({ ...input, names: nameList(input.names) })),
  negativeTargets: (input) =>
    client.configured(tiers.negativeTarget)
      ? Effect.flatMap(template(negativeTarget, input.language), (text) =>
          ask(
            tiers.negativeTarget,
            "evidence.negative_target",
            fill2(
              text,
              {
                MESSAGES: input.messages.map((m) => `- ${m}`).join("\n"),
                OBSERVATIONS: observationLines(input.observations)
              },
              input.names
            ),
            NegativeTargets,
            60_000
          )
        )
      : Effect.succeed(localNegativeTargets({ ...input, names: nameList(input.names) })),
  promotionMerge: (input) =>
    client.configured(tiers.promotionMerge)
      ? Effect.flatMap(template(promotionMerge, input.language), (text) =>
          ask(
            tiers.promotionMerge,
            "reflection.promotion_merge",
            fill2(
              text,
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
        )
      : Effect.succeed(localPromotion({ ...input, names: nameList(input.names) })),
  resolveCorrections: (input) =>
    client.configured("correction")
      ? Effect.flatMap(template(personaCorrection, input.language), (text) =>
          ask(
            "correction",
            "persona.corrections",
            fill2(
              text,
              { PAIRS: input.pairs.map((p, i) => `[${i}] old: ${p.old}\n    new: ${p.new}`).join("\n") },
              input.names
            ),
            PersonaCorrections,
            110_000
          )
        )
      : Effect.succeed(localCorrections(input.pairs, nameList(input.names))),
  fuseExternal: (input) =>
    client.configured("correction")
      ? Effect.flatMap(template(personaFusion, input.language), (text) =>
          ask(
            "correction",
            "persona.external_fusion",
            fill2(
              text,
              {
                WHO: input.who,
                BUDGET: String(input.budget),
                MATERIAL: [...input.bucket, ...input.candidates].map((m, i) => `${i + 1}. ${m}`).join("\n")
              },
              input.names
            ),
            PersonaFusion,
            110_000
          )
        ).pipe(Effect.map((entries): FusionAnswer => ({ fused: true, entries })))
      : Effect.succeed({
          fused: false,
          entries: localFusion({
            existing: input.existing,
            candidates: input.candidates,
            names: nameList(input.names),
            ratio: input.overlapRatio
          }).map((text) => ({ text, importance: 7 }))
        })
})

export class PersonaTasks extends Context.Tag("app/persona/PersonaTasks")<PersonaTasks, PersonaTaskApi>() {
  static readonly layer = Layer.effect(
    PersonaTasks,
    Effect.map(TaskKit, (kit) => personaTasks(kit.client, kit.ask, kit.template, kit.tiers))
  )
}
