/**
 * `npm run bench -- vectors --model M [--limit N] [--strip-names]`: one English sentence encoder on LoCoMo retrieval over raw
 * turns and on the paraphrase set. M is `use-onnx` (the built-in USE-lite translated to ONNX), `use-tfjs`
 * (the same weights on the package's own TF.js runtime), `wink` (mean of word vectors), `wink-sif` (SIF:
 * word weight a/(a+p(w)), a = 1e-3, p from the word's frequency rank by Zipf's law) or `wink-sif-pc` (SIF
 * minus the first principal component of all turn vectors). Per conversation every turn (with its image
 * caption) and every question is embedded and the turns ranked by cosine: R@10 and hit@10 by category 1–4,
 * cosine alone, fused with the BM25 turn index (RRF, k = 60, over each list's top 50), and BM25 alone;
 * `--strip-names` embeds the questions without the speakers' names (the turns do not carry them). Also load time,
 * sentences/s in batches of 16, and the process RSS. Models are built first in a child process, so the RSS
 * is the embedding run's alone; run each model in its own process.
 */
import { Effect } from "effect"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { buildCommandFor, runBuild } from "../src/vectors/BuildProcess.js"
import { build, useLite, wink, type BuiltinModel } from "../src/vectors/DefaultModel.js"
import { isCurrent, readModelDir } from "../src/vectors/ModelProfile.js"
import * as OnnxSession from "../src/vectors/OnnxSession.js"
import * as WinkModel from "../src/vectors/WinkModel.js"
import { loadLocomo } from "../src/eval/Locomo.js"
import { percentile, summarize, type Outcome } from "../src/eval/Metrics.js"
import { analyze } from "../src/recall/TurnAnalyzer.js"
import * as TurnIndex from "../src/recall/TurnIndex.js"
import { loadUseReference } from "../test/support/useReference.js"
import { paraphrases } from "./paraphrases.js"

type Embed = (texts: ReadonlyArray<string>) => Promise<ReadonlyArray<Float32Array>>

const root = path.join(tmpdir(), "kioku-bench-models")
const sif: BuiltinModel = {
  profile: { ...wink.profile, id: "wink-sif-50k" },
  files: WinkModel.modelFiles((rank) => 1e-3 / (1e-3 + 1 / (rank * (Math.log(WinkModel.VOCAB_CAP) + 0.5772))))
}

const modelDir = async (model: BuiltinModel): Promise<string> => {
  const dir = path.join(root, model.profile.id)
  if (isCurrent(dir, model.profile)) return dir
  const command =
    model === sif
      ? Effect.succeed({
          command: process.execPath,
          args: [...process.execArgv, process.argv[1] ?? "", "vectors", "--build-sif"]
        })
      : buildCommandFor(model.profile.id)
  await Effect.runPromise(Effect.flatMap(command, (c) => runBuild(c, dir)))
  return dir
}

const onnxEmbedder = async (dir: string): Promise<Embed> => {
  const model = await Effect.runPromise(
    Effect.flatMap(readModelDir(dir), (d) => OnnxSession.load(d, { maxLength: 1024, requestedDim: "auto" }))
  )
  return (texts) => Effect.runPromise(model.run(texts))
}

const cosine = (a: Float32Array, b: Float32Array) => {
  let s = 0
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0)
  return s
}

const normalise = (v: Float32Array) => {
  const n = Math.sqrt(cosine(v, v))
  return n > 0 ? v.map((x) => x / n) : v
}

/** The first principal component (uncentred, as SIF does) of `vectors`, by power iteration. */
const firstComponent = (vectors: ReadonlyArray<Float32Array>, dim: number): Float32Array => {
  let u = normalise(Float32Array.from({ length: dim }, (_, i) => 1 / (i + 1)))
  for (let step = 0; step < 50; step++) {
    const next = new Float32Array(dim)
    for (const v of vectors) {
      const p = cosine(v, u)
      for (let i = 0; i < dim; i++) next[i] = (next[i] ?? 0) + p * (v[i] ?? 0)
    }
    u = normalise(next)
  }
  return u
}

