import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { Effect, Either, Layer, Option } from "effect"
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import * as State from "../../src/character/CharacterState.js"
import { backfill, vectorStoreOf, vectorsFor } from "../../src/vectors/VectorBackfill.js"
import { tunablesFrom } from "../../src/Config.js"
import { validateCharacterName } from "../../src/domain/CharacterName.js"
import { Embedder } from "../../src/vectors/Embedder.js"
import * as OnnxEmbedder from "../../src/vectors/OnnxEmbedder.js"
import { entryTriple, textSha256 } from "../../src/vectors/VectorCache.js"
import * as VectorStore from "../../src/vectors/VectorStore.js"
import { textHash } from "../../src/facts/Fact.js"
import { embedderOptions, tempDir, tinyModel } from "./fixtures.js"

const row = (id: string, text: string, vector: ReadonlyArray<number>, modelId = "m-4d-fp32") => ({
  kind: "fact" as const,
  id,
  textSha256: textSha256(text),
  modelId,
  vector: Float32Array.from(vector)
})

describe("vectors.db", () => {
  it.scoped("puts, gets and reports what is missing or stale", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const store = yield* Effect.acquireRelease(VectorStore.open(dir), (s) => s.close)
      yield* store.put([row("f1", "I like tea", [0.5, 0.5, 0.5, 0.5]), row("f2", "I have a cat", [1, 0, 0, 0])])
      const got = yield* store.get("fact", ["f1", "f2", "f3"])
      assert.deepStrictEqual([...got.keys()].sort(), ["f1", "f2"])
      assert.deepStrictEqual([...(got.get("f1")?.vector ?? [])], [0.5, 0.5, 0.5, 0.5])
      assert.strictEqual(got.get("f2")?.modelId, "m-4d-fp32")
      assert.strictEqual((yield* store.get("reflection", ["f1"])).size, 0)
      const entries = [
        { kind: "fact" as const, id: "f1", text: "I like tea" },
        { kind: "fact" as const, id: "f2", text: "I have two cats" },
        { kind: "fact" as const, id: "f3", text: "new" },
        { kind: "reflection" as const, id: "f1", text: "I like tea" }
      ]
      const missing = (modelId: string, dim: number) =>
        Effect.map(store.missing(entries, modelId, dim), (m) => m.map((e) => `${e.kind}:${e.id}`))
      assert.deepStrictEqual(yield* missing("m-4d-fp32", 4), ["fact:f2", "fact:f3", "reflection:f1"])
      assert.deepStrictEqual(yield* missing("m-4d-fp32", 8), ["fact:f1", "fact:f2", "fact:f3", "reflection:f1"])
      assert.deepStrictEqual(yield* missing("other-4d-fp32", 4), ["fact:f1", "fact:f2", "fact:f3", "reflection:f1"])
      yield* store.put([row("f2", "I have two cats", [0, 1, 0, 0])])
      assert.deepStrictEqual(yield* missing("m-4d-fp32", 4), ["fact:f3", "reflection:f1"])
      // A vector that does not decode to its dimensions (an odd or short blob) is missing, as `get` skips it.
      const db = new Database(path.join(dir, "vectors.db"))
      db.prepare("UPDATE vectors SET vector = ? WHERE entry_id = 'f2'").run(Buffer.from([1, 2, 3]))
      db.close()
      assert.strictEqual((yield* store.get("fact", ["f2"])).size, 0)
      assert.deepStrictEqual(yield* missing("m-4d-fp32", 4), ["fact:f2", "fact:f3", "reflection:f1"])
      yield* store.put([row("f2", "I have two cats", [0, 1, 0, 0])])
      assert.strictEqual(yield* store.prune("fact", ["f2"]), 1)
      assert.deepStrictEqual([...(yield* store.get("fact", ["f1", "f2"])).keys()], ["f2"])
    })
  )

  it.effect("moves its version with every write that changed rows, and takes a new epoch when recreated", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const store = yield* VectorStore.open(dir)
      const v0 = yield* store.version
      yield* store.put([])
      assert.strictEqual(yield* store.prune("fact", []), 0)
      yield* store.forget("fact", [])
      assert.strictEqual(yield* store.version, v0, "nothing changed")
      yield* store.put([row("f1", "x", [1, 0, 0, 0])])
      const v1 = yield* store.version
      assert.notStrictEqual(v1, v0)
      assert.strictEqual(yield* store.prune("fact", []), 1)
      const v2 = yield* store.version
      assert.notStrictEqual(v2, v1)
      yield* store.put([row("f1", "x", [1, 0, 0, 0])])
      yield* store.forget("fact", ["f1"])
      const v3 = yield* store.version
      yield* store.close
      const again = yield* VectorStore.open(dir)
      assert.strictEqual(yield* again.version, v3, "kept across opens")
      yield* again.close
      for (const suffix of ["", "-wal", "-shm"]) rmSync(path.join(dir, `vectors.db${suffix}`), { force: true })
      const fresh = yield* VectorStore.open(dir)
      const [epoch3] = v3.split(":")
      const [epoch, counter] = (yield* fresh.version).split(":")
      assert.notStrictEqual(epoch, epoch3)
      assert.strictEqual(counter, "0")
      yield* fresh.close
    })
  )

  it.effect("stores float16 vectors in a WAL database", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const store = yield* VectorStore.open(dir)
      yield* store.put([row("f1", "x", [1 / 3, -2, 0, 1])])
      yield* store.close
      const db = new Database(path.join(dir, "vectors.db"), { readonly: true })
      assert.strictEqual(db.pragma("journal_mode", { simple: true }), "wal")
      const blob = db.prepare("SELECT vector, dim FROM vectors").get()
      db.close()
      assert.deepStrictEqual(blob, { vector: Buffer.from([0x55, 0x35, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x3c]), dim: 4 })
    })
  )

  it.effect("replaces an unreadable file: the cache is derived data", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      writeFileSync(path.join(dir, "vectors.db"), "garbage, not a database ".repeat(100))
      const store = yield* VectorStore.open(dir)
      yield* store.put([row("f1", "x", [1, 0, 0, 0])])
      assert.strictEqual((yield* store.get("fact", ["f1"])).size, 1)
      yield* store.close
    })
  )
})

