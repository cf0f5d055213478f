/**
 * The recall index's packed vectors (src/recall/index/VectorPack.ts) with the default embedding model: a warm
 * query's vectors are packed into `recall_index.db`, the first query of the next runtime takes its cosine side
 * from them (the same answer as the in-memory path, without reading facts.json), and a pack is not used once
 * `vectors.db` changed; a backfill that settles after the last query packs its vectors too.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, TestClock } from "effect"
import { appLayer } from "../../src/App.js"
import { CharacterRegistry } from "../../src/character/CharacterRegistry.js"
import { CharacterName } from "../../src/domain/CharacterName.js"
import { Tokenizer } from "../../src/llm/Tokenizer.js"
import { MemoryService } from "../../src/MemoryService.js"
import * as Startup from "../../src/Startup.js"
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { Embedder } from "../../src/vectors/Embedder.js"
import * as OnnxEmbedder from "../../src/vectors/OnnxEmbedder.js"
import type { QueryRequest, QueryResult } from "../../src/recall/RecallTypes.js"
import { rewriteKeepingStamp, storedFact as fact } from "../support/facts.js"
import { boot, testSettings } from "../support/layers.js"
import { embedderOptions, sharedDefaultModel } from "../vectors/fixtures.js"

const NAME = "Pack"
const group = { subject_kind: "group_chat", subject_id: "g1", scope: "group_chat:g1" }
const rows = [
  fact("fact_scope", "I bought a telescope"),
  fact("fact_market", "The stock market fell"),
  fact("fact_cat", "Master has a small cat named Mochi"),
  fact("fact_rain", "It rained all weekend in Osaka"),
  { ...fact("fact_piano", "Master practises the piano every evening"), ...group },
  fact("fact_zh", "主人喜欢喝绿茶")
]
const queries: ReadonlyArray<QueryRequest> = [
  { query: "astronomy gear" },
  { query: "pet kitten" },
  { query: "music lessons", subjects: [group] },
  { query: "喜欢绿茶" }
]

const withoutTime = (r: QueryResult) => ({ ...r, elapsed_ms: 0 })

/** The default model, and a data dir whose character holds `rows` in a facts.json stamped 2026-01-01. */
const planted = Effect.gen(function* () {
  const service = yield* OnnxEmbedder.make(embedderOptions(Option.some(yield* sharedDefaultModel)))
  assert.isTrue(Option.isSome(yield* service.ready))
  const embedder = Layer.succeed(Embedder, service)
  const settings = testSettings({ vectors_enabled: true, recall_turn_tier: false })
  const dir = path.join(settings.dataDir, NAME)
  mkdirSync(dir, { recursive: true })
  const file = path.join(dir, "facts.json")
  writeFileSync(file, JSON.stringify(rows))
  const stamp = new Date(2026, 0, 1)
  utimesSync(file, stamp, stamp)
  return { embedder, settings, dir, file, stamp }
})

