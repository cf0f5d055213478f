/**
 * The 8,000-token content budget of a batched `scoped_history` over real HTTP (the `local` provider): one
 * message of about 330 tokens with a statement in its middle yields that fact, while forty such messages
 * in a two-segment batch (about 13,000 tokens) are trimmed to their heads and tails — the request still
 * succeeds, and no middle statement reaches the facts.
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { post, serverSuite } from "../support/server.js"

const filler = "Hmm. ".repeat(80)
const message = (middle: string) => ({ role: "user", content: `${filler}${middle} ${filler}` })
const segment = (id: string, label: string, middle: string, n: number) => ({
  input_history: JSON.stringify(Array.from({ length: n }, () => message(middle))),
  subject: { subject_kind: "group_participant", subject_id: `qq:500:${id}` },
  speaker_label: label
})

describe("scoped_history batch budget", () => {
  const { temp, start } = serverSuite()

  it("trims the bodies of a batch over 8,000 tokens instead of rejecting it", async () => {
    const server = await start(temp.memory)
    const send = async (body: unknown) => {
      const r = await post(`${server.url}/internal/memory/Rin/scoped_history`, JSON.stringify(body))
      assert.strictEqual(r.status, 200, r.text)
      return JSON.parse(r.text)
    }
    const facts = () => readFileSync(path.join(temp.memory, "Rin", "facts.json"), "utf8")

    const small = await send({ segments: [segment("1", "Alice", "I own a red kayak named Flash.", 1)] })
    assert.strictEqual(small.segments[0].status, "ok")
    assert.include(facts(), "kayak", "within budget the middle of a message is read")

    const big = await send({
      segments: [
        segment("2", "Bob", "I own a green canoe named Drift.", 20),
        segment("3", "Carla", "I keep three hives of honeybees.", 20)
      ]
    })
    assert.deepStrictEqual(
      big.segments.map((s: { status: string }) => s.status),
      ["ok", "ok"]
    )
    assert.notInclude(facts(), "canoe", "over budget the middles are trimmed away")
    assert.notInclude(facts(), "honeybees")
  })
})
