import { assert, describe, it } from "@effect/vitest"
import * as path from "node:path"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { failoverScenario } from "../support/clusterScenario.js"

describe("cluster mode, three runners on one host with SQLite shard storage", () => {
  it("survives a SIGKILLed runner and a joining one without losing, duplicating or sharing a character", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "kioku-shards-"))
    try {
      const figures = await failoverScenario(`sqlite:${path.join(dir, "shards.db")}`)
      console.log(`cluster failover (SQLite): ${JSON.stringify(figures)}`)
      assert.isAbove(figures.movedToJoiner, 0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
