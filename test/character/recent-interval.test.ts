/**
 * recent.json rewritten at most once per `recent_write_interval_ms`: a turn after a quiet interval is on disk
 * when its write returns (N.E.K.O.'s behaviour); turns within the interval of the file's last write are held in
 * memory, served to reads, and written together once the interval is over, without the character pausing.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { boot, setPowerful, testSettings } from "../support/layers.js"
import * as ScriptedLlm from "../support/ScriptedLlm.js"

const turn = (user: string) => ({
  messages: [
    { role: "user", content: user },
    { role: "assistant", content: "I see." }
  ]
})

const onDisk = (dir: string): Array<unknown> =>
  (JSON.parse(readFileSync(path.join(dir, "recent.json"), "utf8")) as Array<{ data: { content: unknown } }>)
    .map((m) => m.data.content)
    .filter((c) => c !== "I see.")

const raw = (dir: string): Array<{ type: string; data: { content: unknown } }> =>
  JSON.parse(readFileSync(path.join(dir, "recent.json"), "utf8"))
const one = (i: number) => ({ messages: [{ role: i % 2 === 0 ? "user" : "assistant", content: `message ${i}` }] })

describe("recent.json write interval", () => {
  it.scoped("a compression's splice writes the turns held for the interval with it", () =>
    Effect.gen(function* () {
      const settings = testSettings({ actor_idle_ttl_seconds: 86_400, recent_write_idle_ms: 60_000 })
      setPowerful(settings, false)
      const scripted = yield* ScriptedLlm.make
      yield* scripted.script.push("recent.summary", { answer: JSON.stringify({ summary: "Twenty-one things." }) })
      const memory = yield* boot(settings, { llm: scripted.layer })
      const dir = path.join(settings.dataDir, "Spliced")
      for (let i = 0; i < 20; i++) yield* memory.write("cache", "Spliced", one(i))
      assert.deepStrictEqual(
        raw(dir).map((m) => m.data.content),
        ["message 0"],
        "the later turns are held"
      )
      yield* memory.write("process", "Spliced", one(20))
      yield* memory.awaitBackground("Spliced")
      const items = raw(dir)
      assert.strictEqual(items[0]?.type, "system")
      assert.deepStrictEqual(
        items.slice(1).map((m) => m.data.content),
        Array.from({ length: 9 }, (_, k) => `message ${12 + k}`)
      )
    })
  )

  it.scoped("writes a turn after a quiet interval at once and the turns within it once the interval is over", () =>
    Effect.gen(function* () {
      const settings = testSettings({
        actor_idle_ttl_seconds: 86_400,
        recent_write_interval_ms: 1000,
        recent_write_idle_ms: 60_000
      })
      setPowerful(settings, false)
      const scripted = yield* ScriptedLlm.make
      const memory = yield* boot(settings, { llm: scripted.layer })
      const dir = path.join(settings.dataDir, "Paced")
      yield* memory.write("cache", "Paced", turn("one"))
      assert.deepStrictEqual(onDisk(dir), ["one"])
      yield* TestClock.adjust("400 millis")
      yield* memory.write("cache", "Paced", turn("two"))
      yield* TestClock.adjust("400 millis")
      yield* memory.write("cache", "Paced", turn("three"))
      assert.deepStrictEqual(onDisk(dir), ["one"], "held within the interval")
      const held = yield* memory.recentHistory("Paced")
      assert.include(held, "three", "reads see the held turns")
      yield* TestClock.adjust("199 millis")
      yield* memory.awaitBackground("Paced")
      assert.deepStrictEqual(onDisk(dir), ["one"])
      yield* TestClock.adjust("1 millis")
      yield* memory.awaitBackground("Paced")
      assert.deepStrictEqual(onDisk(dir), ["one", "two", "three"], "written once the interval is over")
      yield* TestClock.adjust("5 seconds")
      yield* memory.write("cache", "Paced", turn("four"))
      assert.deepStrictEqual(onDisk(dir), ["one", "two", "three", "four"], "after a quiet interval, at once")
    })
  )
})
