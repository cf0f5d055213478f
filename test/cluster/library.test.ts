import { assert, describe, it } from "@effect/vitest"
import { existsSync } from "node:fs"
import * as path from "node:path"
import { ClusterSetupError } from "../../src/cluster/Options.js"
import { createMemoryRuntime } from "../../src/lib.js"
import { get, makeTempRoot, post } from "../support/server.js"
import { freePort, ownerLogs, startRunner } from "../support/cluster.js"

describe("the library as a cluster runner", () => {
  it("sends each operation, a rename too, to the runner that owns the character, itself or a server runner", async () => {
    const temp = makeTempRoot()
    const shardDb = `sqlite:${path.join(temp.root, "shards.db")}`
    const server = await startRunner(temp.memory, shardDb)
    const runnerAddress = `127.0.0.1:${await freePort()}`
    const memory = await createMemoryRuntime({ dataDir: temp.memory, cluster: { runnerAddress, shardDb } })
    try {
      const names = Array.from({ length: 12 }, (_, i) => `lib${i}`)
      // Shards are rebalanced towards the library once it registers; write until both runners own characters.
      for (let round = 0; round < 40; round++) {
        for (const name of names) {
          await memory.cache(name, { messages: [{ role: "user", content: `round ${round} of ${name}` }] })
        }
        const holders = new Set([...ownerLogs(temp.memory).values()].map((log) => log.at(-1)?.runner))
        if (holders.has(runnerAddress) && holders.has(server.id)) break
        await new Promise((done) => setTimeout(done, 250))
      }
      const holders = new Set([...ownerLogs(temp.memory).values()].map((log) => log.at(-1)?.runner))
      assert.isTrue(holders.has(runnerAddress) && holders.has(server.id), "both runners own characters")
      for (const name of names) {
        const viaServer = JSON.parse((await get(`${server.url}/get_recent_history/${name}`)).text)
        assert.include(viaServer, `round 0 of ${name}`)
        assert.strictEqual(await memory.recentHistory(name), viaServer)
      }
      const renamed = await post(
        `${server.url}/api/memory/update_catgirl_name`,
        JSON.stringify({ old_name: "lib0", new_name: "lib0-renamed" })
      )
      assert.deepStrictEqual(JSON.parse(renamed.text), {
        success: true,
        memory_renamed: true,
        memory_server_reloaded: true
      })
      assert.isFalse(existsSync(path.join(temp.memory, "lib0")))
      assert.include(await memory.recentHistory("lib0-renamed"), "round 0 of lib0")
      assert.include(JSON.parse((await get(`${server.url}/get_recent_history/lib0-renamed`)).text), "round 0 of lib0")
      // `kioku maintain --once` through one gateway: each character's jobs run on its owner.
      const maintained = JSON.parse((await post(`${server.url}/internal/maintenance/run_once`, "{}")).text)
      const ran: ReadonlyArray<string> = maintained.ran.map((r: { readonly character: string }) => r.character)
      assert.deepStrictEqual([...ran].sort(), ["lib0-renamed", ...names.slice(1)].sort())
      const bad = await createMemoryRuntime({
        dataDir: temp.memory,
        cluster: { runnerAddress: "nowhere", shardDb }
      }).then(
        () => undefined,
        (e: unknown) => e
      )
      assert.instanceOf(bad, ClusterSetupError)
    } finally {
      await memory.close()
      await server.stop()
      temp.cleanup()
    }
  })
})
