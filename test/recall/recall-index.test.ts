/**
 * The derived recall index (`recall_index.db`, src/recall/RecallIndex.ts) across restarts of the in-process
 * runtime: written after the first query, it answers the first query of the next runtime with the same
 * rows as the in-memory corpus; a stale or corrupt index is not used; forgetting removes the text from it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { rewriteKeepingStamp } from "../support/facts.js"
import { boot, testSettings } from "../support/layers.js"
import type { QueryRequest, QueryResult } from "../../src/recall/RecallTypes.js"

const NAME = "Idx"
const words = ["ramen", "sushi", "tea", "coffee", "Osaka", "Tokyo", "cat", "dog", "piano", "chess", "hiking", "rain"]
const hanzi = ["喜欢拉面", "周末爬山", "养了一只猫", "在东京工作", "喝咖啡", "下雨天看书"]
const group = { subject_kind: "group_chat", subject_id: "g1", scope: "group_chat:g1" }

/** Facts with repeated words (ties on score), Chinese texts and a group-chat subject. */
const facts = (extra: ReadonlyArray<Record<string, unknown>> = []) => [
  ...Array.from({ length: 60 }, (_, i) => ({
    id: `f${i}`,
    text:
      i % 5 === 4
        ? `主人${hanzi[i % hanzi.length]}${hanzi[(i * 7) % hanzi.length]}`
        : `Master likes ${words[i % words.length]} and ${words[(i * 5) % words.length]}${i % 3 === 0 ? " on weekends" : ""}`,
    hash: `h${i}`,
    importance: 5,
    created_at: `2026-0${1 + (i % 9)}-1${i % 10}T10:00:00`,
    ...(i % 6 === 5 ? group : {})
  })),
  ...extra
]

const queries: ReadonlyArray<QueryRequest> = [
  { query: "ramen" },
  { query: "Master likes tea" },
  { query: "cat dog piano" },
  { query: "喜欢拉面" },
  { query: "东京" },
  { query: "weekends chess" },
  { query: "Tokyo sushi", subjects: [group] },
  { query: "nothing matches this" },
  { query: "zebrafish" },
  { query: "gondola ride" },
  { query: "harpsichord" }
]

const plant = (dir: string, rows: ReadonlyArray<Record<string, unknown>>) => {
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, "facts.json"), JSON.stringify(rows))
}

const withoutTime = (r: QueryResult) => ({ ...r, elapsed_ms: 0 })

/** One runtime over `settings`: the answers to `qs`, then (with `settle`) waits for the index writes. */
const session = (settings: ReturnType<typeof testSettings>, qs: ReadonlyArray<QueryRequest>, settle = true) =>
  Effect.scoped(
    Effect.gen(function* () {
      const memory = yield* boot(settings)
      const out: Array<QueryResult> = []
      for (const q of qs) out.push(withoutTime(yield* memory.queryMemory(NAME, q)))
      if (settle) yield* memory.awaitBackground(NAME)
      return out
    })
  )

const setup = () => {
  const settings = testSettings({ recall_turn_tier: false })
  const dir = path.join(settings.dataDir, NAME)
  return { settings, dir, index: path.join(dir, "recall_index.db") }
}