const removeComponent = (u: Float32Array) => (v: Float32Array) => {
  const p = cosine(v, u)
  return normalise(v.map((x, i) => x - p * (u[i] ?? 0)))
}

const batched = async (embed: Embed, texts: ReadonlyArray<string>) => {
  const out: Array<Float32Array> = []
  for (let i = 0; i < texts.length; i += 16) out.push(...(await embed(texts.slice(i, i + 16))))
  return out
}

/** The question without the two speakers' names (as the turn-tier tuning loop does). */
const stripNames = (question: string, c: { readonly speakerA: string; readonly speakerB: string }) =>
  [c.speakerA, c.speakerB].reduce((q, name) => q.replace(new RegExp(`\\b${name}('s)?\\b`, "gi"), " "), question)

const fmt = (outcomes: ReadonlyArray<Outcome>) => {
  const s = summarize(outcomes)
  const cats = [1, 2, 3, 4].map((c) => {
    const f = s.byCategory[String(c)]
    return `${c}:${f?.["R@10"].toFixed(3) ?? "-"}/${f?.["hit@10"].toFixed(3) ?? "-"}`
  })
  return `R@10 ${s.overall["R@10"].toFixed(3)} hit@10 ${s.overall["hit@10"].toFixed(3)} [R@10/hit@10 ${cats.join(" ")}]`
}

