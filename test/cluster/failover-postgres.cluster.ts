import { assert, describe, it } from "@effect/vitest"
import { failoverScenario } from "../support/clusterScenario.js"
import { startPostgres } from "../support/postgres.js"

describe("cluster mode, three runners with PostgreSQL shard storage", () => {
  it("survives a SIGKILLed runner and a joining one without losing, duplicating or sharing a character", async () => {
    const pg = await startPostgres()
    try {
      const figures = await failoverScenario(pg.url)
      console.log(`cluster failover (PostgreSQL): ${JSON.stringify(figures)}`)
      assert.isAbove(figures.movedToJoiner, 0)
    } finally {
      pg.stop()
    }
  })
})
