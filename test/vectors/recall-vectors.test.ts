import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, Layer, Option, Schema } from "effect"
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import * as State from "../../src/character/CharacterState.js"
import { backfill } from "../../src/vectors/VectorBackfill.js"
import { vectorPairs } from "../../src/facts/VectorDedup.js"
import { tunablesFrom } from "../../src/Config.js"
import { validateCharacterName } from "../../src/domain/CharacterName.js"
import { Embedder } from "../../src/vectors/Embedder.js"
import * as OnnxEmbedder from "../../src/vectors/OnnxEmbedder.js"
import { Fact } from "../../src/facts/Fact.js"
import * as ScriptedLlm from "../support/ScriptedLlm.js"
import { boot, testSettings } from "../support/layers.js"
import { embedderOptions, sharedDefaultModel } from "./fixtures.js"
import { storedFact as fact } from "../support/facts.js"

describe("recall with the default embedding model", () => {
  it.scoped(
    "finds a paraphrase BM25 cannot: the cosine list over backfilled vectors joins the fusion",
    () =>
      Effect.gen(function* () {
        const modelDir = yield* sharedDefaultModel
        const settings = testSettings({ vectors_enabled: true })
        const dir = path.join(settings.dataDir, "Vec")
        mkdirSync(dir, { recursive: true })
        writeFileSync(
          path.join(dir, "facts.json"),
          JSON.stringify([fact("fact_scope", "I bought a telescope"), fact("fact_market", "The stock market fell")])
        )
        const service = yield* OnnxEmbedder.make(embedderOptions(Option.some(modelDir)))
        assert.isTrue(Option.isSome(yield* service.ready))
        const memory = yield* boot(settings, { embedder: Layer.succeed(Embedder, service) })
        const before = yield* memory.queryMemory("Vec", { query: "astronomy gear" })
        assert.deepStrictEqual(before.results, [], "no shared words: BM25 alone finds nothing")
        yield* memory.maintainNow("Vec")
        const after = yield* memory.queryMemory("Vec", { query: "astronomy gear" })
        assert.strictEqual(after.results[0]?.id, "fact_scope")
      }),
    120_000
  )
})

describe("vector candidates for fact deduplication", () => {
  it.scoped(
    "pairs a new fact with a same-entity fact closer than 0.85, not with a distant or absorbed one",
    () =>
      Effect.gen(function* () {
        const service = yield* OnnxEmbedder.make(embedderOptions(Option.some(yield* sharedDefaultModel)))
        yield* service.ready
        const root = mkdtempSync(path.join(tmpdir(), "kioku-vdedup-"))
        mkdirSync(path.join(root, "Mio"), { recursive: true })
        const osaka = fact("fact_osaka", "I live in Osaka")
        const absorbed = { ...fact("fact_old", "I live in Osaka city"), absorbed: true }
        const sony = fact("fact_sony", "I work at Sony")
        writeFileSync(path.join(root, "Mio", "facts.json"), JSON.stringify([osaka, absorbed, sony]))
        const name = Either.getOrThrow(validateCharacterName("Mio"))
        const state = yield* Effect.acquireRelease(State.load(name, root, tunablesFrom({})), State.release)
        const t = tunablesFrom({})
        const run = <A, E>(e: Effect.Effect<A, E, Embedder>) => Effect.provideService(e, Embedder, service)
        yield* run(backfill(state))
        const existing = (yield* state.facts.load).facts
        const fresh = Schema.decodeUnknownSync(Fact)(fact("fact_new", "I'm living in Osaka"))
        const pairs = yield* run(vectorPairs(state, [fresh], existing, "2026-11-30T12:00:00.000000", t))
        assert.deepStrictEqual(
          pairs.map((p) => [p.candidate_id, p.existing_id, p.detector]),
          [["fact_new", "fact_osaka", "vector"]]
        )
        assert.isAbove(pairs[0]?.cosine ?? 0, 0.85)
      }),
    120_000
  )
})

describe("related context for reflection synthesis", () => {
  it.scoped(
    "shows the model the nearest existing observations once vectors exist",
    () =>
      Effect.gen(function* () {
        const service = yield* OnnxEmbedder.make(embedderOptions(Option.some(yield* sharedDefaultModel)))
        yield* service.ready
        const scripted = yield* ScriptedLlm.make
        const settings = testSettings({ vectors_enabled: true })
        const dir = path.join(settings.dataDir, "Ctx")
        mkdirSync(dir, { recursive: true })
        const foods = ["I love ramen", "I love sushi", "I love udon", "I love soba", "I love tempura"]
        writeFileSync(path.join(dir, "facts.json"), JSON.stringify(foods.map((f, i) => fact(`fact_${i}`, f))))
        const existing = { id: "ref_old", text: "Master really enjoys Japanese noodles", status: "pending" }
        const unrelated = { id: "ref_far", text: "The stock market fell sharply", status: "pending" }
        writeFileSync(
          path.join(dir, "reflections.json"),
          JSON.stringify([existing, unrelated].map((r) => ({ ...r, created_at: "2026-11-30T10:00:00.000000" })))
        )
        const memory = yield* boot(settings, { embedder: Layer.succeed(Embedder, service), llm: scripted.layer })
        yield* memory.maintainNow("Ctx")
        const first = (yield* scripted.script.requests).filter((r) => r.task === "reflection.synthesize")
        assert.notInclude(first[0]?.messages[0]?.content ?? "", "noodles", "no vectors yet: no context")
        yield* memory.maintainNow("Ctx")
        const prompts = (yield* scripted.script.requests).filter((r) => r.task === "reflection.synthesize")
        const text = prompts[prompts.length - 1]?.messages[0]?.content ?? ""
        assert.include(text, "- Master really enjoys Japanese noodles")
        assert.include(text, "(with related earlier impressions)")
      }),
    120_000
  )
})
