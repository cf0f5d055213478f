/**
 * Extraction benchmark: LoCoMo turns (from ../shared/bench/locomo10.json, read at run time, never copied)
 * written through the library with powerful memory off, so each turn's `extract_facts` op runs the
 * `local` provider's extraction and journals the facts; `maintainNow` drains them and is timed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { Effect } from "effect"
import { createMemoryRuntime } from "../src/lib.js"
import { loadEnglish } from "../src/domain/EnglishNlp.js"
import { extractFacts } from "../src/facts/local/LocalFacts.js"

interface Turn {
  readonly speaker: string
  readonly text: string
}

const locomoTurns = (file: string, limit: number): Array<Turn> => {
  const data: unknown = JSON.parse(readFileSync(file, "utf8"))
  const out: Array<Turn> = []
  for (const sample of Array.isArray(data) ? data : []) {
    const conversation: Record<string, unknown> = sample?.conversation ?? {}
    for (const [key, value] of Object.entries(conversation)) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(value)) continue
      for (const t of value) {
        if (typeof t?.speaker === "string" && typeof t?.text === "string")
          out.push({ speaker: t.speaker, text: t.text })
        if (out.length >= limit) return out
      }
    }
  }
  return out
}

export const runExtract = async (args: ReadonlyArray<string>) => {
  const { values } = parseArgs({
    args: [...args],
    options: { turns: { type: "string" }, data: { type: "string" } }
  })
  const file = path.resolve(values.data ?? "../shared/bench/locomo10.json")
  const turns = locomoTurns(file, Number(values.turns ?? "2000"))
  const root = mkdtempSync(path.join(tmpdir(), "kioku-bench-extract-"))
  mkdirSync(path.join(root, "config"))
  writeFileSync(path.join(root, "config", "core_config.json"), JSON.stringify({ powerful_memory_enabled: false }))
  const english = await Effect.runPromise(loadEnglish)
  const names = { master: "Master", character: "Tian" }
  const rawStart = performance.now()
  const raw = extractFacts(
    turns.map((t) => ({ speaker: "human" as const, text: t.text })),
    names,
    english
  ).length
  const rawSeconds = (performance.now() - rawStart) / 1000
  process.stdout.write(
    `local extraction alone: ${turns.length} LoCoMo turns → ${raw} facts in ${rawSeconds.toFixed(2)} s ` +
      `(${Math.round(turns.length / rawSeconds)} turns/s, ${Math.round(raw / rawSeconds)} facts/s)\n`
  )
  const memory = await createMemoryRuntime({ dataDir: path.join(root, "memory"), logLevel: "error" })
  try {
    const started = performance.now()
    for (let i = 0; i < turns.length; i += 20) {
      const batch = turns.slice(i, i + 20)
      await Promise.all(
        batch.map((t, k) => memory.cache(`c${(i + k) % 4}`, { messages: [{ role: "user", content: `${t.text}` }] }))
      )
    }
    for (let c = 0; c < 4; c++) await memory.maintainNow(`c${c}`)
    const seconds = (performance.now() - started) / 1000
    let facts = 0
    for (let c = 0; c < 4; c++) {
      const parsed: unknown = JSON.parse(readFileSync(path.join(root, "memory", `c${c}`, "facts.json"), "utf8"))
      facts += Array.isArray(parsed) ? parsed.length : 0
    }
    const line =
      `end to end (cache → outbox → extraction → journaled facts.json): ${turns.length} turns → ${facts} facts in ` +
      `${seconds.toFixed(2)} s (${Math.round(turns.length / seconds)} turns/s, ${Math.round(facts / seconds)} facts/s)`
    process.stdout.write(line + "\n")
  } finally {
    await memory.close()
    rmSync(root, { recursive: true, force: true })
  }
}
