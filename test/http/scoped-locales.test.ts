/**
 * `scoped_prompt_locales.json` over real HTTP: a scoped write's language lands in N.E.K.O.'s schema (key
 * `["kind","id","scope"]`, full language code, an order), a row N.E.K.O. wrote is what `scoped_context`
 * renders in when the request names no language, and `scoped_forget` removes the subject's row (answering
 * `prompt_locale: 1`) while another subject's row stays; a file that does not decode is bookkeeping, rewritten.
 */
import { assert, describe, it } from "@effect/vitest"
import { readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { post, serverSuite } from "../support/server.js"

const GROUP = { subject_kind: "group_chat", subject_id: "qq:300" }
const MEMBER = { subject_kind: "group_participant", subject_id: "qq:300:111" }
const GROUP_KEY = '["group_chat","qq:300","group_chat:qq:300"]'
const MEMBER_KEY = '["group_participant","qq:300:111","group_participant:qq:300:111"]'
const digest = [
  "[Alice(111)] I love hiking in the Dolomites.",
  "[Bob(222)] I go hiking in the Dolomites every summer.",
  "[Alice(111)] I bought new hiking boots for the Dolomites trip.",
  "[Carla(333)] I am planning a hiking trip to the Dolomites in July.",
  "[Bob(222)] I hiked the Dolomites with my brother last year.",
  "[Carla(333)] My hiking club meets every Sunday near Bolzano."
].map((content) => ({ role: "user", content }))

describe("scoped prompt locales", () => {
  const { temp, startWithVectors } = serverSuite()

  it("writes N.E.K.O.'s scoped_prompt_locales.json, reads it back, and forgets the subject's row", async () => {
    const server = await startWithVectors(temp.memory)
    const file = path.join(temp.memory, "Yuki", "scoped_prompt_locales.json")
    const send = async (route: string, body: unknown) => {
      const r = await post(`${server.url}/internal/memory/Yuki/${route}`, JSON.stringify(body))
      assert.strictEqual(r.status, 200, r.text)
      return r.type.includes("json") ? JSON.parse(r.text) : r.text
    }
    const rows = () => JSON.parse(readFileSync(file, "utf8")).subjects

    await send("scoped_history", { input_history: JSON.stringify(digest), subject: GROUP, language: "zh-CN" })
    await send("scoped_facts", {
      subject: MEMBER,
      facts: [{ text: "Alice likes genmaicha", importance: 6 }],
      language: "ja"
    })
    const written = rows()
    assert.strictEqual(written[GROUP_KEY].language, "zh-CN")
    assert.strictEqual(written[MEMBER_KEY].language, "ja")
    assert.isNumber(written[GROUP_KEY].order)
    assert.strictEqual(written[GROUP_KEY].reserved_order, written[GROUP_KEY].order)

    await post(`${server.url}/internal/maintenance/run_once`, JSON.stringify({ character: "Yuki" }))
    assert.include(await send("scoped_context", { subjects: [GROUP] }), "### 群聊记忆（qq:300）")

    // N.E.K.O. recorded a newer language for the group in its own file: kioku reads it.
    const order = written[GROUP_KEY].order + 1
    writeFileSync(
      file,
      JSON.stringify({ subjects: { ...written, [GROUP_KEY]: { language: "ko", order, reserved_order: order } } })
    )
    assert.include(await send("scoped_context", { subjects: [GROUP] }), "### 그룹 채팅 기억 (qq:300)")

    const forgotten = await send("scoped_forget", { subject: GROUP })
    assert.strictEqual(forgotten.prompt_locale, 1)
    assert.deepStrictEqual(Object.keys(rows()), [MEMBER_KEY], "the member's row stays")
    assert.strictEqual((await send("scoped_forget", { subject: GROUP })).prompt_locale, 0)

    writeFileSync(file, "{ not json")
    await send("scoped_facts", {
      subject: GROUP,
      facts: [{ text: "Dana plays the cello", importance: 5 }],
      language: "en"
    })
    assert.deepStrictEqual(Object.keys(rows()), [GROUP_KEY], "a file that does not decode is rewritten whole")
    assert.strictEqual((await send("scoped_forget", { subject: GROUP })).prompt_locale, 1)
  })
})