describe("recall index with packed vectors", () => {
  it.scoped(
    "answers a restart's first query from the packed vectors, and stops using them once vectors.db changed",
    () =>
      Effect.gen(function* () {
        const { embedder, settings, dir, file, stamp } = yield* planted
        /** One runtime: the answers to `qs` (after a backfill when asked), then its background writes. */
        const session = (qs: ReadonlyArray<QueryRequest>, backfill = false) =>
          Effect.scoped(
            Effect.gen(function* () {
              const memory = yield* boot(settings, { embedder })
              if (backfill) yield* memory.maintainNow(NAME)
              const out: Array<QueryResult> = []
              for (const q of qs) out.push(withoutTime(yield* memory.queryMemory(NAME, q)))
              yield* memory.awaitBackground(NAME)
              return out
            })
          )
        const warm = yield* session(queries, true)
        assert.strictEqual(warm[0]?.results[0]?.id, "fact_scope", "found by the cosine side alone")
        assert.strictEqual(warm[2]?.results[0]?.id, "fact_piano")
        // Each query first in a fresh runtime: answered from the index and its pack, as the corpus did.
        for (const [i, q] of queries.entries()) assert.deepStrictEqual((yield* session([q]))[0], warm[i])

        // Same inode, size and mtime, another text: vectors checked against facts.json would no longer be valid
        // for "I bought a telescope", so only the packed copy still finds it by meaning.
        const { before, after } = rewriteKeepingStamp(
          file,
          (text) => text.replace("I bought a telescope", "I bought a telescopf"),
          stamp
        )
        assert.deepStrictEqual(after, before)
        const [packed] = yield* session([queries[0] ?? {}])
        assert.strictEqual(packed?.results[0]?.id, "fact_scope")
        assert.strictEqual(packed?.results[0]?.text, "I bought a telescope", "the index's text, not the file's")

        // vectors.db recreated (a new epoch): the pack is stale, the files answer and their vector no longer matches.
        for (const suffix of ["", "-wal", "-shm"]) rmSync(path.join(dir, `vectors.db${suffix}`), { force: true })
        const [files] = yield* session([queries[0] ?? {}])
        assert.notInclude(files?.results.map((r) => r.id) ?? [], "fact_scope")
      }),
    180_000
  )

  it.scoped(
    "packs the vectors a backfill settled on after the last query, for the next runtime's first query",
    () =>
      Effect.gen(function* () {
        const { embedder, settings, file, stamp } = yield* planted
        // A query before any vector exists (the corpus is built, its pack holds nothing), then the backfill.
        const first = yield* Effect.scoped(
          Effect.gen(function* () {
            const memory = yield* boot(settings, { embedder })
            const before = yield* memory.queryMemory(NAME, { query: "astronomy gear" })
            yield* memory.maintainNow(NAME)
            yield* memory.awaitBackground(NAME)
            return before
          })
        )
        assert.notInclude(
          first.results.map((r) => r.id),
          "fact_scope",
          "no vector yet, no shared word"
        )
        // Only a pack of the backfilled vectors can find it now (facts.json's text no longer matches them).
        rewriteKeepingStamp(file, (text) => text.replace("I bought a telescope", "I bought a telescopf"), stamp)
        const next = yield* Effect.scoped(
          Effect.gen(function* () {
            const memory = yield* boot(settings, { embedder })
            return yield* memory.queryMemory(NAME, { query: "astronomy gear" })
          })
        )
        assert.strictEqual(next.results[0]?.id, "fact_scope")
        assert.strictEqual(next.results[0]?.text, "I bought a telescope")
      }),
    180_000
  )

  it.scoped(
    "packs a backfill that settles while no corpus is built, from the index brought up to date with the files",
    () =>
      Effect.gen(function* () {
        const { embedder, settings, file, stamp } = yield* planted
        const runtime = <A, E>(f: (memory: Effect.Effect.Success<ReturnType<typeof boot>>) => Effect.Effect<A, E>) =>
          Effect.scoped(
            Effect.gen(function* () {
              const memory = yield* boot(settings, { embedder })
              const out = yield* f(memory)
              yield* memory.awaitBackground(NAME)
              return out
            })
          )
        // An index without vectors, then the file rewritten from outside (a field recall does not read).
        yield* runtime((memory) => memory.queryMemory(NAME, { query: "astronomy gear" }))
        const rewritten = rows.map((r) => (r.id === "fact_cat" ? { ...r, absorbed: true } : r))
        writeFileSync(file, JSON.stringify(rewritten))
        utimesSync(file, stamp, stamp)
        // A runtime that only backfills: no query, so no corpus; the settled vectors are packed all the same.
        yield* runtime((memory) => memory.maintainNow(NAME))
        // Only the pack can find it now (facts.json's text no longer matches the stored vector).
        rewriteKeepingStamp(file, (text) => text.replace("I bought a telescope", "I bought a telescopf"), stamp)
        const next = yield* runtime((memory) => memory.queryMemory(NAME, { query: "astronomy gear" }))
        assert.strictEqual(next.results[0]?.id, "fact_scope")
        assert.strictEqual(next.results[0]?.text, "I bought a telescope")
      }),
    180_000
  )

  it.scoped(
    "packs again at an idle release once a write made the pack stale, for the next runtime's first query",
    () =>
      Effect.gen(function* () {
        const { embedder, settings, dir, file, stamp } = yield* planted
        const runtime = <A, E>(
          f: (memory: typeof MemoryService.Service, registry: typeof CharacterRegistry.Service) => Effect.Effect<A, E>
        ) =>
          Effect.scoped(
            Effect.gen(function* () {
              const ctx = yield* Layer.build(
                appLayer({ settings, embedder, tokenizer: Tokenizer.Heuristic, maintenance: false })
              )
              yield* Effect.provide(Startup.recover, ctx)
              const memory = yield* Effect.provide(MemoryService, ctx)
              const out = yield* f(memory, yield* Effect.provide(CharacterRegistry, ctx))
              yield* memory.awaitBackground(NAME)
              return out
            })
          )
        // Vectors and their pack, then a fact's time changed from outside (no new vector to make, so no backfill
        // packs): index and pack stale.
        yield* runtime((memory) =>
          Effect.zipRight(memory.maintainNow(NAME), memory.queryMemory(NAME, { query: "astronomy gear" }))
        )
        const moved = rows.map((r) => (r.id === "fact_rain" ? { ...r, event_start_at: "2025-11-02T09:00:00" } : r))
        writeFileSync(file, JSON.stringify(moved))
        utimesSync(file, stamp, stamp)
        // A runtime that loads the views without a query and releases them when idle.
        yield* runtime((memory, registry) =>
          Effect.gen(function* () {
            yield* memory.maintainNow(NAME)
            yield* TestClock.adjust("6 minutes")
            yield* registry.tell(CharacterName.make(NAME), { _tag: "ReleaseHandles" })
            yield* memory.awaitBackground(NAME)
            assert.include(yield* memory.status(NAME), { viewsHeld: false })
          })
        )
        // Only the pack can find it now (facts.json's text no longer matches the stored vector).
        rewriteKeepingStamp(file, (text) => text.replace("I bought a telescope", "I bought a telescopf"), stamp)
        const next = yield* runtime((memory) => memory.queryMemory(NAME, { query: "astronomy gear" }))
        assert.strictEqual(next.results[0]?.id, "fact_scope")
        assert.strictEqual(next.results[0]?.text, "I bought a telescope")
        assert.isTrue(existsSync(path.join(dir, "recall_index.db")))
      }),
    180_000
  )
})
