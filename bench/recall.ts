/**
 * Recall benchmark: `POST /query_memory` against the real server binary over loopback, for one character
 * holding 1,000 / 10,000 / 100,000 synthetic facts (70% English, 30% Chinese, Zipf-like vocabulary, two
 * years of event times; deterministic). The first query builds the character's index and is reported on
 * its own ("cold"); then sequential queries are timed from the client's side: query only, query + a
 * one-month time window, and time only. Last, "after a write": a user turn stating a new fact is cached and
 * extracted (`/internal/maintenance/run_once`), then the next query — the one that brings the index up to
 * date with the changed facts.json — is timed. Also timed: the same queries while a second client writes
 * `/cache` turns to the character without pause.
 */
import { Agent } from "node:http"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { startServer } from "../test/support/server.js"
import { percentile, postOk } from "./Http.js"

const rng = (seed: number) => () => {
  seed = (seed * 1664525 + 1013904223) >>> 0
  return seed / 2 ** 32
}

const syllables = ["ka", "ri", "mo", "ten", "sa", "lo", "vi", "nar", "pe", "du", "shi", "ko", "ran", "mi", "to", "bel"]
const common = ["likes", "went", "to", "the", "with", "loves", "visited", "bought", "hates", "plays", "on", "weekend"]
const hanzi =
  "喜欢猫狗拉面寿司咖啡茶上海东京大阪北京工作学校朋友家人周末旅行电影音乐游戏跑步爬山看书画画做饭下雨晴天生日礼物公园海边城市"

const vocabulary = (size: number, random: () => number) =>
  Array.from({ length: size }, () => {
    const n = 2 + Math.floor(random() * 2)
    return Array.from({ length: n }, () => syllables[Math.floor(random() * syllables.length)]).join("")
  })

const zipf = (items: ReadonlyArray<string>, random: () => number): string =>
  items[Math.floor(random() ** 2 * items.length)] ?? ""

const english = (words: ReadonlyArray<string>, random: () => number) =>
  `Master ${zipf(common, random)} ${zipf(words, random)} ${zipf(common, random)} ${zipf(words, random)} ${zipf(words, random)}`

const chinese = (random: () => number) =>
  "主人" +
  Array.from({ length: 6 + Math.floor(random() * 6) }, () => hanzi[Math.floor(random() * hanzi.length)]).join("")

