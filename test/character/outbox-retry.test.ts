import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Option, TestClock } from "effect"
import { existsSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { boot, setPowerful, testSettings } from "../support/layers.js"
import * as ScriptedLlm from "../support/ScriptedLlm.js"

const fact = (text: string) => ({
  answer: JSON.stringify([{ text, importance: 6, entity: "master", event_when: null }])
})
const turn = (user: string) => ({
  messages: [
    { role: "user", content: user },
    { role: "assistant", content: "I see." }
  ]
})

/** A runtime over `settings` with the scripted model, recovered; `calls` counts its extraction requests. */
const start = (settings: ReturnType<typeof testSettings>, scripted: Effect.Effect.Success<typeof ScriptedLlm.make>) =>
  Effect.gen(function* () {
    const memory = yield* boot(settings, { llm: scripted.layer })
    const calls = Effect.map(scripted.script.requests, (all) => all.filter((r) => r.task === "facts.extract").length)
    return { memory, calls }
  })

describe("outbox retries", () => {
  it.scoped("a failed op waits for its backoff instead of running again with the next turn", () =>
    Effect.gen(function* () {
      const settings = testSettings({ actor_idle_ttl_seconds: 86_400 })
      setPowerful(settings, false)
      const scripted = yield* ScriptedLlm.make
      yield* scripted.script.push("facts.extract", { fail: "network" }, fact("Master likes pears"))
      yield* scripted.script.push("facts.extract", fact("Master likes figs"))
      const { memory, calls } = yield* start(settings, scripted)
      yield* memory.write("cache", "Pears", turn("I like figs."))
      yield* memory.awaitBackground("Pears")
      assert.strictEqual(yield* calls, 1)
      yield* memory.write("cache", "Pears", turn("I like pears."))
      yield* memory.awaitBackground("Pears")
      assert.strictEqual(yield* calls, 2)
      yield* TestClock.adjust("12 seconds")
      yield* memory.awaitBackground("Pears")
      assert.strictEqual(yield* calls, 3)
      const texts = JSON.parse(readFileSync(path.join(settings.dataDir, "Pears", "facts.json"), "utf8")).map(
        (f: { text: string }) => f.text
      )
      assert.sameMembers(texts, ["Master likes pears", "Master likes figs"])
    })
  )

  it.scoped("turns within outbox_drain_interval_ms of a drain wait for the next drain, together", () =>
    Effect.gen(function* () {
      const settings = testSettings({ actor_idle_ttl_seconds: 86_400, outbox_drain_interval_ms: 1000 })
      setPowerful(settings, false)
      const scripted = yield* ScriptedLlm.make
      for (const text of ["figs", "pears", "plums"])
        yield* scripted.script.push("facts.extract", fact(`Master likes ${text}`))
      const { memory, calls } = yield* start(settings, scripted)
      yield* memory.write("cache", "Figs", turn("I like figs."))
      yield* memory.awaitBackground("Figs")
      assert.strictEqual(yield* calls, 1)
      yield* memory.write("cache", "Figs", turn("I like pears."))
      yield* memory.write("cache", "Figs", turn("I like plums."))
      const quiet = yield* Effect.fork(memory.awaitBackground("Figs"))
      yield* TestClock.adjust("999 millis")
      assert.strictEqual(yield* calls, 1)
      assert.isTrue(Option.isNone(yield* Fiber.poll(quiet)))
      // The waiting ops are held in memory, not yet in the outbox file: the journal holds their turns.
      const figs = path.join(settings.dataDir, "Figs")
      const outbox = path.join(figs, "outbox.ndjson")
      assert.isFalse(existsSync(outbox) && readFileSync(outbox, "utf8").includes("I like plums."))
      assert.include(readFileSync(path.join(figs, "events.ndjson"), "utf8"), "I like plums.")
      yield* TestClock.adjust("1 millis")
      yield* Fiber.join(quiet)
      assert.strictEqual(yield* calls, 3)
    })
  )
})
