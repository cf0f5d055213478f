import { assert, describe, it } from "@effect/vitest"
import { get, history, post, serverSuite, turn } from "../support/server.js"

describe("the landing page", () => {
  const { temp, start } = serverSuite()

  it("links the pages, lists the characters, shows the status, and the start log prints its address", async () => {
    const server = await start(temp.memory)
    assert.include(server.output(), `open ${server.url}/ (memory browser: ${server.url}/memory_browser`)
    const empty = await get(`${server.url}/`)
    assert.strictEqual(empty.status, 200)
    assert.match(empty.type, /^text\/html/)
    for (const link of ['href="/memory_browser"', 'href="/statecharts"', 'href="/health"'])
      assert.include(empty.text, link)
    assert.include(empty.text, "Characters (0)")
    assert.include(empty.text, ">ready<")
    await post(`${server.url}/cache/Tian`, history(turn("hello", "hi!")))
    const page = (await get(`${server.url}/`)).text
    assert.include(page, "Characters (1)")
    assert.include(page, 'href="/memory_browser?character=Tian">Tian</a>')
    assert.include(page, `${server.url}/cache/Tian -H 'content-type: application/json' \\`)
    assert.notInclude(page, "Authorization")
  })

  it("answers in limited mode and says why the other routes wait", async () => {
    const server = await start(temp.memory, ["--start-blocked"], {}, { untilRecovered: false })
    const page = await get(`${server.url}/`)
    assert.strictEqual(page.status, 200)
    assert.include(page.text, "blocked: waiting for an operator")
    assert.strictEqual((await get(`${server.url}/new_dialog/Tian`)).status, 409)
  })
})
