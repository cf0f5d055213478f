import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Layer, Random, Ref, TestClock } from "effect"
import * as Actor from "../../src/runtime/Actor.js"
import type { Command } from "../../src/character/Commands.js"
import { CharacterRegistry } from "../../src/character/CharacterRegistry.js"
import { validateCharacterName } from "../../src/domain/CharacterName.js"
import { MemoryService } from "../../src/MemoryService.js"
import { testRuntime } from "../support/layers.js"

type Cmd = { readonly kind: "ok" | "boom"; readonly reply: Deferred.Deferred<number, Actor.ActorDefect> }

/**
 * An actor whose state is its load generation; `loads` decides what the n-th load (1-based) does and
 * `release` what releasing a state does. "boom" dies inside the batch.
 */
const probe = (
  loads: (n: number) => "ok" | "die" | "fail",
  release: (generation: number) => Effect.Effect<void> = () => Effect.void
) =>
  Effect.gen(function* () {
    const count = yield* Ref.make(0)
    const init = Ref.updateAndGet(count, (n) => n + 1).pipe(
      Effect.flatMap((generation) => {
        const outcome = loads(generation)
        return outcome === "die"
          ? Effect.die(new Error(`load ${generation} died`))
          : outcome === "fail"
            ? Effect.fail(`load ${generation} failed`)
            : Effect.succeed({ generation })
      })
    )
    const actor = yield* Actor.make<{ readonly generation: number }, Cmd, string>(
      "probe",
      {
        init,
        handle: (state, batch) =>
          Effect.forEach(batch, ({ command }) =>
            command.kind === "boom" ? Effect.die(new Error("boom")) : Deferred.succeed(command.reply, state.generation)
          ),
        release: (state) => release(state.generation)
      },
      { capacity: 16, maxBatch: 1 }
    )
    const ask = (kind: Cmd["kind"]) => actor.ask<number, never>((reply) => ({ kind, reply }))
    return { actor, ask, loads: Ref.get(count) }
  }).pipe(Effect.withRandom(Random.make("supervision")))

describe("actor supervision", () => {
  it.scoped("a defect in a batch followed by a defect in the reload: restarts on the backoff, never hangs", () =>
    Effect.gen(function* () {
      const { ask, actor, loads } = yield* probe((n) => (n === 2 ? "die" : "ok"))
      assert.strictEqual(yield* ask("ok"), 1)
      const failed = yield* Effect.flip(ask("boom"))
      assert.strictEqual(failed._tag, "ActorDefect")
      const next = yield* Effect.fork(ask("ok"))
      yield* TestClock.adjust("1 hour")
      assert.strictEqual(yield* Fiber.join(next), 3)
      assert.strictEqual(yield* loads, 3)
      assert.deepStrictEqual(yield* actor.health, { _tag: "Running", restarts: 1 })
    })
  )

  it.scoped("a defect while releasing the crashed state does not end the loop", () =>
    Effect.gen(function* () {
      const { ask } = yield* probe(
        () => "ok",
        (generation) => (generation === 1 ? Effect.die(new Error("release died")) : Effect.void)
      )
      assert.match((yield* Effect.flip(ask("boom"))).message, /boom/)
      const next = yield* Effect.fork(ask("ok"))
      yield* TestClock.adjust("1 hour")
      assert.strictEqual(yield* Fiber.join(next), 2)
    })
  )

  it.scoped("parks an actor whose reload keeps failing: requests are answered at once, a timer retries it", () =>
    Effect.gen(function* () {
      let healthy = false
      const outcomes: Array<"ok" | "fail"> = []
      const { ask, actor } = yield* probe((n) => {
        const outcome = n === 1 || healthy ? "ok" : "fail"
        outcomes.push(outcome)
        return outcome
      })
      yield* Effect.flip(ask("boom"))
      const waiting = yield* Effect.fork(Effect.flip(ask("ok")))
      yield* TestClock.adjust("5 seconds")
      const parked = yield* Fiber.join(waiting)
      assert.isTrue(parked.parked)
      assert.strictEqual((yield* actor.health)._tag, "Parked")
      assert.strictEqual(outcomes.length, 7)
      const refused = yield* Effect.flip(ask("ok"))
      assert.isTrue(refused.parked)
      assert.strictEqual(outcomes.length, 7)
      healthy = true
      yield* TestClock.adjust("40 seconds")
      assert.strictEqual((yield* actor.health)._tag, "Running")
      assert.strictEqual(yield* ask("ok"), 8)
    })
  )

  it.scoped("a request after the probe delay retries a parked actor itself", () =>
    Effect.gen(function* () {
      let healthy = false
      const { ask } = yield* probe((n) => (n === 1 || healthy ? "ok" : "die"))
      yield* Effect.flip(ask("boom"))
      yield* TestClock.adjust("5 seconds")
      assert.isTrue((yield* Effect.flip(ask("ok"))).parked)
      healthy = true
      assert.isTrue((yield* Effect.flip(ask("ok"))).parked)
      yield* TestClock.adjust("10 seconds")
      assert.strictEqual(yield* ask("ok"), 8)
    })
  )
})

describe("character actor dispatch", () => {
  it.scoped("a command no handler takes answers its caller with ActorDefect", () =>
    Effect.gen(function* () {
      const rt = testRuntime()
      const ctx = yield* Layer.build(rt.layer)
      const registry = yield* Effect.provide(CharacterRegistry, ctx)
      const memory = yield* Effect.provide(MemoryService, ctx)
      yield* memory.write("cache", "Lost", { messages: [{ role: "user", content: "hi" }] })
      const name = yield* validateCharacterName("Lost")
      // A command from a newer peer, say, that this build has no handler for.
      const stray = (reply: Deferred.Deferred<void, Actor.ActorDefect>) =>
        ({ _tag: "Stray", reply }) as unknown as Command
      const asked = yield* Effect.fork(Effect.flip(registry.ask<void, never>(name, stray)))
      yield* TestClock.adjust("1 hour")
      const answer = yield* Fiber.join(asked)
      assert.strictEqual(answer._tag, "ActorDefect")
      assert.match(answer.message, /no handler for Stray/)
      assert.include(yield* memory.recentHistory("Lost"), "hi")
    })
  )
})
