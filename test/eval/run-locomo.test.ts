import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { existsSync } from "node:fs"
import * as path from "node:path"
import { rounded } from "../../src/eval/Metrics.js"
import { bm25Recall, factsOnly, memoryRecall } from "../../src/eval/Recall.js"
import { runLocomo } from "../../src/eval/RunLocomo.js"
import { sharedDefaultModel } from "../vectors/fixtures.js"

const data = path.resolve(import.meta.dirname, "../../../shared/bench/locomo10.json")

const Figures = Schema.Struct({
  "R@5": Schema.Number,
  "R@8": Schema.Number,
  "R@10": Schema.Number,
  "hit@10": Schema.Number,
  MRR: Schema.Number,
  n: Schema.Number
})
const Printed = Schema.parseJson(
  Schema.Struct({
    overall: Figures,
    byCategory: Schema.Record({ key: Schema.String, value: Figures }),
    latencyMs: Schema.Struct({ p50: Schema.Number, p95: Schema.Number })
  })
)

describe("kioku eval locomo", () => {
  it.live.skipIf(!existsSync(data))(
    "replays one conversation through the library and scores the BM25 floor",
    () =>
      Effect.gen(function* () {
        const lines: Array<string> = []
        const run = yield* runLocomo({
          data,
          limit: 1,
          recall: bm25Recall,
          embeddingCacheDir: path.dirname(yield* sharedDefaultModel),
          progress: (line) => Effect.sync(() => lines.push(line))
        })
        const printed = JSON.stringify(rounded(run.summary))
        const decoded = yield* Schema.decodeUnknown(Printed)(printed)
        assert.deepStrictEqual(Object.keys(rounded(run.summary)), ["overall", "byCategory", "latencyMs"])
        assert.deepStrictEqual(Object.keys(decoded.byCategory), ["1", "2", "3", "4", "5"])
        assert.strictEqual(run.conversations, 1)
        assert.strictEqual(run.questions, 199)
        assert.strictEqual(decoded.overall.n, 150)
        assert.isAbove(decoded.overall["R@10"], 0.3)
        assert.closeTo(decoded.overall["R@10"], 0.4543, 0.0005)
        assert.isAtMost(decoded.overall["R@5"], decoded.overall["R@8"])
        assert.isAtMost(decoded.overall["R@8"], decoded.overall["R@10"])
        assert.isAtLeast(decoded.overall["hit@10"], decoded.overall["R@10"])
        assert.isAtLeast(decoded.latencyMs.p95, decoded.latencyMs.p50)
        assert.match(lines.join("\n"), /locomo_0 \(Caroline ↔ Melanie\): 419 turns in 19 sessions/)
      }),
    180_000
  )

  it.live.skipIf(!existsSync(data))(
    "scores kioku's default recall (raw-turn tier and vectors on) on one conversation above 0.75, facts only below",
    () =>
      Effect.gen(function* () {
        const modelCache = path.dirname(yield* sharedDefaultModel)
        const lines: Array<string> = []
        const run = (tunables: typeof factsOnly | undefined) =>
          runLocomo({
            data,
            limit: 1,
            recall: memoryRecall,
            tunables,
            embeddingCacheDir: modelCache,
            progress: (line) => Effect.sync(() => lines.push(line))
          })
        const { overall } = rounded((yield* run(undefined)).summary)
        assert.strictEqual(overall.n, 150)
        assert.isAtLeast(overall["R@10"], 0.75)
        assert.isAtMost(overall["R@5"], overall["R@10"])
        assert.match(lines.join("\n"), /vectors: [1-9]\d* memories, 419 turns \([\w.-]+\)/)
        const facts = rounded((yield* run(factsOnly)).summary).overall
        assert.isBelow(facts["R@10"], overall["R@10"])
        assert.match(lines.join("\n"), /vectors: [1-9]\d* memories, 0 turns/)
      }),
    240_000
  )
})
