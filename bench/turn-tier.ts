/**
 * Tuning loop for the raw-turn tier: builds the pure TurnIndex over each LoCoMo conversation (speaker A as
 * master) and scores categories 1–4 at k = 10 on conversations 0–4 (tune) and 5–9 (test). Parameters come
 * as `name=value` arguments. Not part of the evaluation proper (`kioku eval locomo --tiers +turns` is).
 */
import { Effect } from "effect"
import { loadLocomo } from "../src/eval/Locomo.js"
import { summarize, type Outcome } from "../src/eval/Metrics.js"
import { analyze } from "../src/memory/recall/TurnAnalyzer.js"
import * as TurnIndex from "../src/memory/recall/TurnIndex.js"

const params: Record<string, number> = {
  k1: 1.2,
  b: 0.75,
  neighbour: 0.5,
  second: 0.2,
  sessionWeight: 0.5,
  speakerBoost: 0.3,
  dates: 1,
  stripNames: 1
}
for (const arg of process.argv.slice(2)) {
  const [k, v] = arg.split("=")
  if (k !== undefined && v !== undefined) params[k] = Number(v)
}
const p = (k: string) => params[k] ?? 0

const data = await Effect.runPromise(loadLocomo("../shared/bench/locomo10.json"))
const outcomes: Array<Array<Outcome>> = []
for (const c of data.conversations) {
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
  const dia = new Map<number, string>()
  let row = 0
  for (const s of c.sessions)
    s.turns.forEach((t, j) => {
      row++
      dia.set(row, t.diaId)
      const text = t.caption ? `${t.text} [image: ${t.caption}]` : t.text
      index.append([
        { rowId: row, speaker: t.speaker === c.speakerA ? "master" : "character", text, at: s.startMillis + j * 1000 }
      ])
    })
  const names: Array<[string, TurnIndex.Speaker]> = [
    [c.speakerA, "master"],
    [c.speakerB, "character"]
  ]
  outcomes.push(
    c.questions.map((q) => {
      const named = new Set<TurnIndex.Speaker>()
      let text = q.question
      for (const [name, who] of names)
        if (new RegExp(`\\b${name}\\b`, "i").test(text)) {
          named.add(who)
          if (p("stripNames") > 0) text = text.replace(new RegExp(`\\b${name}('s)?\\b`, "gi"), " ")
        }
      const hits = index.search(analyze(text), named, 10)
      return {
        category: q.category,
        evidence: q.evidence,
        ranked: hits.map((h) => [dia.get(h.rowId) ?? ""]),
        latencyMs: 0
      }
    })
  )
}
const fmt = (o: ReadonlyArray<Outcome>) => {
  const s = summarize(o)
  const cats = Object.entries(s.byCategory)
    .filter(([k]) => k !== "5")
    .map(([k, f]) => `${k}:${f["R@10"].toFixed(3)}`)
    .join(" ")
  return `R@10 ${s.overall["R@10"].toFixed(3)} R@5 ${s.overall["R@5"].toFixed(3)} MRR ${s.overall.MRR.toFixed(3)} [${cats}]`
}
console.log(JSON.stringify(params))
console.log(`tune 0-4: ${fmt(outcomes.slice(0, 5).flat())}`)
console.log(`test 5-9: ${fmt(outcomes.slice(5).flat())}`)
console.log(`all:      ${fmt(outcomes.flat())}`)
