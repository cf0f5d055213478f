/**
 * The recall index kept up to date without the in-memory corpus (src/recall/index/IndexFollow.ts): files changed
 * while a character's corpus was not built (a turn's extracted facts, a rewrite from outside) are taken into
 * `recall_index.db` when the idle actor releases its views or the runtime stops, in place, so the next runtime's
 * first query answers from the index exactly as a corpus built from the files does; a rewrite that changes nothing
 * recall reads carries the packed vectors over.
 */
import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { Effect, Layer, TestClock } from "effect"
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { CharacterRegistry } from "../../src/character/CharacterRegistry.js"
import { CharacterName } from "../../src/domain/CharacterName.js"
import { MemoryService } from "../../src/MemoryService.js"
import type { QueryRequest, QueryResult } from "../../src/recall/RecallTypes.js"
import * as Db from "../../src/recall/index/RecallIndexDb.js"
import { packKey } from "../../src/recall/index/VectorPack.js"
import { testRuntime } from "../support/layers.js"
import type { StoreError } from "../../src/store/DurableFs.js"

const NAME = CharacterName.make("Follow")
const at = { importance: 5, created_at: "2026-02-01T10:00:00" }
const words = ["ramen", "tea", "piano", "chess", "Osaka", "rain", "cat", "hiking"]
const base = Array.from({ length: 40 }, (_, i) => ({
  id: `f${i}`,
  text: `Master likes ${words[i % words.length]} and ${words[(i * 3) % words.length]}`,
  hash: `h${i}`,
  ...at
}))

const queries: ReadonlyArray<QueryRequest> = [
  { query: "ramen tea" },
  { query: "matcha" },
  { query: "piano chess" },
  { query: "quokka" },
  { query: "Reykjavik" }
]

const turn = "My sister moved to Reykjavik last spring."

const plain = (r: QueryResult) => ({ ...r, elapsed_ms: 0 })

const runtime = () => testRuntime({ tunables: { recall_turn_tier: false, actor_view_release_seconds: 300 } })

const plant = (dir: string, rows: ReadonlyArray<Record<string, unknown>>) => {
  mkdirSync(dir, { recursive: true })
  writeFileSync(path.join(dir, "facts.json"), JSON.stringify(rows))
}

/** One runtime on `rt`'s files: `body` with the memory service and a way to run the idle release. */
const session = <A, E>(
  rt: ReturnType<typeof runtime>,
  body: (memory: typeof MemoryService.Service, release: Effect.Effect<void, unknown>) => Effect.Effect<A, E>
) =>
  Effect.scoped(
    Effect.gen(function* () {
      const ctx = yield* Layer.build(rt.layer)
      const registry = yield* Effect.provide(CharacterRegistry, ctx)
      const memory = yield* Effect.provide(MemoryService, ctx)
      const quiet = registry.ask<void, StoreError>(NAME, (reply) => ({ _tag: "AwaitBackground", reply }))
      const release = Effect.gen(function* () {
        yield* quiet
        yield* TestClock.adjust("6 minutes")
        yield* registry.tell(NAME, { _tag: "ReleaseHandles" })
        yield* quiet
        assert.include(yield* memory.status(NAME), { viewsHeld: false })
        // The index writes run in the background; AwaitBackground answers once they are done.
        yield* quiet
      })
      return yield* body(memory, release)
    })
  )

const answers = (memory: typeof MemoryService.Service) =>
  Effect.forEach(queries, (q) => Effect.map(memory.queryMemory(NAME, q), plain))

/** The answers of a start that does not build the corpus: the views stay unread. */
const fromIndex = (memory: typeof MemoryService.Service) =>
  Effect.gen(function* () {
    const out = yield* answers(memory)
    assert.include(yield* memory.status(NAME), { viewsHeld: false }, "answered from the index")
    return out
  })

