import { assert, describe, it } from "@effect/vitest"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { Effect, Fiber, Ref, TestClock } from "effect"
import { boot, testSettings } from "../support/layers.js"

const NOW = new Date(2026, 11, 3, 12).getTime()
const card = (hobby: string) => ({ 主人: { 档案名: "Alex" }, 猫娘: { Kiri: { 爱好: hobby } } })

const plant = (characters: Record<string, unknown>) =>
  Effect.gen(function* () {
    const settings = testSettings()
    mkdirSync(settings.configDir, { recursive: true })
    writeFileSync(path.join(settings.configDir, "characters.json"), JSON.stringify(characters))
    yield* TestClock.setTime(NOW)
    const memory = yield* boot(settings)
    yield* memory.write("cache", "Kiri", { messages: [{ role: "user", content: "hello" }] })
    return {
      settings,
      memory,
      persona: () => readFileSync(path.join(settings.dataDir, "Kiri", "persona.json"), "utf8")
    }
  })

describe("/new_dialog beside the mailbox", () => {
  it.scoped("renders what the mailbox renders; a card change still goes through the mailbox and is journaled", () =>
    Effect.gen(function* () {
      const { settings, memory, persona } = yield* plant(card("knitting"))
      const first = yield* memory.newDialog("Kiri", { language: "en" })
      assert.include(first, "knitting")
      const files = persona()
      // Settled now: the next renders are served beside the mailbox, write nothing and read the same.
      assert.strictEqual(yield* memory.newDialog("Kiri", { language: "en" }), first)
      assert.strictEqual(persona(), files)
      writeFileSync(path.join(settings.configDir, "characters.json"), JSON.stringify(card("rock climbing")))
      const after = yield* memory.newDialog("Kiri", { language: "en" })
      assert.include(after, "rock climbing")
      assert.notInclude(after, "knitting")
      assert.include(persona(), "rock climbing")
    })
  )

  it.scoped("is answered while a large write of the same character is being committed", () =>
    Effect.gen(function* () {
      const { memory } = yield* plant(card("knitting"))
      yield* memory.newDialog("Kiri", { language: "en" })
      const order = yield* Ref.make<ReadonlyArray<string>>([])
      const note = (what: string) => Ref.update(order, (o) => [...o, what])
      const messages = Array.from({ length: 3000 }, (_, i) => ({
        role: i % 2 === 0 ? "user" : "assistant",
        content: `line ${i} about the weather, the river and the lanterns by the bridge`
      }))
      const write = yield* Effect.fork(
        memory.write("cache", "Kiri", { messages }).pipe(Effect.tap(() => note("write")))
      )
      yield* Effect.yieldNow()
      const dialog = yield* memory.newDialog("Kiri", { language: "en" })
      yield* note("dialog")
      yield* Fiber.join(write)
      assert.deepStrictEqual(yield* Ref.get(order), ["dialog", "write"])
      assert.include(dialog, "knitting")
      assert.include(yield* memory.newDialog("Kiri", { language: "en" }), "lanterns by the bridge")
    })
  )
})
