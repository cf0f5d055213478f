/**
 * Helpers for cluster tests: free loopback ports, `kioku serve --cluster` runner processes (through the server
 * harness), and readers of the per-character owners logs and journals a test checks after the fact.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs"
import { createServer } from "node:net"
import * as path from "node:path"
import { Schema } from "effect"
import { OwnerEvent } from "../../src/cluster/CharacterLock.js"
import { startServer, type RunningServer } from "./server.js"

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

export interface Runner extends RunningServer {
  readonly id: string
}

/** Starts a runner on `memory` (created first: a runner never creates its shared root). */
export const startRunner = async (memory: string, shardDb: string, env: Readonly<Record<string, string>> = {}) => {
  mkdirSync(memory, { recursive: true })
  const port = await freePort()
  const id = `127.0.0.1:${port}`
  const server = await startServer(memory, ["--cluster", "--runner-address", id, "--shard-db", shardDb], env)
  const runner: Runner = { ...server, id }
  return runner
}

const decodeOwner = Schema.decodeUnknownSync(Schema.parseJson(OwnerEvent))

/** The owners log of every character that has one. */
export const ownerLogs = (memory: string): ReadonlyMap<string, ReadonlyArray<OwnerEvent>> => {
  const dir = path.join(memory, "#cluster")
  const logs = new Map<string, ReadonlyArray<OwnerEvent>>()
  if (!existsSync(dir)) return logs
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".owners.ndjson"))) {
    const lines = readFileSync(path.join(dir, file), "utf8")
      .split("\n")
      .filter((l) => l !== "")
    logs.set(
      file.slice(0, -".owners.ndjson".length),
      lines.map((l) => decodeOwner(l))
    )
  }
  return logs
}

/**
 * Checks that holds never overlap: after an `acquired`, the next event is the same runner's `released`, or
 * the holder was killed (`killed` maps a runner id to the time it died) before the next `acquired`.
 * Returns the problems found (empty when the log is clean).
 */
export const overlaps = (
  log: ReadonlyArray<OwnerEvent>,
  killed: ReadonlyMap<string, number> = new Map()
): ReadonlyArray<string> => {
  const problems: Array<string> = []
  let holder: OwnerEvent | undefined
  for (const e of log) {
    if (e.event === "released") {
      if (holder?.runner !== e.runner) problems.push(`${e.runner} released a hold it did not have`)
      holder = undefined
    } else {
      const died = holder === undefined ? undefined : killed.get(holder.runner)
      if (holder !== undefined && (died === undefined || died > e.at))
        problems.push(`${e.runner} acquired while ${holder.runner} held`)
      holder = e
    }
  }
  return problems
}

const JournalLine = Schema.parseJson(
  Schema.Struct({
    type: Schema.String,
    ts: Schema.String,
    payload: Schema.Struct({
      messages: Schema.optional(Schema.Array(Schema.Struct({ data: Schema.Struct({ content: Schema.Unknown }) })))
    })
  })
)
const decodeJournal = Schema.decodeUnknownSync(JournalLine)

/** The `turns.appended` events of a character's journal: their time (epoch ms) and message texts. */
export const journalTurns = (memory: string, name: string) => {
  const file = path.join(memory, name, "events.ndjson")
  if (!existsSync(file)) return []
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => decodeJournal(l))
    .filter((e) => e.type === "turns.appended")
    .map((e) => ({
      at: new Date(e.ts).getTime(),
      texts: (e.payload.messages ?? []).map((m) => String(m.data.content))
    }))
}

/** The holds of a log as intervals (an unreleased hold ends when its runner was killed, else never). */
export const holds = (log: ReadonlyArray<OwnerEvent>, killed: ReadonlyMap<string, number>) => {
  const out: Array<{ readonly runner: string; readonly from: number; readonly to: number }> = []
  for (const [i, e] of log.entries()) {
    if (e.event !== "acquired") continue
    const next = log[i + 1]
    const to = next?.event === "released" && next.runner === e.runner ? next.at : (killed.get(e.runner) ?? Infinity)
    out.push({ runner: e.runner, from: e.at, to })
  }
  return out
}
