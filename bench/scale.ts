/**
 * Scale benchmark: many characters in one server process. `--touch N` sends one `/cache` turn to each of N
 * new characters (32 concurrent clients) and reads the server's open descriptors (`/proc/PID/fd`) and RSS
 * right after and once the idle maintenance has had `--idle` seconds; `--disk N` plants N small character
 * directories (two facts each) before the server starts, then reports startup time, descriptors, RSS, peak RSS
 * and server CPU seconds after `--settle` seconds (the first maintenance passes run from 20 s on), twice: the
 * first start (no due-work index yet: everything due once) and `--starts` − 1 restarts (the index trusted); `--quiet-after S`
 * sets `maintenance_settle_seconds` so a short run sees characters settle. Failed requests count
 * any answer but 200 or a body with `"status":"error"`.
 */
import { Agent } from "node:http"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { setTimeout as sleep } from "node:timers/promises"
import { parseArgs } from "node:util"
import { startServer, type RunningServer } from "../test/support/server.js"
import { send } from "./Http.js"

const probe = (server: RunningServer) => {
  const pid = server.child.pid ?? 0
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? "0")
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []
  const cpuSeconds = (Number(stat[11] ?? 0) + Number(stat[12] ?? 0)) / 100
  return {
    fds: readdirSync(`/proc/${pid}/fd`).length,
    rssMb: Math.round(kb("VmRSS") / 1024),
    peakMb: Math.round(kb("VmHWM") / 1024),
    cpuSeconds
  }
}

const liveActors = async (agent: Agent, server: RunningServer) => {
  const { text } = await send(agent, server.port, "GET", "/api/memory/live_actors")
  return (text.match(/"name"/g) ?? []).length
}

const turn = (i: number) =>
  JSON.stringify({ input_history: JSON.stringify([{ role: "user", content: `Turn ${i}: I had ramen today.` }]) })

const touch = async (count: number, idleSeconds: number) => {
  const root = mkdtempSync(path.join(tmpdir(), "kioku-bench-scale-"))
  const server = await startServer(path.join(root, "memory"), [], { KIOKU_LOG_LEVEL: "info" })
  const agent = new Agent({ keepAlive: true, maxSockets: 32 })
  try {
    let next = 0
    let failed = 0
    const t0 = performance.now()
    const worker = async () => {
      for (let i = next++; i < count; i = next++) {
        const { status, text } = await send(agent, server.port, "POST", `/cache/char${i}`, turn(i))
        if (status !== 200 || text.includes('"status":"error"')) failed++
      }
    }
    await Promise.all(Array.from({ length: 32 }, worker))
    const seconds = (performance.now() - t0) / 1000
    const after = probe(server)
    const live = await liveActors(agent, server)
    await sleep(idleSeconds * 1000)
    const idle = probe(server)
    return {
      characters: count,
      failed,
      seconds: Number(seconds.toFixed(1)),
      after,
      live,
      idle,
      idleLive: await liveActors(agent, server)
    }
  } finally {
    agent.destroy()
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
}

const plant = (memory: string, count: number) => {
  const facts = (i: number) =>
    JSON.stringify([
      { id: `fact_${i}_a`, text: `Master likes tea number ${i}`, hash: `a${i}`, created_at: "2026-01-01T10:00:00" },
      { id: `fact_${i}_b`, text: `Master lives in city ${i % 97}`, hash: `b${i}`, created_at: "2026-01-02T10:00:00" }
    ])
  for (let i = 0; i < count; i++) {
    const dir = path.join(memory, `disk${i}`)
    mkdirSync(dir, { recursive: true })
    writeFileSync(path.join(dir, "facts.json"), facts(i))
  }
}

/** Starts over `memory`, waits `settle` seconds (the first passes run from 20 s on), reports. */
const startOn = async (memory: string, settle: number, env: Readonly<Record<string, string>>) => {
  const t0 = performance.now()
  const server = await startServer(memory, [], { KIOKU_LOG_LEVEL: "info", ...env })
  const startMs = Math.round(performance.now() - t0)
  const agent = new Agent({ keepAlive: true, maxSockets: 2 })
  try {
    const atStart = probe(server)
    await sleep(settle * 1000)
    return { startMs, atStart, after: probe(server), live: await liveActors(agent, server) }
  } finally {
    agent.destroy()
    await server.stop()
  }
}

const disk = async (count: number, settle: number, starts: number, env: Readonly<Record<string, string>>) => {
  const root = mkdtempSync(path.join(tmpdir(), "kioku-bench-disk-"))
  const memory = path.join(root, "memory")
  try {
    plant(memory, count)
    const runs = []
    for (let i = 0; i < starts; i++) runs.push(await startOn(memory, settle, env))
    return { characters: count, starts: runs }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

export const runScale = async (args: ReadonlyArray<string>) => {
  const { values } = parseArgs({
    args: [...args],
    options: {
      touch: { type: "string" },
      disk: { type: "string" },
      idle: { type: "string" },
      settle: { type: "string" },
      "quiet-after": { type: "string" },
      starts: { type: "string" }
    }
  })
  // `--quiet-after S` shortens maintenance_settle_seconds so a short run shows settled characters.
  const quiet = values["quiet-after"]
  const env: Record<string, string> = quiet === undefined ? {} : { KIOKU_MAINTENANCE_SETTLE_SECONDS: quiet }
  const idle = Number(values.idle ?? "75")
  const settle = Number(values.settle ?? "70")
  for (const n of (values.touch ?? (values.disk === undefined ? "2000" : "")).split(",").filter((x) => x !== ""))
    process.stdout.write(`${JSON.stringify({ touch: await touch(Number(n), idle) })}\n`)
  for (const n of (values.disk ?? "").split(",").filter((x) => x !== ""))
    process.stdout.write(
      `${JSON.stringify({ disk: await disk(Number(n), settle, Number(values.starts ?? "2"), env) })}\n`
    )
}
