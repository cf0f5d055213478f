/**
 * Cold-start benchmark: the first `POST /query_memory` and the first `GET /new_dialog` of a character whose
 * `facts.json` holds 1,000 / 10,000 / 100,000 synthetic facts (the recall benchmark's corpus), each against a
 * freshly started server binary, so nothing of the character is loaded yet. Each run starts the server twice
 * on the same files: first without `recall_index.db` (the query builds the in-memory corpus; the time until
 * the index file appears after that answer is reported too), then again with the index the first start wrote.
 * Also, while the character loads, how long a `/last_conversation_gap` of another character takes (a load
 * must not block others). `--vectors` runs both starts with vectors on (the shared default model, as a
 * deployment has them by default): the first start also waits until the backfill has a vector for every fact of
 * the queried character (its first query loaded it) and until the server packed them into `recall_index.db` (it
 * does once the backfill settles), so the second start's first query finds `vectors.db` filled and the pack fresh.
 * `--log FILE` appends each server's log, at debug level, to FILE.
 */
import { Agent } from "node:http"
import Database from "better-sqlite3"
import { appendFileSync, existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { startServer, vectorEnv } from "../test/support/server.js"
import { send } from "./Http.js"
import { plantFacts } from "./recall.js"

export interface ColdResult {
  readonly facts: number
  /** The process's first query, of the small character (before the timed ones). */
  readonly processMs: ReadonlyArray<number>
  /** First query without an index (first start). */
  readonly queryMs: ReadonlyArray<number>
  /** From that answer until `recall_index.db` exists. */
  readonly indexMs: ReadonlyArray<number>
  /** First query after a restart, with the index. */
  readonly indexedQueryMs: ReadonlyArray<number>
  readonly dialogMs: ReadonlyArray<number>
  readonly otherMs: ReadonlyArray<number>
  readonly indexedOtherMs: ReadonlyArray<number>
}

const timedRequest = async (agent: Agent, port: number, method: string, route: string, body?: string) => {
  const t0 = performance.now()
  const { status, text } = await send(agent, port, method, route, body)
  if (status !== 200) throw new Error(`${route}: status ${status} ${text.slice(0, 200)}`)
  return Number((performance.now() - t0).toFixed(1))
}

/** Milliseconds until `file` exists; NaN when it does not within `limitMs` (a server without the index). */
const waitForFile = async (file: string, limitMs: number) => {
  const t0 = performance.now()
  while (!existsSync(file)) {
    if (performance.now() - t0 > limitMs) return Number.NaN
    await new Promise((done) => setTimeout(done, 20))
  }
  return Number((performance.now() - t0).toFixed(0))
}

/** The number a counting query answers on a SQLite file (0 while the file or its table does not exist). */
const countIn = (file: string, sql: string) => {
  if (!existsSync(file)) return 0
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const row: unknown = db.prepare(sql).get()
    return typeof row === "object" && row !== null && "n" in row && typeof row.n === "number" ? row.n : 0
  } catch {
    return 0
  } finally {
    db.close()
  }
}

/** Rows of a character's `vectors.db`. */
const vectorRows = (file: string) => countIn(file, "SELECT COUNT(*) AS n FROM vectors")

/** Vectors in the packed copy of `recall_index.db`. */
const packedRows = (file: string) => countIn(file, "SELECT COALESCE(SUM(length(ords)), 0) / 4 AS n FROM vecs")

/**
 * Waits (up to `limitMs`) until the index's packed vectors are all of `vectors.db`'s and stay so for 2.5 s (the
 * backfill ticks every second, so a pack a query wrote halfway through it does not count); answers how many.
 */
const untilPacked = async (index: string, vectors: string, limitMs: number) => {
  const t0 = performance.now()
  let since: number | undefined
  for (;;) {
    const count = packedRows(index)
    const whole = count > 0 && count === vectorRows(vectors)
    since = whole ? (since ?? performance.now()) : undefined
    if (since !== undefined && performance.now() - since >= 2500) return count
    if (performance.now() - t0 > limitMs) throw new Error(`no packed vectors in ${limitMs} ms`)
    await new Promise((done) => setTimeout(done, 250))
  }
}

