import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { KiokuConfig, tunablesFrom } from "../../src/Config.js"
import type { Language } from "../../src/domain/Locale.js"
import { ChineseScript } from "../../src/domain/ChineseScript.js"
import { memoryTasks } from "../../src/character/MemoryTasks.js"
import { tiersFrom } from "../../src/llm/TaskKit.js"
import { PersonaTasks } from "../../src/persona/PersonaTasks.js"
import { ReflectionTasks } from "../../src/reflection/ReflectionTasks.js"
import type { Tunables } from "../../src/Tunables.js"
import * as ScriptedLlm from "../support/ScriptedLlm.js"
import { Tokenizer } from "../../src/llm/Tokenizer.js"

const names = { master: "Alex", character: "Mochi" }
const observation = { type: "reflection" as const, id: "r1", text: "Alex likes tea", entity: "master" }

/** Every reflection and persona task once in `language`; answers the prompts the model was sent, by task. */
const promptsIn = (language: Language, tunables: Partial<Tunables> = {}) =>
  Effect.gen(function* () {
    const { script, layer } = yield* ScriptedLlm.make
    const config = { dataDir: "/nonexistent", configDir: "/nonexistent", tunables: tunablesFrom(tunables) }
    const tasks = yield* Effect.provide(
      Effect.all([ReflectionTasks, PersonaTasks]).pipe(Effect.map(([r, p]) => ({ ...r, ...p }))),
      memoryTasks.pipe(
        Layer.provide(layer),
        Layer.provide(ChineseScript.layer),
        Layer.provide(Tokenizer.Heuristic),
        Layer.provide(Layer.succeed(KiokuConfig, config))
      )
    )
    const run = (effect: Effect.Effect<unknown, unknown>) => Effect.ignore(effect)
    const facts = [{ id: "f1", text: "Alex drinks tea daily", entity: "master", importance: 6 }]
    yield* run(tasks.synthesizeReflection({ facts, names, language, context: ["Alex enjoys calm mornings"] }))
    yield* run(tasks.reflectionFeedback({ reflections: [{ id: "r1", text: "x" }], messages: ["y"], names, language }))
    yield* run(tasks.detectSignals({ facts, observations: [observation], names, language }))
    yield* run(tasks.negativeTargets({ messages: ["stop"], observations: [observation], names, language }))
    yield* run(tasks.promotionMerge({ reflection: "x", entries: [], names, language }))
    yield* run(tasks.resolveCorrections({ pairs: [{ old: "a", new: "b" }], names, language }))
    const requests = yield* script.requests
    return {
      prompts: new Map(requests.map((r) => [r.task, r.messages.map((m) => m.content).join("\n")])),
      tiers: new Map(requests.map((r) => [r.task, r.tier]))
    }
  })

const tasksSent = [
  "reflection.synthesize",
  "reflection.feedback",
  "evidence.signals",
  "evidence.negative_target",
  "reflection.promotion_merge",
  "persona.corrections"
]

describe("prompt language of the reflection and persona tasks", () => {
  it.effect("sends each task's template in the call's language, Traditional Chinese derived, English otherwise", () =>
    Effect.gen(function* () {
      const en = (yield* promptsIn("en")).prompts
      const ja = (yield* promptsIn("ja")).prompts
      const zh = (yield* promptsIn("zh")).prompts
      const tw = (yield* promptsIn("zh-TW")).prompts
      const ko = (yield* promptsIn("ko")).prompts
      assert.deepStrictEqual([...en.keys()].sort(), [...tasksSent].sort())
      const kana = /[\u3040-\u30ff]/
      for (const task of tasksSent) {
        const [e, j, z, t, k] = [en, ja, zh, tw, ko].map((m) => m.get(task) ?? "")
        assert.notMatch(e ?? "", kana, task)
        assert.match(j ?? "", kana, `${task} ja`)
        assert.notStrictEqual(z, e, `${task} zh`)
        assert.notStrictEqual(t, z, `${task} zh-TW differs from zh`)
        assert.strictEqual(k, e, `${task} ko falls back to English`)
      }
      assert.include(ja.get("reflection.synthesize") ?? "", "Mochiがすでに抱いている印象")
      assert.include(tw.get("reflection.synthesize") ?? "", "僅供參考")
    })
  )
})

describe("tiers of the evidence tasks", () => {
  it.effect("come from the evidence_*_model_tier tunables; a value that is not a tier is a config error", () =>
    Effect.gen(function* () {
      const tiersOf = (tunables: Partial<Tunables>) =>
        Effect.map(promptsIn("en", tunables), (r) =>
          ["evidence.signals", "evidence.negative_target", "reflection.promotion_merge"].map((t) => r.tiers.get(t))
        )
      assert.deepStrictEqual(yield* tiersOf({}), ["summary", "emotion", "correction"])
      assert.deepStrictEqual(
        yield* tiersOf({
          evidence_detect_signals_model_tier: "correction",
          evidence_negative_target_model_tier: "summary",
          evidence_promotion_merge_model_tier: "emotion"
        }),
        ["correction", "summary", "emotion"]
      )
      const bad = yield* Effect.either(tiersFrom(tunablesFrom({ evidence_extract_facts_model_tier: "fast" })))
      assert.isTrue(Either.isLeft(bad) && bad.left._tag === "ConfigInvalid")
    })
  )
})
