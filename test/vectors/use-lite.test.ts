import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, Option } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { buildCommandFor, runBuild } from "../../src/vectors/BuildProcess.js"
import { DEFAULT_PROFILE } from "../../src/vectors/DefaultModel.js"
import { isCurrent, readModelDir } from "../../src/vectors/ModelProfile.js"
import * as OnnxEmbedder from "../../src/vectors/OnnxEmbedder.js"
import * as TextTokenizer from "../../src/vectors/TextTokenizer.js"
import { loadUseReference } from "../support/useReference.js"
import { embedderOptions, sharedDefaultModel, tempDir } from "./fixtures.js"

const cosine = (a: Float32Array | undefined, b: Float32Array | undefined) =>
  (a ?? new Float32Array()).reduce((s, x, i) => s + x * (b?.[i] ?? 0), 0)

const sentences = [
  "I adopted a cat named Mochi last week",
  "My younger brother Kenta moved to Fukuoka for a job at a shipyard",
  "What did Caroline research about adoption agencies?",
  "hi",
  "  Leading spaces, café naïve résumé :) see https://example.com",
  Array.from({ length: 90 }, (_, i) => `word${i}`).join(" ")
]

const reference = Effect.promise(() => loadUseReference())

describe("USE-lite translated to ONNX", () => {
  it.scoped(
    "gives the vectors of the package's own TF.js runtime (max abs diff < 1e-5), long texts included",
    () =>
      Effect.gen(function* () {
        const embedder = yield* OnnxEmbedder.make(embedderOptions(Option.none(), yield* sharedDefaultModel))
        const ours = yield* embedder.embed(sentences)
        const ref = yield* reference
        const theirs = yield* Effect.promise(() => ref.embed(sentences))
        let max = 0
        theirs.forEach((v, i) => v.forEach((x, d) => (max = Math.max(max, Math.abs(x - (ours[i]?.[d] ?? 9))))))
        assert.isBelow(max, 1e-5)
      }),
    120_000
  )

  it.scoped(
    "its tokenizer.json yields the package tokenizer's pieces",
    () =>
      Effect.gen(function* () {
        const dir = yield* readModelDir(yield* sharedDefaultModel)
        const tokenizer = Either.getOrThrow(TextTokenizer.make(dir.tokenizerJson, dir.tokenizerConfig))
        const ref = yield* reference
        const texts = [...sentences, "", "tab\there", "<s> tags </s>", "emoji 😀 ok", "C'est la vie!", "x://y :-) ):"]
        for (const text of texts) assert.deepStrictEqual(tokenizer.encode(text, 10_000), ref.encode(text), text)
      }),
    120_000
  )

  it.scoped(
    "ranks a paraphrase above an unrelated sentence and above one that shares its words",
    () =>
      Effect.gen(function* () {
        const embedder = yield* OnnxEmbedder.make(embedderOptions(Option.none(), yield* sharedDefaultModel))
        const triples = [
          [
            "My younger brother Kenta moved to Fukuoka for a job at a shipyard",
            "Kenta, my little brother, relocated to Fukuoka to build ships",
            "My brother helped me move a table to the car"
          ],
          [
            "I work night shifts as a nurse at the city hospital",
            "I'm a nurse and I usually work overnight",
            "The city at night is full of lights"
          ],
          [
            "I adopted a cat named Mochi last week",
            "I recently got a new kitten called Mochi",
            "I ate mochi last week at a festival"
          ]
        ]
        const [unrelated] = yield* embedder.embed(["Quantum computers store information in qubits"])
        for (const triple of triples) {
          const [statement, paraphrase, sharedWords] = yield* embedder.embed(triple)
          assert.isAbove(cosine(statement, paraphrase), cosine(statement, sharedWords) + 0.2, triple[0])
          assert.isAbove(cosine(statement, paraphrase), 0.7, triple[0])
          assert.isBelow(cosine(statement, unrelated), 0.3, triple[0])
        }
      }),
    120_000
  )

  it.scoped(
    "does not embed Japanese or Chinese texts: no vector, not the one vector they would all share",
    () =>
      Effect.gen(function* () {
        const embedder = yield* OnnxEmbedder.make(embedderOptions(Option.none(), yield* sharedDefaultModel))
        yield* embedder.ready
        const serves = yield* embedder.serves
        assert.isTrue(serves("I have a cat"))
        assert.isFalse(serves("私は辛い食べ物が苦手です"))
        assert.isFalse(serves("我对猫毛过敏，所以不能养猫"))
        assert.isFalse(serves("   "))
        const [ja, en, zh] = yield* embedder.embed([
          "私は辛い食べ物が苦手です",
          "I can't eat spicy food",
          "我对猫毛过敏"
        ])
        assert.isUndefined(ja)
        assert.isUndefined(zh)
        assert.strictEqual(en?.length, 512)
      }),
    120_000
  )

  it.scoped(
    "builds offline from the installed packages, without the TF.js runtime, byte for byte reproducibly",
    () =>
      Effect.gen(function* () {
        const dir = path.join(tempDir(), DEFAULT_PROFILE.id)
        const guard = path.join(tempDir(), "offline.cjs")
        writeFileSync(
          guard,
          [
            `const Module = require("node:module")`,
            `const load = Module._load`,
            `Module._load = function (request, ...rest) {`,
            `  if (/^@energetic-ai\\/(core|embeddings)/.test(request)) throw new Error("TF.js runtime loaded: " + request)`,
            `  return load.call(this, request, ...rest)`,
            `}`,
            `const net = require("node:net")`,
            `net.Socket.prototype.connect = function () { throw new Error("network used") }`,
            `require("node:dns").lookup = function () { throw new Error("network used") }`
          ].join("\n")
        )
        const command = yield* buildCommandFor(DEFAULT_PROFILE.id)
        yield* runBuild({ command: command.command, args: ["--require", guard, ...command.args] }, dir)
        assert.isTrue(isCurrent(dir, DEFAULT_PROFILE))
        const shared = yield* sharedDefaultModel
        for (const file of ["model.onnx", "tokenizer.json", "tokenizer_config.json", "profile.json"]) {
          assert.isTrue(readFileSync(path.join(dir, file)).equals(readFileSync(path.join(shared, file))), file)
        }
      }),
    120_000
  )
})
