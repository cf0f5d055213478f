/**
 * `kioku demo [--data-dir DIR] [--language en|ja|zh]`: memory at work in under a minute, offline. A demo
 * character hears a scripted companion chat over three days (DemoScripts.ts) through the library, maintenance
 * runs once, and the command prints, with a progress line per step, the facts extracted, the reflections formed,
 * the `/new_dialog` context and two recalls (one by meaning, one by time), then how to open the memory browser on
 * that data. The data directory is the demo's own (default ./kioku-demo/memory); one that already holds the demo
 * character is refused rather than mixed into.
 */
import { Clock, Effect } from "effect"
import { existsSync } from "node:fs"
import * as path from "node:path"
import { createMemoryRuntime, makeHostClock, type MemoryRuntime } from "../lib.js"
import * as Export from "../ops/Export.js"
import type { QueryResult } from "../recall/RecallTypes.js"
import { parse, UsageError } from "./Args.js"
import { demoScripts } from "./DemoScripts.js"

const DAY = 86_400_000
const say = (line: string) => Effect.sync(() => process.stdout.write(line + "\n"))
const step = (n: number, of: number, what: string) => say(`[${n}/${of}] ${what}`)

const rows = (r: QueryResult) =>
  r.results.length === 0 ? ["  (nothing found)"] : r.results.slice(0, 5).map((row) => `  - [${row.tier}] ${row.text}`)

export const demo = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const { values } = yield* parse(args, { "data-dir": { type: "string" }, language: { type: "string" } })
    const language = values.language ?? "en"
    if (language !== "en" && language !== "ja" && language !== "zh")
      return yield* new UsageError({ message: "--language takes en, ja or zh" })
    const script = demoScripts[language]
    const dataDir = path.resolve(values["data-dir"] ?? "./kioku-demo/memory")
    const name = script.character
    if (existsSync(path.join(dataDir, name)))
      return yield* new UsageError({
        message: `${path.join(dataDir, name)} already holds the demo; pass another --data-dir`
      })
    const today = new Date(yield* Clock.currentTimeMillis)
    today.setHours(20, 0, 0, 0)
    const clock = makeHostClock(today.getTime() - 7 * DAY)
    const total = script.sessions.length + 5
    yield* step(
      1,
      total,
      `starting kioku on ${dataDir} (offline: the local provider unless a model or GGUF file is configured; built-in English vectors)`
    )
    const memory: MemoryRuntime = yield* Effect.promise(() =>
      createMemoryRuntime({ dataDir, clock, backgroundMaintenance: false, config: { master_name: script.master } })
    )
    const run = <A>(f: () => Promise<A>) => Effect.promise(f)
    yield* Effect.ensuring(
      Effect.gen(function* () {
        let n = 1
        for (const session of script.sessions) {
          clock.setTime(today.getTime() - session.daysAgo * DAY)
          yield* step(
            ++n,
            total,
            `${session.daysAgo === 0 ? "today" : session.daysAgo === 1 ? "yesterday" : `${session.daysAgo} days ago`}: ${session.turns.length} turns`
          )
          for (const [user, ai] of session.turns) {
            yield* run(() =>
              memory.cache(name, {
                messages: [
                  { role: "user", content: user },
                  { role: "assistant", content: ai }
                ]
              })
            )
            clock.advance(60_000)
          }
          yield* run(() => memory.settle(name, { messages: [] }))
        }
        yield* step(
          ++n,
          total,
          "maintenance: fact extraction, memo, reflections, vectors (the model loads on first use)"
        )
        yield* run(() => memory.maintainNow(name))
        yield* run(() => memory.maintainNow(name))
        yield* step(++n, total, "reading what the character remembers")
        const doc = yield* Export.exportCharacter({
          dataDir,
          name,
          maxPerShard: 500,
          now: clock.now()
        })
        yield* say(`\nFacts (${doc.facts.length}):`)
        for (const f of doc.facts) yield* say(`  - ${f.text}  (importance ${f.importance})`)
        yield* say(`\nReflections (${doc.reflections.length}):`)
        for (const r of doc.reflections) yield* say(`  - ${r.text}  (${r.status})`)
        if (doc.reflections.length === 0) yield* say("  (none yet)")
        yield* step(++n, total, "building the /new_dialog context and recalling")
        const dialog = yield* run(() => memory.newDialog(name))
        yield* say(
          `\n/new_dialog:\n${dialog
            .trim()
            .split("\n")
            .map((l) => `  | ${l}`)
            .join("\n")}`
        )
        const meaning = yield* run(() => memory.queryMemory(name, { query: script.byMeaning }))
        yield* say(`\nRecall by meaning, "${script.byMeaning}":\n${rows(meaning).join("\n")}`)
        const byTime = yield* run(() => memory.queryMemory(name, { time: script.byTime }))
        yield* say(`\nRecall by time, "${script.byTime}":\n${rows(byTime).join("\n")}`)
        yield* step(++n, total, "done")
        yield* say(
          `\nSee it in the memory browser:\n  node dist/kioku.mjs serve --data-dir ${JSON.stringify(dataDir)}\n` +
            `  then open http://127.0.0.1:48912/memory_browser?character=${encodeURIComponent(name)}`
        )
      }),
      Effect.promise(() => memory.close())
    )
  })