const fact = (id: string, text: string, extra: Record<string, unknown> = {}) => ({
  id,
  text,
  hash: textHash(text),
  created_at: "2026-11-30T10:00:00.000000",
  ...extra
})

const reflection = (id: string, text: string, status: string) => ({
  id,
  text,
  status,
  created_at: "2026-11-30T10:00:00.000000"
})

const character = (facts: ReadonlyArray<unknown>, reflections: ReadonlyArray<unknown>) =>
  Effect.gen(function* () {
    const root = tempDir()
    const name = Either.getOrThrow(validateCharacterName("Mio"))
    mkdirSync(path.join(root, "Mio"), { recursive: true })
    writeFileSync(path.join(root, "Mio", "facts.json"), JSON.stringify(facts))
    writeFileSync(path.join(root, "Mio", "reflections.json"), JSON.stringify(reflections))
    const state = yield* Effect.acquireRelease(State.load(name, root, tunablesFrom({})), State.release)
    return { state, dir: path.join(root, "Mio") }
  })

const tinyEmbedder = Layer.scoped(Embedder, OnnxEmbedder.make(embedderOptions(Option.some(tinyModel()))))

describe("vector backfill", () => {
  it.scoped("embeds facts and live reflections, imports valid N.E.K.O. vectors, prunes and re-embeds", () =>
    Effect.gen(function* () {
      const neko = entryTriple([0, 1, 0, 0], "I drink tea", "tiny-4d-fp32")
      const stale = entryTriple([0, 1, 0, 0], "I drank tea", "tiny-4d-fp32")
      const { state, dir } = yield* character(
        [
          fact("f1", "I have a cat"),
          fact("f2", "I drink tea", neko),
          fact("f3", "The stock market", stale),
          fact("f4", "kitten"),
          fact("f5", "   ")
        ],
        [
          reflection("r1", "Likes a kitten", "pending"),
          reflection("r2", "cat person", "confirmed"),
          reflection("r3", "stock trader", "denied")
        ]
      )
      const embedder = yield* Embedder
      assert.deepStrictEqual((yield* backfill(state, 0)).ready, false)
      yield* embedder.embed(["warm up"])
      const first = yield* backfill(state, 3)
      assert.deepStrictEqual(first, { ready: true, embedded: 3, imported: 1, pending: 2, pruned: 0 })
      const second = yield* backfill(state)
      assert.deepStrictEqual(second, { ready: true, embedded: 2, imported: 0, pending: 0, pruned: 0 })
      assert.deepStrictEqual(yield* backfill(state), { ready: true, embedded: 0, imported: 0, pending: 0, pruned: 0 })
      const vectors = yield* vectorsFor(state, [
        { kind: "fact", id: "f1", text: "I have a cat" },
        { kind: "fact", id: "f2", text: "I drink tea" },
        { kind: "fact", id: "f3", text: "The stock market" },
        { kind: "reflection", id: "r2", text: "cat person" },
        { kind: "reflection", id: "r3", text: "stock trader" },
        { kind: "fact", id: "f4", text: "kitten, edited" }
      ])
      assert.deepStrictEqual([...vectors.keys()], ["f1", "f2", "f3", "r2"])
      assert.deepStrictEqual([...(vectors.get("f1") ?? [])], [1, 0, 0, 0])
      assert.deepStrictEqual([...(vectors.get("f2") ?? [])], [0, 1, 0, 0])
      writeFileSync(
        path.join(dir, "facts.json"),
        JSON.stringify([fact("f1", "I have a cat"), fact("f2", "I drink tea"), fact("f4", "kitten and tea")])
      )
      writeFileSync(
        path.join(dir, "reflections.json"),
        JSON.stringify([reflection("r1", "Likes a kitten", "confirmed")])
      )
      assert.deepStrictEqual(yield* backfill(state), { ready: true, embedded: 1, imported: 0, pending: 0, pruned: 2 })
    }).pipe(Effect.provide(tinyEmbedder))
  )

  it.scoped("a text the model does not serve gets no vector and loses the row an older build gave it", () =>
    Effect.gen(function* () {
      const { state } = yield* character([fact("f1", "I have a cat"), fact("f2", "私は猫が好きです")], [])
      const english = { id: "tiny", dim: 4, pooling: "mean", normalize: true, languages: ["en"] }
      const embedder = yield* OnnxEmbedder.make(embedderOptions(Option.some(tinyModel({ profile: english }))))
      yield* embedder.ready
      const store = yield* vectorStoreOf(state)
      yield* store.put([{ ...row("f2", "私は猫が好きです", [1, 0, 0, 0]), modelId: "tiny-4d-fp32" }])
      const report = yield* backfill(state).pipe(Effect.provideService(Embedder, embedder))
      assert.deepStrictEqual(report, { ready: true, embedded: 1, imported: 0, pending: 0, pruned: 1 })
      const entries = [
        { kind: "fact" as const, id: "f1", text: "I have a cat" },
        { kind: "fact" as const, id: "f2", text: "私は猫が好きです" }
      ]
      const vectors = yield* vectorsFor(state, entries).pipe(Effect.provideService(Embedder, embedder))
      assert.deepStrictEqual([...vectors.keys()], ["f1"])
      assert.deepStrictEqual([...(yield* store.get("fact", ["f1", "f2"])).keys()], ["f1"])
    })
  )

  it.scoped("a model with another id re-embeds every entry; the old rows no longer count", () =>
    Effect.gen(function* () {
      const { state } = yield* character([fact("f1", "I have a cat"), fact("f2", "I drink tea")], [])
      const run = (id: string) =>
        Effect.gen(function* () {
          const profile = { id, dim: 4, pooling: "mean", normalize: true, languages: ["en"] }
          const embedder = yield* OnnxEmbedder.make(embedderOptions(Option.some(tinyModel({ profile }))))
          yield* embedder.ready
          return yield* backfill(state).pipe(Effect.provideService(Embedder, embedder))
        })
      assert.strictEqual((yield* run("tiny-a")).embedded, 2)
      assert.strictEqual((yield* run("tiny-a")).embedded, 0)
      assert.strictEqual((yield* run("tiny-b")).embedded, 2)
      const rows = yield* (yield* vectorStoreOf(state)).get("fact", ["f1", "f2"])
      assert.deepStrictEqual(
        [...rows.values()].map((r) => r.modelId),
        ["tiny-b-4d-fp32", "tiny-b-4d-fp32"]
      )
    })
  )

  it.scoped("does nothing while vectors are disabled", () =>
    Effect.gen(function* () {
      const { state, dir } = yield* character([fact("f1", "I have a cat")], [])
      assert.deepStrictEqual(yield* backfill(state), { ready: false, embedded: 0, imported: 0, pending: 0, pruned: 0 })
      assert.strictEqual((yield* vectorsFor(state, [{ kind: "fact", id: "f1", text: "I have a cat" }])).size, 0)
      assert.isUndefined(state.vectors)
      assert.isFalse(existsSync(path.join(dir, "vectors.db")))
    }).pipe(Effect.provide(Embedder.Disabled))
  )
})
