import { assert, describe, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import { mkdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import * as ScriptedLlm from "../support/ScriptedLlm.js"
import { boot, setPowerful, testSettings } from "../support/layers.js"

const long = (topic: string) =>
  `Master talks about ${topic} ` + Array.from({ length: 40 }, (_, i) => `${topic}${i}`).join(" ")
const reflection = (id: string, text: string) => ({
  id,
  text,
  entity: "master",
  status: "pending",
  created_at: "2026-11-30T12:00:00.000000"
})

describe("Stage 2 prompt caps", () => {
  it.scoped("cuts each observation to its token cap and stops at the total budget", () =>
    Effect.gen(function* () {
      const settings = testSettings({
        evidence_per_observation_max_tokens: 8,
        evidence_observations_total_max_tokens: 20
      })
      setPowerful(settings, true)
      const dir = path.join(settings.dataDir, "Caps")
      mkdirSync(dir, { recursive: true })
      const texts = [long("ramen"), long("udon"), long("soba")]
      writeFileSync(
        path.join(dir, "reflections.json"),
        JSON.stringify(texts.map((text, i) => reflection(`ref_00000000000000a${i}`, text)))
      )
      yield* TestClock.setTime(new Date(2026, 10, 30, 12).getTime())
      const scripted = yield* ScriptedLlm.make
      yield* scripted.script.push("facts.extract", {
        answer: JSON.stringify([
          { text: "Master eats noodles daily", importance: 6, entity: "master", event_when: null }
        ])
      })
      yield* scripted.script.push("evidence.signals", { answer: JSON.stringify({ signals: [] }) })
      const memory = yield* boot(settings, { llm: scripted.layer })
      yield* memory.write("cache", "Caps", {
        messages: [
          { role: "user", content: "I eat noodles every day." },
          { role: "assistant", content: "Tasty." }
        ]
      })
      yield* memory.maintainNow("Caps")
      const prompt =
        (yield* scripted.script.requests).find((r) => r.task === "evidence.signals")?.messages[0]?.content ?? ""
      const lines = prompt.split("\n").filter((l) => l.startsWith("- [reflection:"))
      assert.deepStrictEqual(
        lines.map((l) => l.slice(0, 44)),
        ["- [reflection:ref_00000000000000a0] (master)", "- [reflection:ref_00000000000000a1] (master)"]
      )
      assert.include(lines[0] ?? "", "Master talks about ramen")
      assert.notInclude(prompt, "ramen39")
    })
  )
})
