import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { formatMemoryRun, summaryOf } from "../../src/eval/MemoryReport.js"
import { runMemoryEval } from "../../src/eval/RunMemory.js"
import { tinyModel } from "../vectors/fixtures.js"
import { distBin } from "../support/server.js"

const tiny = {
  language: "en",
  character: "Tian",
  acknowledgements: ["I see!", "Oh, nice."],
  statements: [
    { id: "en-s01", topic: "pets", text: "I adopted a cat named Mochi last week.", keys: [["Mochi"]] },
    { id: "en-s02", topic: "home", text: "I live in Kyoto now.", keys: [["Kyoto"]] },
    { id: "en-s03", topic: "preferences", text: "I drink green tea every morning.", keys: [["tea"]] }
  ],
  fillers: [
    { id: "en-f01", kind: "greeting", text: "Hi Tian!" },
    { id: "en-f02", kind: "thanks", text: "Thanks!" }
  ],
  questions: [
    { id: "en-q01", text: "What is my cat called?", expected: ["Mochi"], about: ["en-s01"] },
    { id: "en-q02", text: "Which city is home?", expected: ["Kyoto"], about: ["en-s02"] },
    { id: "en-q03", text: "What do I have at breakfast?", expected: ["tea"], about: ["en-s03"] }
  ]
}

const FactsFile = Schema.parseJson(Schema.Array(Schema.Struct({ id: Schema.String, text: Schema.String })))

describe("kioku eval memory", () => {
  it.live(
    "runs a tiny set end to end against the built server with vectors on (a tiny ONNX model) and keeps its root",
    () =>
      Effect.gen(function* () {
        const root = mkdtempSync(path.join(tmpdir(), "kioku-eval-memory-test-"))
        const data = path.join(root, "data")
        mkdirSync(data)
        writeFileSync(path.join(data, "en.json"), JSON.stringify(tiny))
        const config = path.join(root, "tunables.json")
        writeFileSync(config, JSON.stringify({ embedding_model_dir: tinyModel() }))
        const lines: Array<string> = []
        const runs = yield* runMemoryEval({
          data,
          cli: distBin,
          configFile: config,
          workDir: path.join(root, "work"),
          sessionSize: 3,
          progress: (line) => Effect.sync(() => lines.push(line))
        })
        assert.strictEqual(runs.length, 1)
        const [run] = runs
        if (run === undefined) return
        assert.strictEqual(run.vectors.model, "tiny-4d-fp32")
        assert.strictEqual(run.score.statements, 3)
        assert.strictEqual(run.score.fillers, 2)
        assert.strictEqual(run.score.questions, 3)
        assert.match(lines.join("\n"), /\[en\] 5 user turns in 2 sessions sent/)

        const [dir] = readdirSync(path.join(root, "work")).filter((d) => d.startsWith("run-"))
        const characterDir = path.join(root, "work", dir ?? "", "en", "memory", "Tian")
        const facts = yield* Schema.decodeUnknown(FactsFile)(
          readFileSync(path.join(characterDir, "facts.json"), "utf8")
        )
        assert.strictEqual(run.score.facts, facts.length)
        assert.strictEqual(run.vectors.factsWithVectors, facts.length)
        const card = readFileSync(path.join(root, "work", dir ?? "", "en", "config", "characters.json"), "utf8")
        assert.include(card, '"当前猫娘": "Tian"')

        const summary = summaryOf(runs)
        assert.deepStrictEqual(Object.keys(summary.languages), ["en"])
        assert.strictEqual(summary.total.statements, 3)
        assert.strictEqual(summary.total.recall, summary.languages["en"]?.recall)
        assert.isAtLeast(summary.total["hit@8"], summary.total["hit@8 memory"])
        assert.match(formatMemoryRun(runs), /^en +3 +\d\.\d{3} /m)
      }),
    180_000
  )

  it.live("fails with the file's name on a set that does not decode, before starting any server", () =>
    Effect.gen(function* () {
      const data = mkdtempSync(path.join(tmpdir(), "kioku-eval-memory-bad-"))
      writeFileSync(path.join(data, "ja.json"), JSON.stringify({ ...tiny, language: "ja" }))
      const result = yield* Effect.either(runMemoryEval({ data, cli: distBin, vectors: false }))
      assert.isTrue(Either.isLeft(result))
      if (Either.isLeft(result)) assert.match(result.left.message, /ja\.json: id en-s01 is not of language ja/)
    })
  )
})