describe("recall index followed without the corpus", () => {
  it.scoped(
    "takes a turn's facts and an outside rewrite in place at the idle release; the next start answers from it",
    () =>
      Effect.gen(function* () {
        const rt = runtime()
        const dir = path.join(rt.settings.dataDir, NAME)
        const index = path.join(dir, "recall_index.db")
        plant(dir, base)
        yield* session(rt, (memory) =>
          Effect.zipRight(memory.queryMemory(NAME, { query: "tea" }), memory.awaitBackground(NAME))
        )
        assert.isTrue(existsSync(index))
        const inode = statSync(index).ino
        // From outside, while nothing runs: a new fact, a removed one, a changed text, a field recall does not read.
        const rows = base
          .filter((f) => f.id !== "f5")
          .map((f) => (f.id === "f2" ? { ...f, text: "Master now plays quokka chess" } : f))
          .map((f) => (f.id === "f7" ? { ...f, absorbed: true } : f))
        plant(dir, [...rows, { id: "new", text: "Master drinks matcha with ramen", hash: "hn", ...at }])
        yield* session(rt, (memory, release) =>
          Effect.gen(function* () {
            // A turn through the runtime: its facts are extracted into facts.json; no query ran.
            yield* memory.write("cache", NAME, { messages: [{ role: "user", content: turn }] })
            yield* release
          })
        )
        assert.strictEqual(statSync(index).ino, inode, "updated in place, not rebuilt")
        // From the index (the next start does not build the corpus: the views stay unread) …
        const cold = yield* session(rt, fromIndex)
        // … as from the files.
        rmSync(index)
        const warm = yield* session(rt, answers)
        assert.deepStrictEqual(cold, warm)
        assert.strictEqual(cold[1]?.results[0]?.id, "new")
        assert.strictEqual(cold[3]?.results[0]?.id, "f2")
        assert.include(cold[4]?.results[0]?.text ?? "", "Reykjavik", "the extracted fact")
        assert.notInclude(
          cold.flatMap((r) => r.results.map((x) => x.id)),
          "f5"
        )
      })
  )

  it.scoped("takes a turn's facts into the index when the runtime stops, so the next start answers from it", () =>
    Effect.gen(function* () {
      const rt = runtime()
      const dir = path.join(rt.settings.dataDir, NAME)
      plant(dir, base)
      yield* session(rt, (memory) =>
        Effect.zipRight(memory.queryMemory(NAME, { query: "tea" }), memory.awaitBackground(NAME))
      )
      yield* session(rt, (memory) =>
        Effect.gen(function* () {
          yield* memory.write("cache", NAME, { messages: [{ role: "user", content: turn }] })
          // Long enough for the turn's extraction, well before the views' idle release.
          yield* TestClock.adjust("2 minutes")
          yield* memory.awaitBackground(NAME)
          assert.include(yield* memory.status(NAME), { viewsHeld: true })
        })
      )
      const cold = yield* session(rt, fromIndex)
      assert.include(cold[4]?.results[0]?.text ?? "", "Reykjavik", "the extracted fact")
      rmSync(path.join(dir, "recall_index.db"))
      assert.deepStrictEqual(cold, yield* session(rt, answers))
    })
  )

  it.scoped("brings a stale index up to date in place for a start's first query, and answers as the files", () =>
    Effect.gen(function* () {
      const rt = runtime()
      const dir = path.join(rt.settings.dataDir, NAME)
      const index = path.join(dir, "recall_index.db")
      plant(dir, base)
      yield* session(rt, (memory) =>
        Effect.zipRight(memory.queryMemory(NAME, { query: "tea" }), memory.awaitBackground(NAME))
      )
      const inode = statSync(index).ino
      // Written while the server was down (or after its last release): the index is stale at the next start.
      plant(dir, [...base, { id: "new", text: "Master drinks matcha with ramen", hash: "hn", ...at }])
      const cold = yield* session(rt, (memory) => Effect.zipLeft(answers(memory), memory.awaitBackground(NAME)))
      assert.strictEqual(statSync(index).ino, inode, "caught up in place, no corpus rebuilt and rewritten")
      assert.strictEqual(cold[1]?.results[0]?.id, "new")
      rmSync(index)
      assert.deepStrictEqual(cold, yield* session(rt, answers))
    })
  )

  it.scoped("carries the packed vectors over a rewrite that changes nothing recall reads, not over one that does", () =>
    Effect.gen(function* () {
      const rt = runtime()
      const dir = path.join(rt.settings.dataDir, NAME)
      plant(dir, base)
      const meta = () => {
        const reader = Db.openReader(dir)
        const values = { sources: reader.meta.get("sources") ?? "", vectors: reader.meta.get("vectors") }
        reader.close()
        return values
      }
      yield* session(rt, (memory) =>
        Effect.gen(function* () {
          const query = Effect.zipRight(memory.queryMemory(NAME, { query: "tea" }), memory.awaitBackground(NAME))
          yield* query
          // A pack of the index's current sources (its content does not matter here).
          const first = meta().sources
          const db = new Database(path.join(dir, "recall_index.db"))
          db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('vectors', ?)").run(packKey("m", "7", first))
          db.close()
          // A field recall does not read: the rows come back the same, the pack follows the new stamps.
          plant(
            dir,
            base.map((f) => (f.id === "f7" ? { ...f, absorbed: true } : f))
          )
          yield* query
          const second = meta()
          assert.notStrictEqual(second.sources, first)
          assert.strictEqual(second.vectors, packKey("m", "7", second.sources))
          // A changed text: the pack stays keyed to the old stamps (stale, unused).
          plant(
            dir,
            base.map((f) => (f.id === "f7" ? { ...f, text: "Master likes matcha" } : f))
          )
          yield* query
          assert.notStrictEqual(meta().sources, second.sources)
          assert.strictEqual(meta().vectors, packKey("m", "7", second.sources))
        })
      )
    })
  )
})
