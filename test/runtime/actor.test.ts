import { assert, describe, it } from "@effect/vitest"
import { existsSync, mkdirSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { Deferred, Effect, Fiber, Layer, Ref, TestClock } from "effect"
import * as Actor from "../../src/runtime/Actor.js"
import { CharacterRegistry } from "../../src/character/CharacterRegistry.js"
import { MemoryService } from "../../src/MemoryService.js"
import * as Startup from "../../src/Startup.js"
import { testRuntime } from "../support/layers.js"
import { CharacterName } from "../../src/domain/CharacterName.js"
import type { StoreError } from "../../src/store/DurableFs.js"
import { storedFact } from "../support/facts.js"

type Cmd = { readonly kind: "ok" | "boom"; readonly reply: Deferred.Deferred<number, Actor.ActorDefect> }

describe("Actor", () => {
  it.scoped("fails the caller of a defective command with ActorDefect and reloads its state", () =>
    Effect.gen(function* () {
      const loads = yield* Ref.make(0)
      const actor = yield* Actor.make<{ readonly generation: number }, Cmd, never>(
        "test",
        {
          init: Ref.updateAndGet(loads, (n) => n + 1).pipe(Effect.map((generation) => ({ generation }))),
          handle: (state, batch) =>
            Effect.forEach(batch, ({ command }) =>
              command.kind === "boom"
                ? Effect.die(new Error("boom"))
                : Deferred.succeed(command.reply, state.generation)
            ),
          release: () => Effect.void
        },
        { capacity: 16, maxBatch: 1 }
      )
      assert.strictEqual(yield* actor.ask<number, never>((reply) => ({ kind: "ok", reply })), 1)
      const failed = yield* Effect.flip(actor.ask<number, never>((reply) => ({ kind: "boom", reply })))
      assert.strictEqual(failed._tag, "ActorDefect")
      assert.match(failed.message, /boom/)
      assert.strictEqual(yield* actor.ask<number, never>((reply) => ({ kind: "ok", reply })), 2)
      assert.strictEqual(yield* Ref.get(loads), 2)
    })
  )

  it.scoped("hands a batch of waiting commands to one handle call", () =>
    Effect.gen(function* () {
      const sizes: Array<number> = []
      const gate = yield* Deferred.make<void>()
      const gated = yield* Deferred.make<void>()
      const actor = yield* Actor.make<null, Cmd | "gate", never>(
        "batch",
        {
          init: Effect.succeed(null),
          handle: (_, batch) =>
            Effect.gen(function* () {
              sizes.push(batch.length)
              for (const { command } of batch) {
                if (command === "gate")
                  yield* Deferred.succeed(gated, undefined).pipe(Effect.zipRight(Deferred.await(gate)))
                else yield* Deferred.succeed(command.reply, batch.length)
              }
            }),
          release: () => Effect.void
        },
        { capacity: 64, maxBatch: 64 }
      )
      yield* actor.tell("gate")
      yield* Deferred.await(gated)
      const asks = yield* Effect.fork(
        Effect.all(
          Array.from({ length: 10 }, () => actor.ask<number, never>((reply) => ({ kind: "ok", reply }))),
          { concurrency: "unbounded" }
        )
      )
      yield* Effect.repeatN(Effect.yieldNow(), 50)
      yield* Deferred.succeed(gate, undefined)
      const results = yield* Fiber.join(asks)
      assert.deepStrictEqual(
        results,
        Array.from({ length: 10 }, () => 10)
      )
      assert.deepStrictEqual(sizes, [1, 10])
    })
  )
})

/** A runtime whose compression waits for `release`, and 21 turns of `name` with a settle in flight. */
const settleInFlight = (name: string, memo: string) =>
  Effect.gen(function* () {
    const release = yield* Deferred.make<void>()
    const started = yield* Deferred.make<void>()
    const rt = testRuntime({
      compress: () =>
        Deferred.succeed(started, undefined).pipe(Effect.zipRight(Deferred.await(release)), Effect.as(memo))
    })
    const ctx = yield* Layer.build(rt.layer)
    const memory = yield* Effect.provide(MemoryService, ctx)
    yield* Effect.provide(Startup.recover, ctx)
    const turns = Array.from({ length: 21 }, (_, i) => ({ role: i % 2 === 0 ? "user" : "assistant", content: `m${i}` }))
    yield* memory.write("cache", name, { messages: turns })
    const settling = yield* Effect.fork(memory.write("settle", name, { messages: [] }))
    yield* Deferred.await(started)
    return { rt, memory, release, settling }
  })

describe("character actors", () => {
  it.scoped("new_dialog waits for a settle in flight and sees the settled state", () =>
    Effect.gen(function* () {
      const { memory, release, settling } = yield* settleInFlight("Wait", "settled memo")
      const dialog = yield* Effect.fork(memory.newDialog("Wait"))
      yield* Effect.yieldNow()
      assert.isNull(dialog.unsafePoll())
      assert.strictEqual((yield* memory.status("Wait")).session, "settling")
      const cached = yield* memory.write("cache", "Wait", { messages: [{ role: "user", content: "during settle" }] })
      assert.strictEqual(cached, 1)
      assert.isNull(settling.unsafePoll())
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(settling)
      const text = yield* Fiber.join(dialog)
      assert.include(text, "SYSTEM_MESSAGE | Memo from prior conversations: settled memo\n")
      assert.include(text, "Master | m20\nMaster | during settle\n")
      assert.notInclude(text, "Master | m0\n")
      assert.strictEqual((yield* memory.status("Wait")).session, "idle")
    })
  )

  it.scoped("a rename waits for a request in flight, answers busy when it outlasts the wait, then renames", () =>
    Effect.gen(function* () {
      const { rt, memory, release, settling } = yield* settleInFlight("Busy", "memo")
      const busy = yield* Effect.fork(Effect.either(memory.renameCharacter("Busy", "Calm")))
      yield* TestClock.adjust("11 seconds")
      const refused = yield* Fiber.join(busy)
      assert.strictEqual(refused._tag === "Left" ? refused.left._tag : refused._tag, "CharacterBusy")
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(settling)
      assert.strictEqual(yield* memory.renameCharacter("Busy", "Calm"), "renamed")
      assert.include(yield* memory.recentHistory("Calm"), "memo")
      assert.deepStrictEqual(
        readdirSync(rt.settings.dataDir).filter((n) => !n.startsWith(".")),
        ["Calm"]
      )
      assert.strictEqual(yield* memory.renameCharacter("Busy", "Calm"), "already_renamed")
    })
  )

  it.scoped("evicts idle actors after the idle time to live", () =>
    Effect.gen(function* () {
      const rt = testRuntime({ tunables: { actor_idle_ttl_seconds: 600 } })
      const ctx = yield* Layer.build(rt.layer)
      const registry = yield* Effect.provide(CharacterRegistry, ctx)
      const memory = yield* Effect.provide(MemoryService, ctx)
      yield* memory.write("cache", "Idle", { messages: [{ role: "user", content: "hi" }] })
      yield* memory.write("cache", "Other", { messages: [{ role: "user", content: "hi" }] })
      assert.deepStrictEqual([...(yield* registry.active)].sort(), ["Idle", "Other"])
      yield* TestClock.adjust("9 minutes")
      yield* memory.status("Other")
      yield* TestClock.adjust("2 minutes")
      assert.deepStrictEqual([...(yield* registry.active)], ["Other"])
      yield* TestClock.adjust("10 minutes")
      assert.deepStrictEqual([...(yield* registry.active)], [])
      const again = yield* memory.recentHistory("Idle")
      assert.include(again, "Master | hi")
    })
  )

  it.scoped(
    "keeps at most actor_max_live actors: the least recently used idle ones close, a request reopens them",
    () =>
      Effect.gen(function* () {
        const rt = testRuntime({ tunables: { actor_max_live: 2 } })
        const ctx = yield* Layer.build(rt.layer)
        const registry = yield* Effect.provide(CharacterRegistry, ctx)
        const memory = yield* Effect.provide(MemoryService, ctx)
        const say = (name: string, content: string) =>
          memory.write("cache", name, { messages: [{ role: "user", content }] })
        yield* say("Ann", "I keep bees")
        yield* say("Ben", "I sail")
        yield* say("Cat", "I paint")
        assert.deepStrictEqual([...(yield* registry.active)].sort(), ["Ben", "Cat"])
        yield* memory.status("Ben")
        yield* say("Dan", "I climb")
        assert.deepStrictEqual([...(yield* registry.active)].sort(), ["Ben", "Dan"])
        // The closed character's turns were checkpointed; a request reopens it (and closes another).
        assert.include(yield* memory.recentHistory("Ann"), "I keep bees")
        assert.strictEqual((yield* registry.active).length, 2)
        assert.include(yield* memory.recentHistory("Cat"), "I paint")
      })
  )

  it.scoped("keeps the live actors' estimated memory within actor_max_live_mb, closing the least recently used", () =>
    Effect.gen(function* () {
      const rt = testRuntime({ tunables: { actor_max_live_mb: 3 } })
      // About 90 KB of facts.json each: an estimate of ~2.2 MB once loaded, so two such characters do not fit.
      const plant = (name: string) => {
        const dir = path.join(rt.settings.dataDir, name)
        mkdirSync(dir, { recursive: true })
        const facts = Array.from({ length: 400 }, (_, i) =>
          storedFact(`${name}_${i}`, `${name} remembers the ${i}th lantern festival by the river`)
        )
        writeFileSync(path.join(dir, "facts.json"), JSON.stringify(facts))
      }
      plant("Ann")
      plant("Ben")
      const ctx = yield* Layer.build(rt.layer)
      const registry = yield* Effect.provide(CharacterRegistry, ctx)
      const memory = yield* Effect.provide(MemoryService, ctx)
      const recall = (name: string) => memory.recallText(name, { query: "the 7th festival", language: "en" })
      const live = Effect.map(registry.active, (names) => [...names].map(String).sort())
      assert.include(yield* recall("Ann"), "Ann remembers the 7th lantern festival")
      assert.include(yield* recall("Ben"), "Ben remembers the 7th lantern festival")
      assert.deepStrictEqual(yield* live, ["Ben"])
      yield* memory.write("cache", "Cat", { messages: [{ role: "user", content: "I paint" }] })
      assert.deepStrictEqual(yield* live, ["Ben", "Cat"])
      // The closed character reopens with its facts; the least recently used big one (Ben) makes room.
      assert.include(yield* recall("Ann"), "Ann remembers the 7th lantern festival")
      assert.deepStrictEqual(yield* live, ["Ann", "Cat"])
      assert.include(yield* memory.recentHistory("Cat"), "I paint")
    })
  )

  it.scoped("does not close an actor a request is using, however far over the cap", () =>
    Effect.gen(function* () {
      const rt = testRuntime({ tunables: { actor_max_live: 1 } })
      const ctx = yield* Layer.build(rt.layer)
      const registry = yield* Effect.provide(CharacterRegistry, ctx)
      const memory = yield* Effect.provide(MemoryService, ctx)
      yield* memory.write("cache", "Eve", { messages: [{ role: "user", content: "hi" }] })
      const gate = yield* Deferred.make<void>()
      const entered = yield* Deferred.make<void>()
      const name = CharacterName.make("Eve")
      const held = yield* registry
        .ask<void, StoreError>(name, (reply) => ({
          _tag: "AwaitBackground",
          reply
        }))
        .pipe(Effect.zipRight(Deferred.succeed(entered, undefined)), Effect.zipRight(Deferred.await(gate)), Effect.fork)
      yield* Deferred.await(entered)
      yield* memory.write("cache", "Fay", { messages: [{ role: "user", content: "hi" }] })
      yield* memory.write("cache", "Gus", { messages: [{ role: "user", content: "hi" }] })
      assert.strictEqual((yield* registry.active).length, 1)
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(held)
    })
  )

  it.scoped("closes an idle actor's SQLite handles after actor_handle_release_seconds; the next use reopens them", () =>
    Effect.gen(function* () {
      const rt = testRuntime({ tunables: { actor_handle_release_seconds: 60 } })
      const ctx = yield* Layer.build(rt.layer)
      const registry = yield* Effect.provide(CharacterRegistry, ctx)
      const memory = yield* Effect.provide(MemoryService, ctx)
      const name = CharacterName.make("Hana")
      const dir = path.join(rt.settings.dataDir, name)
      /** Descriptors of this process open on files of the character's directory. */
      const open = () =>
        readdirSync("/proc/self/fd").filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir + path.sep)
          } catch {
            return false
          }
        }).length
      // The check the actor's own timer sends, then a round trip through the mailbox behind it.
      const check = registry
        .tell(name, { _tag: "ReleaseHandles" })
        .pipe(Effect.zipRight(registry.ask<void, StoreError>(name, (reply) => ({ _tag: "AwaitBackground", reply }))))
      yield* memory.write("cache", name, { messages: [{ role: "user", content: "I grow tomatoes" }] })
      assert.isAbove(open(), 0)
      yield* TestClock.adjust("59 seconds")
      yield* check
      assert.isAbove(open(), 0, "used 59 s ago: still open")
      yield* TestClock.adjust("2 minutes")
      yield* check
      assert.strictEqual(open(), 0)
      assert.deepStrictEqual([...(yield* registry.active)].map(String), ["Hana"])
      yield* memory.write("cache", name, { messages: [{ role: "user", content: "and basil" }] })
      assert.isAbove(open(), 0)
      const history = yield* memory.recentHistory(name)
      assert.include(history, "I grow tomatoes")
      assert.include(history, "and basil")
    })
  )

  it.scoped(
    "drops an idle actor's decoded views after actor_view_release_seconds; the next query decodes them again",
    () =>
      Effect.gen(function* () {
        const rt = testRuntime({ tunables: { actor_handle_release_seconds: 60, actor_view_release_seconds: 300 } })
        const ctx = yield* Layer.build(rt.layer)
        const registry = yield* Effect.provide(CharacterRegistry, ctx)
        const memory = yield* Effect.provide(MemoryService, ctx)
        const name = CharacterName.make("Hana")
        const dir = path.join(rt.settings.dataDir, name)
        mkdirSync(dir, { recursive: true })
        writeFileSync(path.join(dir, "facts.json"), JSON.stringify([storedFact("f1", "Hana's master grows tomatoes")]))
        // Background work first (the turn's extraction keeps the handles busy), then the check, then a round trip.
        const quiet = registry.ask<void, StoreError>(name, (reply) => ({ _tag: "AwaitBackground", reply }))
        const check = quiet.pipe(
          Effect.zipRight(registry.tell(name, { _tag: "ReleaseHandles" })),
          Effect.zipRight(quiet)
        )
        const recalled = Effect.map(memory.queryMemory(name, { query: "tomatoes" }), (r) =>
          r.results.map((x) => x.text)
        )
        yield* memory.write("cache", name, { messages: [{ role: "user", content: "and basil" }] })
        assert.deepStrictEqual(yield* recalled, ["Hana's master grows tomatoes"])
        // recall_index.db is written in the background after that answer (renamed into place once complete).
        const indexed = Effect.sync(() => existsSync(path.join(dir, "recall_index.db")))
        yield* Effect.repeat(Effect.zipRight(Actor.yieldToIo, indexed), { until: (done) => done })
        assert.include(yield* memory.status(name), { handlesOpen: true, viewsHeld: true })
        yield* TestClock.adjust("61 seconds")
        yield* check
        assert.include(yield* memory.status(name), { handlesOpen: false, viewsHeld: true }, "handles first")
        yield* TestClock.adjust("3 minutes")
        yield* check
        assert.include(yield* memory.status(name), { viewsHeld: true }, "used 241 s ago: views kept")
        yield* TestClock.adjust("2 minutes")
        yield* check
        assert.include(yield* memory.status(name), { handlesOpen: false, viewsHeld: false })
        assert.deepStrictEqual([...(yield* registry.active)].map(String), ["Hana"], "released, not evicted")
        // Answered from recall_index.db (written after the first query): nothing decoded.
        assert.deepStrictEqual(yield* recalled, ["Hana's master grows tomatoes"])
        assert.include(yield* memory.status(name), { viewsHeld: false })
        // Without the index the query decodes the views again.
        rmSync(path.join(dir, "recall_index.db"))
        assert.deepStrictEqual(yield* recalled, ["Hana's master grows tomatoes"])
        assert.include(yield* memory.status(name), { viewsHeld: true })
      })
  )

  it.scoped("does not keep a character whose load failed; the next request loads it again", () =>
    Effect.gen(function* () {
      const rt = testRuntime({ tunables: { actor_idle_ttl_seconds: 600 } })
      const ctx = yield* Layer.build(rt.layer)
      const memory = yield* Effect.provide(MemoryService, ctx)
      // A directory where the event journal should be: the character cannot load.
      const blocker = path.join(rt.settings.dataDir, "Blocked", "events.ndjson")
      mkdirSync(blocker, { recursive: true })
      const failed = yield* Effect.either(
        memory.write("cache", "Blocked", { messages: [{ role: "user", content: "hi" }] })
      )
      assert.strictEqual(failed._tag, "Left")
      rmSync(blocker, { recursive: true })
      yield* memory.write("cache", "Blocked", { messages: [{ role: "user", content: "hi again" }] })
      assert.include(yield* memory.recentHistory("Blocked"), "hi again")
    })
  )
})