export const runVectors = async (args: ReadonlyArray<string>) => {
  if (args.includes("--build-sif")) {
    await Effect.runPromise(build(path.join(root, sif.profile.id), sif))
    return
  }
  const name = args[args.indexOf("--model") + 1] ?? "use-onnx"
  const limitArg = args.indexOf("--limit")
  const limit = limitArg >= 0 ? Number(args[limitArg + 1]) : 10
  const strip = args.includes("--strip-names")
  const dirs: Record<string, BuiltinModel> = { "use-onnx": useLite, wink, "wink-sif": sif, "wink-sif-pc": sif }
  const source = dirs[name]
  if (source === undefined && name !== "use-tfjs") throw new Error(`unknown model ${name}`)
  const dir = source === undefined ? undefined : await modelDir(source)
  const data = await Effect.runPromise(loadLocomo("../shared/bench/locomo10.json"))
  const rssBefore = process.memoryUsage().rss
  const started = performance.now()
  const embed: Embed = dir === undefined ? await loadUseReference().then((r) => r.embed) : await onnxEmbedder(dir)
  await embed(["warm up"])
  const loadMs = performance.now() - started

  const conversations = data.conversations.slice(0, limit).map((c) => {
    const turns = c.sessions.flatMap((s) =>
      s.turns.map((t, j) => ({
        ...t,
        at: s.startMillis + j * 1000,
        text: t.caption ? `${t.text} [image: ${t.caption}]` : t.text
      }))
    )
    return { c, turns }
  })
  const turnTexts = conversations.flatMap(({ turns }) => turns.map((t) => t.text))
  const t0 = performance.now()
  let turnVectors = await batched(embed, turnTexts)
  const embedMs = performance.now() - t0
  let questionVectors = await batched(
    embed,
    conversations.flatMap(({ c }) => c.questions.map((q) => (strip ? stripNames(q.question, c) : q.question)))
  )
  let triples = await batched(embed, paraphrases.flat())
  const singles: Array<number> = []
  for (const q of data.conversations[0]?.questions.slice(0, 40) ?? []) {
    const t = performance.now()
    await embed([q.question])
    singles.push(performance.now() - t)
  }
  const rss = process.memoryUsage().rss
  if (name === "wink-sif-pc") {
    const remove = removeComponent(firstComponent(turnVectors, turnVectors[0]?.length ?? 0))
    turnVectors = turnVectors.map(remove)
    questionVectors = questionVectors.map(remove)
    triples = triples.map(remove)
  }

  const cosineOnly: Array<Outcome> = []
  const fused: Array<Outcome> = []
  const bm25: Array<Outcome> = []
  let turnAt = 0
  let questionAt = 0
  for (const { c, turns } of conversations) {
    const vectors = turnVectors.slice(turnAt, turnAt + turns.length)
    turnAt += turns.length
    const index = TurnIndex.make({
      k1: 1.2,
      b: 0.75,
      neighbour: 0.5,
      second: 0.2,
      sessionWeight: 0.5,
      speakerBoost: 0.3,
      sessionGapMs: 30 * 60_000,
      dates: true
    })
    index.append(
      turns.map((t, i) => ({
        rowId: i + 1,
        speaker: t.speaker === c.speakerA ? "master" : "character",
        text: t.text,
        at: t.at
      }))
    )
    for (const q of c.questions) {
      const qv = questionVectors[questionAt++] ?? new Float32Array()
      const byCosine = vectors
        .map((v, i) => ({ i, s: cosine(qv, v) }))
        .sort((a, b) => b.s - a.s)
        .slice(0, 50)
        .map((h) => h.i)
      const byBm25 = index.search(analyze(q.question), new Set(), 50).map((h) => h.rowId - 1)
      const rrf = new Map<number, number>()
      for (const list of [byCosine, byBm25]) list.forEach((i, r) => rrf.set(i, (rrf.get(i) ?? 0) + 1 / (60 + r + 1)))
      const ranked = (ids: ReadonlyArray<number>) => ids.slice(0, 10).map((i) => [turns[i]?.diaId ?? ""])
      const base = { category: q.category, evidence: q.evidence, latencyMs: 0 }
      cosineOnly.push({ ...base, ranked: ranked(byCosine) })
      bm25.push({ ...base, ranked: ranked(byBm25) })
      fused.push({ ...base, ranked: ranked([...rrf.entries()].sort((a, b) => b[1] - a[1]).map(([i]) => i)) })
    }
  }

  const triple = (k: number) => paraphrases.map((_, i) => triples[i * 3 + k] ?? new Float32Array())
  const [statements, paras, distractors] = [triple(0), triple(1), triple(2)]
  const gaps = statements.map((s, i) => cosine(s, paras[i] ?? s) - cosine(s, distractors[i] ?? s))
  const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0) / xs.length
  const unrelated = mean(statements.map((s, i) => cosine(s, paras[(i + 1) % paras.length] ?? s)))
  const top1 = statements.filter((s, i) => {
    const own = cosine(s, paras[i] ?? s)
    return [...paras, ...distractors].every((p, j) => j === i || cosine(s, p) < own)
  }).length

  console.log(`model ${name}: ${conversations.length} conversations, ${turnTexts.length} turns`)
  console.log(
    `load ${loadMs.toFixed(0)} ms, ${((turnTexts.length / embedMs) * 1000).toFixed(0)} sentences/s (batches of 16), RSS ${(rss / 1e6).toFixed(0)} MB (${(rssBefore / 1e6).toFixed(0)} MB before loading)`
  )
  console.log(`one query: p50 ${percentile(singles, 50).toFixed(1)} ms, p95 ${percentile(singles, 95).toFixed(1)} ms`)
  console.log(`LoCoMo cosine: ${fmt(cosineOnly)}`)
  console.log(`LoCoMo fused:  ${fmt(fused)}`)
  console.log(`LoCoMo BM25 turn index alone: ${fmt(bm25)}`)
  console.log(
    `paraphrases (${paraphrases.length}): cos paraphrase ${mean(statements.map((s, i) => cosine(s, paras[i] ?? s))).toFixed(3)}, distractor ${mean(statements.map((s, i) => cosine(s, distractors[i] ?? s))).toFixed(3)}, unrelated ${unrelated.toFixed(3)}, gap ${mean(gaps).toFixed(3)}, paraphrase above distractor ${gaps.filter((g) => g > 0).length}/${gaps.length}, paraphrase nearest of all ${2 * paraphrases.length} ${top1}/${paraphrases.length}`
  )
}