/** One server start: first query of `Q` with a small character's request during it, first dialog of `D`. */
const start = async (
  memory: string,
  afterQuery: () => Promise<number>,
  env: Readonly<Record<string, string>>,
  log: string | undefined
) => {
  const server = await startServer(memory, [], { KIOKU_LOG_LEVEL: log === undefined ? "info" : "debug", ...env })
  if (env["KIOKU_VECTORS_ENABLED"] === "true") await server.waitFor(/embedding model ready/)
  const agent = new Agent({ keepAlive: true, maxSockets: 4 })
  try {
    await timedRequest(agent, server.port, "GET", "/last_conversation_gap/Other")
    // The process's first query (of the small character) pays the per-process costs: the folding dictionaries,
    // the concept tables, the token counter loaded in the background at start. Not the big character's.
    const processMs = await timedRequest(agent, server.port, "POST", "/query_memory/Other", '{"query":"kari"}')
    const query = timedRequest(agent, server.port, "POST", "/query_memory/Q", JSON.stringify({ query: "kari moten" }))
    const other = timedRequest(agent, server.port, "GET", "/last_conversation_gap/Other")
    const [queryMs, otherMs] = await Promise.all([query, other])
    const indexMs = await afterQuery()
    const dialogMs = await timedRequest(agent, server.port, "GET", "/new_dialog/D")
    return { processMs, queryMs, otherMs, indexMs, dialogMs }
  } finally {
    agent.destroy()
    await server.stop()
    if (log !== undefined) appendFileSync(log, server.output())
  }
}

/** Two starts on the same files: without the recall index, then with the one the first start wrote. */
const once = async (
  count: number,
  indexWaitMs: number,
  env: Readonly<Record<string, string>>,
  log: string | undefined
) => {
  const root = mkdtempSync(path.join(tmpdir(), "kioku-bench-cold-"))
  const memory = path.join(root, "memory")
  plantFacts(path.join(memory, "Q"), count)
  plantFacts(path.join(memory, "D"), count)
  plantFacts(path.join(memory, "Other"), 10)
  try {
    const index = path.join(memory, "Q", "recall_index.db")
    const vectors = path.join(memory, "Q", "vectors.db")
    const first = await start(
      memory,
      async () => {
        const ms = await waitForFile(index, indexWaitMs)
        if (env["KIOKU_VECTORS_ENABLED"] === "true") {
          // The pack is written when a backfill tick leaves no vector to make (the default model embeds what it
          // serves — the English facts — and skips the rest), so its arrival is the end of the backfill.
          process.stderr.write(`packed vectors: ${await untilPacked(index, vectors, indexWaitMs)}\n`)
        }
        return ms
      },
      env,
      log
    )
    const second = await start(memory, async () => 0, env, log)
    return { ...first, indexedQueryMs: second.queryMs, indexedOtherMs: second.otherMs }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

export const runCold = async (args: ReadonlyArray<string>) => {
  const { values } = parseArgs({
    args: [...args],
    options: {
      facts: { type: "string" },
      runs: { type: "string" },
      json: { type: "boolean" },
      "index-wait": { type: "string" },
      vectors: { type: "boolean" },
      log: { type: "string" }
    }
  })
  const counts = (values.facts ?? "1000,10000,100000").split(",").map(Number)
  const runs = Number(values.runs ?? "3")
  const indexWaitMs = Number(values["index-wait"] ?? "300000")
  // Backfill paced for the bench (a deployment embeds 64 entries per tick, one tick every poll interval).
  const backfill = { KIOKU_EMBEDDING_MAX_ENTRIES_PER_TICK: "500", KIOKU_EMBEDDING_ACTIVE_POLL_SECONDS: "1" }
  const env = values.vectors === true ? { ...(await vectorEnv()), ...backfill } : {}
  const results: Array<ColdResult> = []
  for (const facts of counts) {
    const samples = []
    for (let i = 0; i < runs; i++) samples.push(await once(facts, indexWaitMs, env, values.log))
    const r: ColdResult = {
      facts,
      processMs: samples.map((s) => s.processMs),
      queryMs: samples.map((s) => s.queryMs),
      indexMs: samples.map((s) => s.indexMs),
      indexedQueryMs: samples.map((s) => s.indexedQueryMs),
      dialogMs: samples.map((s) => s.dialogMs),
      otherMs: samples.map((s) => s.otherMs),
      indexedOtherMs: samples.map((s) => s.indexedOtherMs)
    }
    results.push(r)
    process.stderr.write(`${JSON.stringify(r)}\n`)
  }
  if (values.json) return void process.stdout.write(JSON.stringify(results, null, 2) + "\n")
  const cell = (xs: ReadonlyArray<number>) => xs.join(" / ")
  process.stdout.write(
    `first request of a character after start, ms (each of ${runs} runs)\n\n` +
      "| facts | process's first query (10 facts) | first /query_memory, no index | index written after | first /query_memory, with index | " +
      "first /new_dialog | another character during the load (no index / with index) |\n|---|---|---|---|---|---|---|\n"
  )
  for (const r of results)
    process.stdout.write(
      `| ${r.facts.toLocaleString("en")} | ${cell(r.processMs)} | ${cell(r.queryMs)} | ${cell(r.indexMs)} | ${cell(r.indexedQueryMs)} | ` +
        `${cell(r.dialogMs)} | ${cell(r.otherMs)} — ${cell(r.indexedOtherMs)} |\n`
    )
}
