/**
 * What the recall terms find in English, Japanese and Chinese: over the `kioku eval memory` sets (a
 * directory of `<language>.json` files with `statements`, `fillers`, `acknowledgements` and `questions`,
 * default bench/memory), hit@8 of each question's statements (a) as raw turns in the turn tier's index
 * (statements and fillers as the user's turns, each followed by an acknowledgement) and (b) as facts in the
 * memory BM25 (statement texts as fact texts), for N.E.K.O.'s tokens, with the `Intl.Segmenter` CJK words,
 * and with the stemmed terms. Lexical only, no extraction, no vectors. `npx tsx bench/recall-terms.ts [DIR]`.
 */
import { Schema } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import * as path from "node:path"
import * as Bm25 from "../src/recall/bm25/Bm25Index.js"
import * as Bm25Search from "../src/recall/bm25/Bm25Search.js"
import { cjkWords, recallTokens } from "../src/recall/Tokenize.js"
import { analyze, analyzeWith } from "../src/recall/TurnAnalyzer.js"
import * as TurnIndex from "../src/recall/TurnIndex.js"

const Said = Schema.Struct({ id: Schema.String, text: Schema.String })
const MemorySet = Schema.Struct({
  acknowledgements: Schema.Array(Schema.String),
  statements: Schema.Array(Said),
  fillers: Schema.Array(Said),
  questions: Schema.Array(Schema.Struct({ text: Schema.String, about: Schema.Array(Schema.String) }))
})
const decode = Schema.decodeUnknownSync(Schema.parseJson(MemorySet))

const dir = path.resolve(process.argv[2] ?? "bench/memory")
const params: TurnIndex.TurnTierParams = {
  k1: 1.5,
  b: 0.75,
  neighbour: 0.5,
  second: 0.2,
  sessionWeight: 0.5,
  speakerBoost: 0.5,
  sessionGapMs: 30 * 60_000,
  dates: true
}

const turnHits = (set: typeof MemorySet.Type, terms: (text: string) => Array<string>) => {
  const index = TurnIndex.make(params, terms)
  const ids: Array<string> = []
  const add = (id: string, text: string, speaker: TurnIndex.Speaker) => {
    ids.push(id)
    index.append([{ rowId: ids.length, speaker, text, at: Date.UTC(2026, 0, 1) + ids.length * 1000 }])
  }
  ;[...set.statements, ...set.fillers].forEach((s, i) => {
    add(s.id, s.text, "master")
    add("ack", set.acknowledgements[i % Math.max(1, set.acknowledgements.length)] ?? "", "character")
  })
  return set.questions.filter((q) =>
    index.search(terms(q.text), new Set(), 8).some((h) => q.about.includes(ids[h.rowId - 1] ?? ""))
  ).length
}

const factHits = (set: typeof MemorySet.Type, terms: (text: string) => Array<string>) => {
  const index = Bm25.make()
  for (const s of set.statements) index.upsert(s.id, terms(s.text))
  return set.questions.filter((q) =>
    Bm25Search.search([index], terms(q.text), { k1: 1.5, b: 0.75 })
      .filter((h) => h.score >= 0.1)
      .sort((a, b) => b.score - a.score)
      .slice(0, 8)
      .some((h) => q.about.includes(h.id))
  ).length
}

const lines = ["set  n    turns: n-grams  +words | facts: N.E.K.O.  +words  stemmed"]
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort()) {
  const set = decode(readFileSync(path.join(dir, file), "utf8"))
  const n = set.questions.length
  const f = (hits: number) => (hits / n).toFixed(3).padStart(7)
  lines.push(
    `${file.replace(".json", "").padEnd(4)} ${String(n).padEnd(4)} ` +
      `${f(turnHits(set, (t) => analyzeWith(t, false)))} ${f(turnHits(set, analyze))} |        ` +
      `${f(factHits(set, recallTokens))} ${f(factHits(set, (t) => [...recallTokens(t), ...cjkWords(t)]))} ` +
      `${f(factHits(set, analyze))}`
  )
}
process.stdout.write(lines.join("\n") + "\n")
