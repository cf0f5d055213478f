import { assert, describe, it } from "@effect/vitest"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { get, post, serverSuite } from "../support/server.js"

describe("memory switches", () => {
  const { temp, start } = serverSuite()

  it("switches powerful memory off only after resetting confirmed_at, and round-trips auto review", async () => {
    const dir = path.join(temp.memory, "Sw")
    mkdirSync(dir, { recursive: true })
    writeFileSync(
      path.join(dir, "reflections.json"),
      JSON.stringify([
        {
          id: "ref_c",
          text: "c",
          status: "confirmed",
          created_at: "2026-01-01T00:00:00.000000",
          confirmed_at: "2026-01-02T00:00:00.000000"
        },
        { id: "ref_p", text: "p", status: "pending", created_at: "2026-01-01T00:00:00.000000" }
      ])
    )
    const server = await start(temp.memory)
    assert.deepStrictEqual(JSON.parse((await get(`${server.url}/api/memory/powerful_memory_config`)).text), {
      enabled: true
    })
    const bad = await post(`${server.url}/api/memory/powerful_memory_config`, JSON.stringify({ enabled: "no" }))
    assert.strictEqual(bad.status, 400)
    const off = await post(`${server.url}/api/memory/powerful_memory_config`, JSON.stringify({ enabled: false }))
    assert.deepStrictEqual(JSON.parse(off.text), { success: true, enabled: false })
    const saved = JSON.parse(readFileSync(path.join(dir, "reflections.json"), "utf8"))
    assert.notStrictEqual(saved[0].confirmed_at, "2026-01-02T00:00:00.000000")
    assert.strictEqual(saved[1].confirmed_at, undefined)
    const core = JSON.parse(readFileSync(path.join(temp.root, "config", "core_config.json"), "utf8"))
    assert.strictEqual(core.powerful_memory_enabled, false)
    assert.deepStrictEqual(JSON.parse((await get(`${server.url}/api/memory/powerful_memory_config`)).text), {
      enabled: false
    })
    const reset = await post(`${server.url}/internal/memory/reset_confirmed_at`, "")
    assert.deepStrictEqual(JSON.parse(reset.text), { ok: true, count: 1 })
    assert.deepStrictEqual(JSON.parse((await get(`${server.url}/api/memory/review_config`)).text), { enabled: true })
    const review = await post(`${server.url}/api/memory/review_config`, JSON.stringify({ enabled: false }))
    assert.deepStrictEqual(JSON.parse(review.text), { success: true, enabled: false })
    assert.deepStrictEqual(JSON.parse((await get(`${server.url}/api/memory/review_config`)).text), { enabled: false })
  })
})
