/**
 * Ingest benchmark: `/cache` turns (one user + one assistant message per request) against the real server
 * binary over loopback, with 1, 10 and 100 characters (fresh characters per scenario), plus N.E.K.O.'s
 * history-length measure. Every request is acknowledged only once durable, so this measures durable turns
 * per second and per-request latency (p50/p99) from the client's side, and the server's CPU (user + system,
 * from `/proc`) per 1,000 turns. Each character gets one turn before the clock starts (its actor and files
 * exist: sustained ingest); `--cold` times first turns too. `--characters 100 --concurrency 32
 * --skip-history` runs one scenario. `--history-seed N` starts the history measure's character with N messages
 * already in its recent.json (a long history only `/cache` ever grew). `--distinct` sends the requests in flight
 * to distinct characters (each turn its own commit: the cost of a commit alone); by default two clients often
 * write to one character at once and their turns share a commit. The server's CPU is read again `--settle S` seconds
 * (default 60) after each scenario's window: the work its turns left behind. The window follows `--warm S` seconds
 * (default 5) of the same traffic, not counted: sustained ingest, past a fresh process's first seconds (its code
 * still being compiled; `--warm 0` counts them, as runs before 2026-12-06's eighth session did).
 */
import { Agent } from "node:http"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { startServer } from "../test/support/server.js"
import { percentile, send } from "./Http.js"

export interface IngestResult {
  readonly characters: number
  readonly concurrency: number
  readonly requests: number
  readonly seconds: number
  readonly turnsPerSecond: number
  readonly p50: number
  readonly p99: number
}

const turnBody = (i: number) =>
  JSON.stringify({
    input_history: JSON.stringify([
      { role: "user", content: `turn ${i}: I walked the dog and then we talked about the weather for a while.` },
      { role: "assistant", content: `That sounds lovely! Tell me more about turn ${i}.` }
    ])
  })

const nameOf = (concurrency: number, characters: number, k: number) => `c${concurrency}-n${characters}-${k}`

/** One turn for every character of a scenario (its actor started, its files created), `concurrency` at a time. */
export const warmUp = async (ports: ReadonlyArray<number>, characters: number, concurrency: number) => {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  for (let k = 0; k < characters; k += concurrency) {
    const batch = Array.from({ length: Math.min(concurrency, characters - k) }, (_, j) => k + j)
    await Promise.all(
      batch.map((c) =>
        send(agent, ports[c % ports.length] ?? 0, "POST", `/cache/${nameOf(concurrency, characters, c)}`, turnBody(-1))
      )
    )
  }
  agent.destroy()
}

/** `concurrency` clients for `seconds`, client `w` on gateway `ports[w % ports.length]`. */
export const scenario = async (
  ports: ReadonlyArray<number>,
  characters: number,
  concurrency: number,
  seconds: number,
  distinct = false
): Promise<IngestResult> => {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const latencies: Array<number> = []
  const started = performance.now()
  const until = started + seconds * 1000
  let sent = 0
  const worker = async (w: number) => {
    while (performance.now() < until) {
      const i = sent++
      const name = nameOf(concurrency, characters, (distinct ? i : w + i) % characters)
      const t0 = performance.now()
      const status = (await send(agent, ports[w % ports.length] ?? 0, "POST", `/cache/${name}`, turnBody(i))).status
      if (status !== 200) throw new Error(`status ${status}`)
      latencies.push(performance.now() - t0)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)))
  const elapsed = (performance.now() - started) / 1000
  agent.destroy()
  latencies.sort((a, b) => a - b)
  return {
    characters,
    concurrency,
    requests: latencies.length,
    seconds: Number(elapsed.toFixed(1)),
    turnsPerSecond: Math.round(latencies.length / elapsed),
    p50: Number(percentile(latencies, 50).toFixed(2)),
    p99: Number(percentile(latencies, 99).toFixed(2))
  }
}

/** A process's user and system CPU seconds so far, from `/proc` (Linux); 0 elsewhere. */
const cpuTimes = (pid: number | undefined): { readonly user: number; readonly sys: number } => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []
    return { user: Number(fields[11]) / 100, sys: Number(fields[12]) / 100 }
  } catch {
    return { user: 0, sys: 0 }
  }
}
/**
 * The CPU times `seconds` after a scenario's window: the background work its turns queued (fact extraction on
 * its 40-second tick, memos, checkpoints) runs in that time. The maintenance loops keep visiting the changed
 * characters on their own intervals for `maintenance_settle_seconds` (15 minutes) more; that is not counted.
 */
const after = async (pid: number | undefined, seconds: number) => {
  await new Promise((r) => setTimeout(r, seconds * 1000))
  return cpuTimes(pid)
}

export interface HistoryResult {
  readonly firstHundredMean: number
  readonly lastHundredMean: number
  readonly lastHundredP95: number
  readonly lastHundredP99: number
}

const HISTORY = "history-1000"

/** Writes `items` messages (alternating user and assistant turns) as the character's recent.json, N.E.K.O.'s layout. */
const seedHistory = (dir: string, items: number) => {
  mkdirSync(dir, { recursive: true })
  const messages = Array.from({ length: items }, (_, i) => ({
    type: i % 2 === 0 ? "human" : "ai",
    data: { content: i % 2 === 0 ? `earlier turn ${i >> 1}: a walk, then tea.` : `How lovely, turn ${i >> 1}!` }
  }))
  writeFileSync(path.join(dir, "recent.json"), JSON.stringify(messages, null, 2))
}

