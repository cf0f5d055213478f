import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Fiber, Option, Scope, TestClock } from "effect"
import { existsSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { LlmError } from "../../src/llm/LlmClient.js"
import * as ScriptedLlm from "../support/ScriptedLlm.js"
import { CurrentSection, outside } from "../../src/llm/Section.js"
import { boot, setPowerful, testSettings } from "../support/layers.js"

const turn = (user: string) => ({
  messages: [
    { role: "user", content: user },
    { role: "assistant", content: "I see." }
  ]
})
const factTexts = (dir: string): Array<string> => {
  const file = path.join(dir, "facts.json")
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).map((f: { text: string }) => f.text) : []
}
const extracted = JSON.stringify([{ text: "Master keeps bees", importance: 6, entity: "master" }])

describe("background lane", () => {
  it.scoped("chat commands run while a fact extraction waits for a slow model, and the fact lands afterwards", () =>
    Effect.gen(function* () {
      const settings = testSettings()
      setPowerful(settings, false)
      const { script, layer } = yield* ScriptedLlm.make
      yield* script.push("facts.extract", { answer: extracted, delay: "60 seconds" })
      const memory = yield* boot(settings, { llm: layer })
      yield* memory.write("cache", "Bee", turn("I keep bees on the roof."))
      // The drain is now on the lane, waiting for the model on the test clock.
      while (!(yield* script.requests).some((r) => r.task === "facts.extract")) yield* Effect.yieldNow()
      // Chat commands still answer: another write, a dialog, a recall.
      yield* memory.write("cache", "Bee", turn("The hives are blue."))
      const dialog = yield* memory.newDialog("Bee")
      assert.include(dialog, "The hives are blue.")
      const dir = path.join(settings.dataDir, "Bee")
      assert.deepStrictEqual(factTexts(dir), [])
      const quiet = yield* Effect.fork(memory.awaitBackground("Bee"))
      yield* TestClock.adjust("61 seconds")
      yield* Fiber.join(quiet)
      assert.include(factTexts(dir), "Master keeps bees")
    })
  )

  it.scoped("answers the callers of queued jobs with a defect when the actor stops, never leaving them waiting", () =>
    Effect.gen(function* () {
      const settings = testSettings()
      setPowerful(settings, false)
      const { script, layer } = yield* ScriptedLlm.make
      yield* script.push("facts.extract", { answer: extracted, delay: "60 seconds" })
      const runtime = yield* Scope.make()
      const memory = yield* Scope.extend(boot(settings, { llm: layer }), runtime)
      yield* memory.write("cache", "Stop", turn("I keep bees on the roof."))
      while (!(yield* script.requests).some((r) => r.task === "facts.extract")) yield* Effect.yieldNow()
      // Queued behind the drain that waits for the model.
      const waiting = yield* Effect.fork(memory.maintainNow("Stop"))
      yield* Effect.yieldNow()
      // The mailbox answers in order: once a later status is answered, maintainNow is queued on the lane.
      yield* memory.status("Stop")
      assert.isNull(waiting.unsafePoll())
      yield* Scope.close(runtime, Exit.void)
      const exit = yield* Fiber.await(waiting)
      assert.isTrue(Exit.isFailure(exit))
    })
  )

  it.effect("drops an answer computed from records that changed during the call", () =>
    Effect.gen(function* () {
      let writes = 0
      let held = true
      const section = {
        leave: Effect.sync(() => {
          held = false
          return Option.some(writes)
        }),
        enter: Effect.sync(() => {
          held = true
        }),
        changedSince: (token: number) => writes !== token
      }
      const call = Effect.sync(() => {
        assert.isFalse(held)
        writes++
        return "answer"
      })
      const watched = yield* Effect.flip(
        Effect.locally(outside("reflection.promotion_merge", call, true), CurrentSection, Option.some(section))
      )
      assert.instanceOf(watched, LlmError)
      assert.strictEqual(watched.reason, "superseded")
      assert.isTrue(held)
      const unwatched = yield* Effect.locally(
        outside("facts.extract", call, false),
        CurrentSection,
        Option.some(section)
      )
      assert.strictEqual(unwatched, "answer")
    })
  )
})
