import { assert, describe, it } from "@effect/vitest"
import { renameSync } from "node:fs"
import * as path from "node:path"
import { get, history, post, serverSuite, turn } from "../support/server.js"

describe("release_character and reload", () => {
  const { temp, start } = serverSuite()
  const live = async (url: string): Promise<ReadonlyArray<string>> =>
    JSON.parse((await get(`${url}/api/memory/live_actors`)).text).actors.map((a: { name: string }) => a.name)

  it("releases a character so its directory can be moved, then reload reads it again under the new name", async () => {
    const server = await start(temp.memory)
    await post(`${server.url}/cache/Hana`, history(turn("I moved to Sapporo last spring", "Oh, nice!")))
    assert.include(await live(server.url), "Hana")
    const released = await post(
      `${server.url}/release_character/Hana?derived_task_claim_token=t1&derived_task_claim_generation=3`,
      ""
    )
    assert.strictEqual(released.status, 200, released.text)
    assert.deepStrictEqual(JSON.parse(released.text), {
      status: "success",
      character_name: "Hana",
      cancelled_derived_tasks: 0,
      derived_task_claim_token: "t1"
    })
    assert.notInclude(await live(server.url), "Hana", "the actor is closed, time_indexed.db with it")
    renameSync(path.join(temp.memory, "Hana"), path.join(temp.memory, "Hana2"))
    const reload = await post(
      `${server.url}/reload`,
      JSON.stringify({ release_derived_task_claims: { Hana: ["t1"] }, resume_derived_task_names: ["Hana2", 7] })
    )
    assert.strictEqual(JSON.parse(reload.text).status, "success")
    const moved = JSON.parse((await get(`${server.url}/get_recent_history/Hana2`)).text)
    assert.include(moved, "I moved to Sapporo last spring")
    const old = JSON.parse((await get(`${server.url}/get_recent_history/Hana`)).text)
    assert.notInclude(old, "Sapporo")

    const late = await post(
      `${server.url}/release_character/Hana?derived_task_claim_token=t1&derived_task_claim_generation=3`,
      ""
    )
    assert.strictEqual(late.status, 409)
    assert.deepStrictEqual(JSON.parse(late.text), {
      status: "cancelled",
      character_name: "Hana",
      message: "release claim was already withdrawn"
    })
  })

  it("answers 400 without the claim, 422 for a bad generation or flag, 400 for a bad name, and a lenient reload", async () => {
    const server = await start(temp.memory)
    const bare = await post(`${server.url}/release_character/Mio`, "")
    assert.strictEqual(bare.status, 400)
    assert.deepStrictEqual(JSON.parse(bare.text), {
      status: "error",
      character_name: "Mio",
      message: "derived task claim token and generation are required"
    })
    const noGen = await post(`${server.url}/release_character/Mio?derived_task_claim_token=x`, "")
    assert.strictEqual(noGen.status, 400)
    const badGen = await post(
      `${server.url}/release_character/Mio?derived_task_claim_token=x&derived_task_claim_generation=two`,
      ""
    )
    assert.strictEqual(badGen.status, 422)
    const badHold = await post(
      `${server.url}/release_character/Mio?derived_task_claim_token=x&derived_task_claim_generation=1&hold_derived_task_admission=maybe`,
      ""
    )
    assert.strictEqual(badHold.status, 422)
    const badName = await post(
      `${server.url}/release_character/a%00b?derived_task_claim_token=x&derived_task_claim_generation=1`,
      ""
    )
    assert.strictEqual(badName.status, 400)
    assert.strictEqual(JSON.parse(badName.text).status, "error")
    for (const body of ["", "not json", "[1,2]", JSON.stringify({ resume_derived_task_names: "Mio" })]) {
      const r = await post(`${server.url}/reload`, body)
      assert.strictEqual(r.status, 200)
      assert.strictEqual(JSON.parse(r.text).status, "success", body)
    }
  })
})
