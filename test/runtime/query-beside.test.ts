import { assert, describe, it } from "@effect/vitest"
import { mkdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { Effect, Fiber, Layer, Ref } from "effect"
import { MemoryService } from "../../src/MemoryService.js"
import { testRuntime } from "../support/layers.js"
import { storedFact } from "../support/facts.js"

describe("/query_memory beside the mailbox", () => {
  it.scoped("a character's first query, building its recall index, does not hold back its writes", () =>
    Effect.gen(function* () {
      const rt = testRuntime()
      const dir = path.join(rt.settings.dataDir, "Big")
      mkdirSync(dir, { recursive: true })
      const facts = Array.from({ length: 20_000 }, (_, i) =>
        storedFact(`f${i}`, `Big remembers lantern ${i} by the river number ${i % 311}`)
      )
      writeFileSync(path.join(dir, "facts.json"), JSON.stringify(facts))
      const ctx = yield* Layer.build(rt.layer)
      const memory = yield* Effect.provide(MemoryService, ctx)
      yield* memory.write("cache", "Big", { messages: [{ role: "user", content: "hello" }] })
      const order = yield* Ref.make<ReadonlyArray<string>>([])
      const note = (what: string) => Ref.update(order, (o) => [...o, what])
      const query = yield* Effect.fork(
        memory.queryMemory("Big", { query: "lantern 42" }).pipe(Effect.tap(() => note("query")))
      )
      yield* Effect.yieldNow()
      yield* memory.write("cache", "Big", { messages: [{ role: "user", content: "I moved to Kyoto" }] })
      yield* note("write")
      const result = yield* Fiber.join(query)
      assert.deepStrictEqual(yield* Ref.get(order), ["write", "query"])
      assert.include(
        result.results.map((r) => r.text),
        "Big remembers lantern 42 by the river number 42"
      )
      assert.include(yield* memory.recentHistory("Big"), "I moved to Kyoto")
    })
  )

  it.scoped("a query sent after a write's answer sees what the write made", () =>
    Effect.gen(function* () {
      const rt = testRuntime()
      const ctx = yield* Layer.build(rt.layer)
      const memory = yield* Effect.provide(MemoryService, ctx)
      const dir = path.join(rt.settings.dataDir, "Mio")
      mkdirSync(dir, { recursive: true })
      writeFileSync(path.join(dir, "facts.json"), JSON.stringify([storedFact("f1", "Mio's master keeps bees")]))
      const texts = (q: string) =>
        Effect.map(memory.queryMemory("Mio", { query: q }), (r) => r.results.map((x) => x.text))
      assert.deepStrictEqual(yield* texts("bees"), ["Mio's master keeps bees"])
      yield* memory.manualAction("Mio", { kind: "fact", id: "f1", action: "forget" })
      assert.deepStrictEqual(yield* texts("bees"), [])
    })
  )
})