describe("recall index", () => {
  it.scoped("answers the first query after a restart with the rows of the in-memory corpus", () =>
    Effect.gen(function* () {
      const { settings, dir, index } = setup()
      plant(dir, facts())
      // Reflections and archived facts too: their pool orders lie far above the facts' (a tier's rank times 2^40).
      const at = { created_at: "2026-04-01T10:00:00", entity: "master" }
      const reflections = [
        { id: "r1", text: "Master seems to love zebrafish and tea", status: "pending", ...at },
        { id: "r2", text: "Master relaxes with a gondola ride", status: "confirmed", ...at }
      ]
      writeFileSync(path.join(dir, "reflections.json"), JSON.stringify(reflections))
      const archived = [
        { id: "a1", text: "Master once played the harpsichord in Osaka", hash: "ha", importance: 5, ...at }
      ]
      writeFileSync(path.join(dir, "facts_archive.json"), JSON.stringify(archived))
      const warm = yield* session(settings, queries)
      assert.includeMembers(
        warm.flatMap((r) => r.results.map((x) => x.id)),
        ["r1", "r2", "a1"]
      )
      assert.isTrue(existsSync(index))
      assert.isAbove(warm[0]?.results.length ?? 0, 1)
      assert.strictEqual(warm[6]?.results[0]?.scope, "group_chat:g1")
      // Each query alone first in a fresh runtime: answered from the index, as the corpus would.
      for (const [i, q] of queries.entries()) {
        const [cold, held] = yield* Effect.scoped(
          Effect.gen(function* () {
            const memory = yield* boot(settings)
            const answer = withoutTime(yield* memory.queryMemory(NAME, q))
            return [answer, (yield* memory.status(NAME)).viewsHeld] as const
          })
        )
        assert.deepStrictEqual(cold, warm[i])
        assert.isFalse(held, "answered from the index, not from the files")
      }
    })
  )

  it.scoped("is used while the sources' stamps are unchanged, and ignored once facts.json changed", () =>
    Effect.gen(function* () {
      const { settings, dir } = setup()
      const file = path.join(dir, "facts.json")
      plant(dir, facts())
      const stamp = new Date(2026, 0, 1)
      utimesSync(file, stamp, stamp)
      yield* session(settings, [{ query: "ramen" }])
      // Same inode, size and mtime, another text: only the index still knows "ramen" for f0.
      const { before, after } = rewriteKeepingStamp(file, (text) => text.replaceAll("ramen", "noodl"), stamp)
      assert.deepStrictEqual(after, before)
      const [fromIndex] = yield* session(settings, [{ query: "ramen" }], false)
      assert.strictEqual(fromIndex?.results[0]?.text.includes("ramen"), true)
      // A new mtime: the index is stale, the files answer (and the index is written again).
      utimesSync(file, new Date(2026, 0, 2), new Date(2026, 0, 2))
      const [fromFiles, noodl] = yield* session(settings, [{ query: "ramen" }, { query: "noodl" }])
      assert.deepStrictEqual(fromFiles?.results, [])
      assert.isAbove(noodl?.results.length ?? 0, 0)
      const [again] = yield* session(settings, [{ query: "noodl" }], false)
      assert.deepStrictEqual(again, noodl)
    })
  )

  it.scoped("ignores a new fact written after the index, and a corrupt index file", () =>
    Effect.gen(function* () {
      const { settings, dir, index } = setup()
      plant(dir, facts())
      yield* session(settings, [{ query: "tea" }])
      plant(
        dir,
        facts([
          { id: "new", text: "Master adores matcha", hash: "hn", importance: 5, created_at: "2026-02-01T10:00:00" }
        ])
      )
      const [matcha] = yield* session(settings, [{ query: "matcha" }])
      assert.deepStrictEqual(
        matcha?.results.map((r) => r.id),
        ["new"]
      )
      writeFileSync(index, "this is not a database, only bytes")
      const [tea] = yield* session(settings, [{ query: "tea" }])
      const [teaAgain] = yield* session(settings, [{ query: "tea" }], false)
      assert.isAbove(tea?.results.length ?? 0, 0)
      assert.deepStrictEqual(teaAgain, tea)
      assert.include(readFileSync(index).toString("latin1"), "SQLite format 3")
    })
  )

  it.scoped("takes a change of a warm corpus into the same file, then answers as the corpus did", () =>
    Effect.gen(function* () {
      const { settings, dir, index } = setup()
      plant(dir, facts())
      const extra = {
        id: "late",
        text: "Master now collects tea cups",
        hash: "hl",
        importance: 5,
        created_at: "2026-03-01T10:00:00"
      }
      const warm = yield* Effect.scoped(
        Effect.gen(function* () {
          const memory = yield* boot(settings)
          yield* memory.queryMemory(NAME, { query: "tea" })
          yield* memory.awaitBackground(NAME)
          const inode = statSync(index).ino
          plant(
            dir,
            facts([extra]).filter((f) => f.id !== "f3")
          )
          const answer = withoutTime(yield* memory.queryMemory(NAME, { query: "tea cups" }))
          yield* memory.awaitBackground(NAME)
          // Applied in place (a whole rewrite renames a new file over it).
          assert.strictEqual(statSync(index).ino, inode)
          return answer
        })
      )
      assert.strictEqual(warm.results[0]?.id, "late")
      const [cold] = yield* session(settings, [{ query: "tea cups" }], false)
      assert.deepStrictEqual(cold, warm)
    })
  )

  it.scoped("forgetting a fact removes its text from the index file, cold or warm", () =>
    Effect.gen(function* () {
      const { settings, dir, index } = setup()
      const at = { importance: 5, created_at: "2026-02-01T10:00:00" }
      const secret = { id: "secret", text: "Master hides zanzibarquux under the floor", hash: "hs", ...at }
      const other = { id: "other", text: "Master keeps qwertyplugh in a drawer", hash: "ho", ...at }
      plant(dir, facts([secret, other]))
      yield* session(settings, [{ query: "zanzibarquux" }])
      const bytes = () =>
        ["", "-wal", "-shm", ".tmp"]
          .map((s) => (existsSync(index + s) ? readFileSync(index + s).toString("utf8") : ""))
          .join()
      assert.include(bytes(), "zanzibarquux")
      yield* Effect.scoped(
        Effect.gen(function* () {
          const memory = yield* boot(settings)
          // Answered from the index (the corpus is not built), then forgotten: the text leaves at once.
          const cold = yield* memory.queryMemory(NAME, { query: "zanzibarquux" })
          assert.deepStrictEqual(
            cold.results.map((r) => r.id),
            ["secret"]
          )
          yield* memory.manualAction(NAME, { kind: "fact", id: "secret", action: "forget" })
          assert.notInclude(bytes(), "zanzibarquux")
          assert.deepStrictEqual((yield* memory.queryMemory(NAME, { query: "zanzibarquux floor" })).results, [])
          yield* memory.awaitBackground(NAME)
          assert.isTrue(existsSync(index))
          // Warm: the corpus is built; a forget again leaves no trace in the index written after it.
          yield* memory.manualAction(NAME, { kind: "fact", id: "other", action: "forget" })
          assert.deepStrictEqual((yield* memory.queryMemory(NAME, { query: "qwertyplugh" })).results, [])
          yield* memory.awaitBackground(NAME)
        })
      )
      assert.isTrue(existsSync(index))
      assert.notInclude(bytes(), "zanzibarquux")
      assert.notInclude(bytes(), "qwertyplugh")
      assert.include(bytes(), "weekends")
    })
  )
})
