/**
 * Cluster benchmark: `/cache` throughput (durable turns per second, p50/p99 from the client) for the same
 * load against a single-process server, one cluster runner and three cluster runners on this machine, the
 * clients spread over the runners' gateways. Shard storage is SQLite (default) or, with `--postgres`, a
 * PostgreSQL the benchmark starts. Every configuration gets a fresh memory root. Besides wall-clock figures it
 * reports the servers' CPU time per acknowledged turn, which a busy shared host does not distort.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { startRunner, type Runner } from "../test/support/cluster.js"
import { startPostgres, type Postgres } from "../test/support/postgres.js"
import { startServer, type RunningServer } from "../test/support/server.js"
import { scenario, type IngestResult } from "./ingest.js"

const env = { KIOKU_ACTOR_IDLE_TTL_SECONDS: "3600", KIOKU_LOG_LEVEL: "info" }

interface Row extends IngestResult {
  readonly setup: string
  /** CPU time (user + system) all server processes spent per acknowledged turn: robust to a busy host. */
  readonly cpuMsPerTurn: number
}

/** A process's CPU time so far (Linux `/proc/PID/stat` utime + stime, 100 ticks per second). */
const cpuMs = (pid: number | undefined) => {
  const stat = readFileSync(`/proc/${pid ?? 0}/stat`, "utf8")
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
  return (Number(fields[11]) + Number(fields[12])) * 10
}

const measure = async (
  setup: string,
  start: (memory: string, shardDb: string) => Promise<ReadonlyArray<RunningServer | Runner>>,
  options: { readonly postgres: Postgres | undefined; readonly characters: number; readonly concurrency: number },
  seconds: number
): Promise<Row> => {
  const root = mkdtempSync(path.join(tmpdir(), "kioku-bench-cluster-"))
  const shardDb = options.postgres?.url ?? `sqlite:${path.join(root, "shards.db")}`
  const servers = await start(path.join(root, "memory"), shardDb)
  try {
    const ports = servers.map((s) => s.port)
    // A short warm-up loads the actors and settles the shard assignment before the measured run.
    await scenario(ports, options.characters, options.concurrency, 2)
    const cpu = () => servers.reduce((sum, s) => sum + cpuMs(s.child.pid), 0)
    const before = cpu()
    const r = await scenario(ports, options.characters, options.concurrency, seconds)
    const cpuMsPerTurn = Number(((cpu() - before) / r.requests).toFixed(2))
    process.stderr.write(
      `${setup}: turns/s=${r.turnsPerSecond} p50=${r.p50}ms p99=${r.p99}ms cpu=${cpuMsPerTurn}ms/turn\n`
    )
    return { setup, ...r, cpuMsPerTurn }
  } finally {
    await Promise.all(servers.map((s) => s.stop()))
    rmSync(root, { recursive: true, force: true })
  }
}

export const runCluster = async (args: ReadonlyArray<string>) => {
  const { values } = parseArgs({
    args: [...args],
    options: {
      seconds: { type: "string" },
      concurrency: { type: "string" },
      characters: { type: "string" },
      postgres: { type: "boolean" },
      json: { type: "boolean" }
    }
  })
  const seconds = Number(values.seconds ?? "10")
  const postgres = values.postgres === true ? await startPostgres() : undefined
  const options = {
    postgres,
    characters: Number(values.characters ?? "100"),
    concurrency: Number(values.concurrency ?? "32")
  }
  const storage = postgres === undefined ? "SQLite" : "PostgreSQL"
  const rows: Array<Row> = []
  try {
    rows.push(await measure("single process", async (memory) => [await startServer(memory, [], env)], options, seconds))
    for (const n of [1, 3]) {
      const setup = `${n} runner${n > 1 ? "s" : ""} (${storage})`
      const start = async (memory: string, shardDb: string) => {
        const runners: Array<Runner> = []
        for (let i = 0; i < n; i++) runners.push(await startRunner(memory, shardDb, env))
        return runners
      }
      rows.push(await measure(setup, start, options, seconds))
    }
  } finally {
    postgres?.stop()
  }
  if (values.json) process.stdout.write(JSON.stringify(rows, null, 2) + "\n")
  else {
    process.stdout.write(
      `${options.characters} characters, ${options.concurrency} concurrent clients, ${seconds} s each\n\n` +
        "| setup | turns/s | p50 ms | p99 ms | requests | server CPU ms/turn |\n|---|---|---|---|---|---|\n"
    )
    for (const r of rows) {
      process.stdout.write(
        `| ${r.setup} | ${r.turnsPerSecond} | ${r.p50} | ${r.p99} | ${r.requests} | ${r.cpuMsPerTurn} |\n`
      )
    }
  }
}
