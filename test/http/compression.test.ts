import { afterAll, assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { flushRecent, get, history, makeTempRoot, post, startServer, turn } from "../support/server.js"

const facts: ReadonlyArray<readonly [string, string]> = [
  ["My name is Alex and I have lived in Osaka since 2019.", "Osaka is a lovely city!"],
  ["My sister Mei turns 27 on 14 March.", "I'll remember Mei's birthday."],
  ["I work at Nintendo as a QA tester, for 3 years now.", "That sounds like fun."],
  ["Please don't mention my old job at Initech.", "Understood, I won't bring it up."]
]

describe("recent compression with the default local provider", () => {
  const temp = makeTempRoot()
  afterAll(() => temp.cleanup())

  it("compresses 25 /process turns into a memo that keeps names and numbers", async () => {
    const server = await startServer(temp.memory)
    try {
      const turns = Array.from({ length: 25 }, (_, i) => facts[i] ?? [`filler question ${i}?`, `filler answer ${i}.`])
      for (const [i, [user, ai]] of turns.entries()) {
        const r = await post(`${server.url}/process/Tian`, history(turn(user, ai)))
        assert.deepStrictEqual(JSON.parse(r.text), { status: "processed" }, `turn ${i}`)
      }
      await flushRecent(server.url, "Tian")
      const items: Array<{ type: string; data: { content: string } }> = JSON.parse(
        readFileSync(path.join(temp.memory, "Tian", "recent.json"), "utf8")
      )
      const memo = items[0]
      assert.strictEqual(memo?.type, "system")
      assert.match(memo?.data.content ?? "", /^Memo from prior conversations: /)
      for (const kept of [
        "Osaka",
        "2019",
        "Mei",
        "27",
        "14 March",
        "Nintendo",
        "3 years",
        "Master does not want to talk about Master's old job at Initech"
      ]) {
        assert.include(memo?.data.content, kept)
      }
      for (const dropped of ["filler question", "That sounds like fun", "I'll remember", " my "]) {
        assert.notInclude(memo?.data.content, dropped)
      }
      const rest = items.slice(1).map((m) => m.data.content)
      assert.strictEqual(rest.length, 13)
      assert.deepStrictEqual(rest, turns.slice(-7).flat().slice(-13))
      const dialog = await get(`${server.url}/new_dialog/Tian`)
      assert.include(dialog.text, "SYSTEM_MESSAGE | Memo from prior conversations: ")
      assert.include(dialog.text, "Mei turns 27 on 14 March")
      assert.isTrue(dialog.text.endsWith("Master | filler question 24?\nTian | filler answer 24.\n"))
      const cancel = await post(`${server.url}/cancel_correction/Tian`, "")
      assert.deepStrictEqual(JSON.parse(cancel.text), { status: "no_task" })
    } finally {
      await server.stop()
    }
  })
})