const pad = (n: number) => String(n).padStart(2, "0")
const iso = (millis: number) => {
  const d = new Date(millis)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:00.000000`
}

const START = new Date(2025, 0, 1).getTime()
const SPAN = 730 * 86_400_000

export const plantFacts = (dir: string, count: number) => {
  const random = rng(count)
  const words = vocabulary(Math.max(500, Math.floor(count / 5)), random)
  const facts = Array.from({ length: count }, (_, i) => {
    const created = START + Math.floor(random() * SPAN)
    const text = random() < 0.7 ? english(words, random) : chinese(random)
    return {
      id: `fact_${i}`,
      text,
      hash: `h${i}`,
      importance: 5,
      created_at: iso(created),
      event_start_at: iso(created)
    }
  })
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, "facts.json"), JSON.stringify(facts))
  return words
}

export interface RecallResult {
  readonly facts: number
  readonly coldMs: number
  readonly query: Figures
  readonly queryAndTime: Figures
  readonly timeOnly: Figures
  readonly besideWriter: Figures
  readonly afterWrite: Figures
  readonly queries: number
}

const elapsedOf = (text: string) => Number(/"elapsed_ms":([\d.]+)/.exec(text)?.[1] ?? "NaN")

/** Client-side latency and the server's own `elapsed_ms` (recall inside the actor), p50 and p95. */
const timed = async (
  bodies: ReadonlyArray<string>,
  send: (body: string) => Promise<string>,
  before: (body: string) => Promise<void> = async () => {}
) => {
  const latencies: Array<number> = []
  const inside: Array<number> = []
  for (const body of bodies) {
    await before(body)
    const t0 = performance.now()
    const text = await send(body)
    latencies.push(performance.now() - t0)
    inside.push(elapsedOf(text))
    if (text.includes("error_code")) throw new Error(`recall failed: ${text}`)
  }
  latencies.sort((a, b) => a - b)
  inside.sort((a, b) => a - b)
  const round = (x: number) => Number(x.toFixed(2))
  return {
    p50: round(percentile(latencies, 50)),
    p95: round(percentile(latencies, 95)),
    serverP50: round(percentile(inside, 50)),
    serverP95: round(percentile(inside, 95))
  }
}

type Figures = Awaited<ReturnType<typeof timed>>

const scale = async (count: number, queries: number, warmup: number): Promise<RecallResult> => {
  const root = mkdtempSync(path.join(tmpdir(), "kioku-bench-recall-"))
  const memory = path.join(root, "memory")
  const words = plantFacts(path.join(memory, "Bench"), count)
  const server = await startServer(memory, [], { KIOKU_ACTOR_IDLE_TTL_SECONDS: "3600", KIOKU_LOG_LEVEL: "info" })
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const send = (body: string) => postOk(agent, server.port, "/query_memory/Bench", body)
  try {
    const random = rng(7)
    const t0 = performance.now()
    await send(JSON.stringify({ query: "warm up" }))
    const coldMs = Number((performance.now() - t0).toFixed(1))
    const queryText = () =>
      random() < 0.7
        ? `${zipf(words, random)} ${zipf(words, random)}`
        : Array.from({ length: 4 }, () => hanzi[Math.floor(random() * hanzi.length)]).join("")
    const month = () => {
      const d = new Date(START + Math.floor(random() * SPAN))
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}`
    }
    const make = (f: () => object) => Array.from({ length: queries }, () => JSON.stringify(f()))
    // Untimed: the route's code is optimised by the JIT over the first few hundred requests of a process; the
    // figures are those of a server past that (a long-running one), `--warmup 20` shows the first requests'.
    await timed(
      Array.from({ length: warmup }, () => JSON.stringify({ query: queryText() })),
      send
    )
    const query = await timed(
      make(() => ({ query: queryText() })),
      send
    )
    const queryAndTime = await timed(
      make(() => ({ query: queryText(), time: month() })),
      send
    )
    const timeOnly = await timed(
      make(() => ({ time: month() })),
      send
    )
    // The same queries while another client writes `/cache` turns to the same character without pause.
    const writing = { done: false, turns: 0 }
    const writer = (async () => {
      const other = new Agent({ keepAlive: true, maxSockets: 1 })
      while (!writing.done) {
        const turn = JSON.stringify([{ role: "user", content: `Turn ${writing.turns} of a chat going on.` }])
        await postOk(other, server.port, "/cache/Bench", JSON.stringify({ input_history: turn }))
        writing.turns++
      }
      other.destroy()
    })()
    const besideWriter = await timed(
      make(() => ({ query: queryText() })),
      send
    )
    writing.done = true
    await writer
    process.stderr.write(`${writing.turns} turns written beside the queries\n`)
    const afterWrite = await timed(
      Array.from({ length: 20 }, (_, i) => JSON.stringify({ query: `zumba${i}` })),
      async (body) => {
        const text = await send(body)
        if (!text.includes(/zumba\d+/.exec(body)?.[0] ?? "?")) throw new Error(`new fact not recalled: ${text}`)
        return text
      },
      async (body) => {
        const turn = JSON.stringify([{ role: "user", content: `I love ${/zumba\d+/.exec(body)?.[0]}.` }])
        await postOk(agent, server.port, "/cache/Bench", JSON.stringify({ input_history: turn }))
        await postOk(agent, server.port, "/internal/maintenance/run_once", JSON.stringify({ character: "Bench" }))
      }
    )
    return { facts: count, coldMs, query, queryAndTime, timeOnly, besideWriter, afterWrite, queries }
  } finally {
    agent.destroy()
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
}

export const runRecall = async (args: ReadonlyArray<string>) => {
  const { values } = parseArgs({
    args: [...args],
    options: {
      facts: { type: "string" },
      queries: { type: "string" },
      warmup: { type: "string" },
      json: { type: "boolean" }
    }
  })
  const counts = (values.facts ?? "1000,10000,100000").split(",").map(Number)
  const queries = Number(values.queries ?? "300")
  const warmup = Number(values.warmup ?? "1000")
  const results: Array<RecallResult> = []
  for (const count of counts) {
    const r = await scale(count, queries, warmup)
    results.push(r)
    process.stderr.write(`${JSON.stringify(r)}\n`)
  }
  if (values.json) return void process.stdout.write(JSON.stringify(results, null, 2) + "\n")
  process.stdout.write(
    "p50 / p95 in ms, client side over loopback (in the actor: the server's `elapsed_ms`)\n\n" +
      "| facts | cold first query | query | query + time | time only | query beside a writer | query after a write |\n" +
      "|---|---|---|---|---|---|---|\n"
  )
  const cell = (f: Figures) => `${f.p50} / ${f.p95} (${f.serverP50} / ${f.serverP95})`
  for (const r of results)
    process.stdout.write(
      `| ${r.facts.toLocaleString("en")} | ${r.coldMs} | ${cell(r.query)} | ${cell(r.queryAndTime)} | ${cell(r.timeOnly)} | ${cell(r.besideWriter)} | ${cell(r.afterWrite)} |\n`
    )
}
