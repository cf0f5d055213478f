import { assert, describe, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { boot, setPowerful, testSettings } from "../support/layers.js"

const json = (file: string) => JSON.parse(readFileSync(file, "utf8"))

const setup = (name: string) =>
  Effect.gen(function* () {
    const settings = testSettings()
    setPowerful(settings, true)
    yield* TestClock.setTime(new Date(2026, 10, 30, 12).getTime())
    const memory = yield* boot(settings)
    const dir = path.join(settings.dataDir, name)
    const reflections = (): Array<{ id: string; status: string; reinforcement: number; disputation: number }> =>
      json(path.join(dir, "reflections.json"))
    const say = (...lines: ReadonlyArray<readonly [role: "user" | "assistant", text: string]>) =>
      Effect.gen(function* () {
        yield* memory.write("cache", name, { messages: lines.map(([role, content]) => ({ role, content })) })
        yield* memory.awaitBackground(name)
        yield* memory.status(name)
      })
    return { settings, memory, dir, reflections, say }
  })

describe("the memory lifecycle end to end (powerful memory on, local provider)", () => {
  it.scoped("facts → pending → confirmed by the user → reinforced → promoted into persona → shown under persona", () =>
    Effect.gen(function* () {
      const { memory, dir, reflections, say } = yield* setup("Flow")
      const lines = ["My name is Alex.", "Remember that ramen is my favourite food.", "I love sushi.", "I love udon."]
      lines.push("I love soba.", "I love tea.")
      for (const line of lines) {
        yield* say(["user", line])
      }
      yield* memory.maintainNow("Flow")
      const [pending] = reflections()
      assert.strictEqual(pending?.status, "pending")
      assert.include(
        yield* memory.newDialog("Flow", { language: "en" }),
        "### Flow's recent impressions (not yet certain)"
      )
      yield* TestClock.adjust("31 minutes")
      yield* memory.recordSurfaced("Flow", [pending?.id ?? ""])
      yield* say(["assistant", "You love noodles, don't you?"], ["user", "Yes, exactly!"])
      assert.deepStrictEqual(
        reflections().map((r) => [r.status, r.reinforcement]),
        [["confirmed", 1.8]]
      )
      yield* TestClock.adjust("1 hour")
      yield* say(["user", "I love ramen, sushi, udon, soba and tea."])
      yield* memory.maintainNow("Flow")
      const [done] = reflections()
      assert.strictEqual(done?.status, "promoted")
      assert.isAtLeast(done?.reinforcement ?? 0, 2)
      const persona = yield* memory.persona("Flow")
      const promoted = persona["master"]?.facts.find((e) => e.id === `prom_${pending?.id}`)
      assert.strictEqual(promoted?.source, "reflection")
      const dialog = yield* memory.newDialog("Flow", { language: "en" })
      assert.include(dialog, `### About Master\n- ${promoted?.text}`)
      assert.notInclude(dialog, "recent impressions")
      assert.isTrue(existsSync(path.join(dir, "persona.json")))
    })
  )

  it.scoped("a denied reflection stays below zero for 14 days, then leaves for an archive shard", () =>
    Effect.gen(function* () {
      const { memory, dir, reflections, say } = yield* setup("Deny")
      for (const line of ["I love ramen.", "I love sushi.", "I love udon.", "I love soba.", "I love tempura."]) {
        yield* say(["user", line])
      }
      yield* memory.maintainNow("Deny")
      const [r] = reflections()
      yield* TestClock.adjust("31 minutes")
      yield* memory.recordSurfaced("Deny", [r?.id ?? ""])
      yield* say(["assistant", "You love noodles, right?"], ["user", "No, that's wrong."])
      assert.deepStrictEqual(
        reflections().map((x) => x.status),
        ["denied"]
      )
      assert.notInclude(yield* memory.newDialog("Deny", { language: "en" }), r?.id ?? "")
      for (let day = 1; day <= 14; day++) {
        assert.strictEqual(reflections().length, 1, `still there before day ${day}`)
        yield* memory.maintainNow("Deny")
        yield* TestClock.adjust("1 day")
      }
      assert.deepStrictEqual(reflections(), [])
      const shards = readdirSync(path.join(dir, "reflection_archive"))
      assert.strictEqual(shards.length, 1)
      const [archived] = json(path.join(dir, "reflection_archive", shards[0] ?? ""))
      assert.deepStrictEqual([archived.id, archived.status, archived.sub_zero_days], [r?.id, "archived", 14])
      assert.strictEqual(archived.archive_shard_path, shards[0])
    })
  )
})
