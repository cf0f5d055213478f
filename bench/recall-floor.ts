/**
 * The hand-made check of recall's relative floors: a handful of facts about the user and questions about
 * each (plus three about nothing they hold), asked through the library in the default configuration with
 * vectors on (the default model from `KIOKU_EMBEDDING_CACHE_DIR`, else ./kioku-data/embedding_models, built
 * there if missing). Prints each question's rows, whether the right fact came first and how many unrelated
 * facts answered. `npx tsx bench/recall-floor.ts ['{"tunable": value}']`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { createMemoryRuntime } from "../src/lib.js"
import { textHash } from "../src/facts/Fact.js"

const facts: Record<string, string> = {
  ex: "Master does not want to talk about the ex anymore",
  pet: "Master has a cat named Mochi",
  home: "Master lives in Kyoto",
  food: "Master is allergic to peanuts",
  work: "Master works night shifts as a nurse at the city hospital",
  brother: "Master's younger brother Kenta moved to Fukuoka for a job at a shipyard"
}
const questions: ReadonlyArray<readonly [string, string | undefined]> = [
  ["what pet do I have", "pet"],
  ["where do I live", "home"],
  ["what can't I eat", "food"],
  ["what is my job", "work"],
  ["tell me about my brother", "brother"],
  ["is there anything I'd rather not discuss", "ex"],
  ["what's the weather like", undefined],
  ["my favourite movie", undefined],
  ["how do I fix a flat tyre", undefined]
]

const overrides: Record<string, unknown> = JSON.parse(process.argv[2] ?? "{}")
const root = mkdtempSync(path.join(tmpdir(), "kioku-recall-floor-"))
const dir = path.join(root, "memory", "Tian")
mkdirSync(dir, { recursive: true })
writeFileSync(
  path.join(dir, "facts.json"),
  JSON.stringify(
    Object.entries(facts).map(([id, text]) => ({
      id,
      text,
      importance: 6,
      entity: "master",
      source: "user_observation",
      hash: textHash(text),
      created_at: "2026-11-30T10:00:00.000000"
    }))
  )
)
const cache = process.env["KIOKU_EMBEDDING_CACHE_DIR"] ?? path.resolve("kioku-data/embedding_models")
const runtime = await createMemoryRuntime({
  dataDir: path.join(root, "memory"),
  config: { embedding_cache_dir: cache, ...overrides },
  backgroundMaintenance: false,
  logLevel: "none"
})
await runtime.maintainNow("Tian")
let first = 0
let unrelated = 0
for (const [question, expected] of questions) {
  const ids = (await runtime.queryMemory("Tian", { query: question })).results
    .filter((r) => r.tier === "fact")
    .map((r) => r.id)
  const wrong = ids.filter((id) => id !== expected).length
  if (expected !== undefined && ids[0] === expected) first++
  unrelated += wrong
  process.stdout.write(`${question.padEnd(42)} ${(expected ?? "-").padEnd(8)} ${ids.join(" ") || "(none)"}\n`)
}
process.stdout.write(
  `right fact first: ${first}/${questions.filter(([, e]) => e !== undefined).length}; unrelated facts returned: ${unrelated}\n`
)
await runtime.close()
rmSync(root, { recursive: true, force: true })
