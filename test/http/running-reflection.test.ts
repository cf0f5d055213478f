import { assert, describe, it } from "@effect/vitest"
import { existsSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { get, history, post, serverSuite, turn } from "../support/server.js"

const conversation: ReadonlyArray<readonly [string, string]> = [
  ["I go jogging every morning before work", "That's a great habit!"],
  ["I ran my first full marathon in Kyoto last month!", "Wow, congratulations!"],
  ["My running club meets every Sunday at 7am", "That's early!"],
  ["I'm training for the Tokyo marathon next spring", "Good luck with it!"],
  ["I bought new running shoes for race day", "Nice, are they comfortable?"],
  ["I usually run about 40 kilometres a week", "That's a lot!"],
  ["My goal is to run Tokyo in under four hours", "You can do it!"]
]

describe("a conversation about running, with the default local provider", () => {
  const { temp, start } = serverSuite()

  it("seven /process turns and one maintenance pass leave a pending reflection that /new_dialog renders", async () => {
    const server = await start(temp.memory)
    for (const [i, [user, ai]] of conversation.entries()) {
      const r = await post(`${server.url}/process/Tian`, history(turn(user, ai)))
      assert.deepStrictEqual(JSON.parse(r.text), { status: "processed" }, `turn ${i}`)
    }
    const ran = await post(`${server.url}/internal/maintenance/run_once`, JSON.stringify({ character: "Tian" }))
    assert.strictEqual(ran.status, 200, ran.text)
    const dir = path.join(temp.memory, "Tian")
    const facts: ReadonlyArray<{ id: string; text: string; importance: number }> = JSON.parse(
      readFileSync(path.join(dir, "facts.json"), "utf8")
    )
    const reflections: ReadonlyArray<{ text: string; status: string; source_fact_ids: ReadonlyArray<string> }> =
      existsSync(path.join(dir, "reflections.json"))
        ? JSON.parse(readFileSync(path.join(dir, "reflections.json"), "utf8"))
        : []
    assert.strictEqual(reflections.length, 1, JSON.stringify(facts.map((f) => [f.text, f.importance])))
    const [reflection] = reflections
    assert.strictEqual(reflection?.status, "pending")
    assert.match(reflection?.text ?? "", /^Master is a dedicated runner: /)
    assert.isAtLeast(reflection?.source_fact_ids.length ?? 0, 5)
    const byId = new Map(facts.map((f) => [f.id, f.text]))
    for (const id of reflection?.source_fact_ids ?? []) {
      assert.match(byId.get(id) ?? "", /jog|run|marathon|race/i, "drawn from the running facts only")
    }
    const dialog = await get(`${server.url}/new_dialog/Tian`)
    assert.include(dialog.text, `### Tian's recent impressions (not yet certain)\n- ${reflection?.text}`)
  })
})
