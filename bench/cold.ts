/**
 * Cold-start benchmark: the first `POST /query_memory` and the first `GET /new_dialog` of a character whose
 * `facts.json` holds 1,000 / 10,000 / 100,000 synthetic facts (the recall benchmark's corpus), each against a
 * freshly started server binary, so nothing of the character is loaded yet. Also, while a 100k-fact character
 * loads, how long a `/last_conversation_gap` of another character takes (a load must not block others).
 */
import { Agent } from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { startServer } from "../test/support/server.js"
import { send } from "./Http.js"
import { plantFacts } from "./recall.js"

export interface ColdResult {
  readonly facts: number
  readonly queryMs: ReadonlyArray<number>
  readonly dialogMs: ReadonlyArray<number>
  readonly otherMs: ReadonlyArray<number>
}

const timedRequest = async (agent: Agent, port: number, method: string, route: string, body?: string) => {
  const t0 = performance.now()
  const { status, text } = await send(agent, port, method, route, body)
  if (status !== 200) throw new Error(`${route}: status ${status} ${text.slice(0, 200)}`)
  return Number((performance.now() - t0).toFixed(1))
}

/** One server run: first query of `Q`, first dialog of `D`, and a small character's request during `Q`'s load. */
const once = async (count: number) => {
  const root = mkdtempSync(path.join(tmpdir(), "kioku-bench-cold-"))
  const memory = path.join(root, "memory")
  plantFacts(path.join(memory, "Q"), count)
  plantFacts(path.join(memory, "D"), count)
  plantFacts(path.join(memory, "Other"), 10)
  const server = await startServer(memory, [], { KIOKU_LOG_LEVEL: "info" })
  const agent = new Agent({ keepAlive: true, maxSockets: 4 })
  try {
    await timedRequest(agent, server.port, "GET", "/last_conversation_gap/Other")
    const query = timedRequest(agent, server.port, "POST", "/query_memory/Q", JSON.stringify({ query: "kari moten" }))
    const other = timedRequest(agent, server.port, "GET", "/last_conversation_gap/Other")
    const [queryMs, otherMs] = await Promise.all([query, other])
    const dialogMs = await timedRequest(agent, server.port, "GET", "/new_dialog/D")
    return { queryMs, dialogMs, otherMs }
  } finally {
    agent.destroy()
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
}

export const runCold = async (args: ReadonlyArray<string>) => {
  const { values } = parseArgs({
    args: [...args],
    options: { facts: { type: "string" }, runs: { type: "string" }, json: { type: "boolean" } }
  })
  const counts = (values.facts ?? "1000,10000,100000").split(",").map(Number)
  const runs = Number(values.runs ?? "3")
  const results: Array<ColdResult> = []
  for (const facts of counts) {
    const samples = []
    for (let i = 0; i < runs; i++) samples.push(await once(facts))
    const r = {
      facts,
      queryMs: samples.map((s) => s.queryMs),
      dialogMs: samples.map((s) => s.dialogMs),
      otherMs: samples.map((s) => s.otherMs)
    }
    results.push(r)
    process.stderr.write(`${JSON.stringify(r)}\n`)
  }
  if (values.json) return void process.stdout.write(JSON.stringify(results, null, 2) + "\n")
  const cell = (xs: ReadonlyArray<number>) => xs.join(" / ")
  process.stdout.write(
    `first request of a character after start, ms (each of ${runs} runs)\n\n` +
      "| facts | first /query_memory | first /new_dialog | another character during the load |\n|---|---|---|---|\n"
  )
  for (const r of results)
    process.stdout.write(
      `| ${r.facts.toLocaleString("en")} | ${cell(r.queryMs)} | ${cell(r.dialogMs)} | ${cell(r.otherMs)} |\n`
    )
}