/** N.E.K.O.'s own measure: one character, one client, 1,000 turns; turns 1–100 against 901–1,000. */
const historyScenario = async (port: number): Promise<HistoryResult> => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  const latencies: Array<number> = []
  for (let i = 0; i < 1000; i++) {
    const t0 = performance.now()
    await send(agent, port, "POST", `/cache/${HISTORY}`, turnBody(i))
    latencies.push(performance.now() - t0)
  }
  agent.destroy()
  const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0) / xs.length
  const last = latencies.slice(900).sort((a, b) => a - b)
  const round = (x: number) => Number(x.toFixed(2))
  return {
    firstHundredMean: round(mean(latencies.slice(0, 100))),
    lastHundredMean: round(mean(last)),
    lastHundredP95: round(percentile(last, 95)),
    lastHundredP99: round(percentile(last, 99))
  }
}

export const runIngest = async (args: ReadonlyArray<string>) => {
  const { values } = parseArgs({
    args: [...args],
    options: {
      seconds: { type: "string" },
      concurrency: { type: "string" },
      characters: { type: "string" },
      "skip-history": { type: "boolean" },
      cold: { type: "boolean" },
      distinct: { type: "boolean" },
      "history-seed": { type: "string" },
      settle: { type: "string" },
      warm: { type: "string" },
      json: { type: "boolean" }
    }
  })
  const seconds = Number(values.seconds ?? "10")
  const settle = Number(values.settle ?? "60")
  const warm = Number(values.warm ?? "5")
  const concurrencies = (values.concurrency ?? "1,32").split(",").map(Number)
  const characterCounts = (values.characters ?? "1,10,100").split(",").map(Number)
  const root = mkdtempSync(path.join(tmpdir(), "kioku-bench-"))
  const seeded = Number(values["history-seed"] ?? "0")
  if (seeded > 0) seedHistory(path.join(root, "memory", HISTORY), seeded)
  const server = await startServer(path.join(root, "memory"), [], {
    KIOKU_ACTOR_IDLE_TTL_SECONDS: "3600",
    KIOKU_LOG_LEVEL: "info"
  })
  const results: Array<IngestResult & { readonly cpuPerThousand: number; readonly cpuPerThousandAll: number }> = []
  let history: HistoryResult | undefined
  try {
    if (values["skip-history"] !== true) {
      history = await historyScenario(server.port)
      process.stderr.write(`history: ${JSON.stringify(history)}\n`)
    }
    for (const concurrency of concurrencies) {
      for (const characters of characterCounts) {
        if (values.cold !== true) await warmUp([server.port], characters, concurrency)
        const beforeWarm = cpuTimes(server.child.pid)
        const warmed =
          values.cold !== true && warm > 0
            ? (await scenario([server.port], characters, concurrency, warm, values.distinct === true)).requests
            : 0
        const before = cpuTimes(server.child.pid)
        const s = await scenario([server.port], characters, concurrency, seconds, values.distinct === true)
        const during = cpuTimes(server.child.pid)
        const later = await after(server.child.pid, settle)
        const perThousand = (
          t: { readonly user: number; readonly sys: number },
          from: { readonly user: number; readonly sys: number },
          turns: number
        ) => Number((((t.user + t.sys - from.user - from.sys) / turns) * 1000).toFixed(2))
        // The work left behind includes the warm-up turns': it is counted over them too.
        const r = {
          ...s,
          cpuPerThousand: perThousand(during, before, s.requests),
          cpuPerThousandAll: perThousand(later, beforeWarm, s.requests + warmed)
        }
        results.push(r)
        process.stderr.write(
          `server CPU in the window: user ${(during.user - before.user).toFixed(2)} s, system ${(during.sys - before.sys).toFixed(2)} s; ` +
            `in the ${settle} s after it: ${(later.user + later.sys - during.user - during.sys).toFixed(2)} s more\n`
        )
        process.stderr.write(
          `characters=${r.characters} concurrency=${r.concurrency} turns/s=${r.turnsPerSecond} p50=${r.p50}ms p99=${r.p99}ms server CPU ${r.cpuPerThousand} s/1,000 turns (${r.cpuPerThousandAll} with the work left behind; ${r.requests} requests)\n`
        )
      }
    }
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
  if (values.json) process.stdout.write(JSON.stringify({ history, results }, null, 2) + "\n")
  else {
    if (history) {
      process.stdout.write(
        `One character, one client, 1,000 turns: mean ${history.firstHundredMean} ms for turns 1–100; ` +
          `mean ${history.lastHundredMean} ms, p95 ${history.lastHundredP95} ms, p99 ${history.lastHundredP99} ms for turns 901–1,000\n\n`
      )
    }
    process.stdout.write(
      "| characters | concurrent clients | turns/s | p50 ms | p99 ms | server CPU s/1,000 turns | same, with the work left behind | requests |\n|---|---|---|---|---|---|---|---|\n"
    )
    for (const r of results) {
      process.stdout.write(
        `| ${r.characters} | ${r.concurrency} | ${r.turnsPerSecond} | ${r.p50} | ${r.p99} | ${r.cpuPerThousand} | ${r.cpuPerThousandAll} | ${r.requests} |\n`
      )
    }
  }
}
