import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import * as DueIndex from "../../src/store/DueIndex.js"

const LOOPS = ["idle_maintenance", "signal_extraction"]

describe("due-work index", () => {
  it.effect("keeps visits, timers and marks across a reopen", () =>
    Effect.gen(function* () {
      const root = mkdtempSync(path.join(tmpdir(), "kioku-due-"))
      try {
        const first = (yield* DueIndex.open(root, LOOPS)).index
        first.mark("Aki")
        first.mark("Bo")
        const seq = first.next()
        first.visited("Aki", "signal_extraction", seq, true, null)
        first.visited("Aki", "idle_maintenance", seq, true, 1234)
        first.visited("Bo", "idle_maintenance", seq, false, null)
        assert.deepStrictEqual(first.dueFor("idle_maintenance"), ["Bo"])
        first.close()

        const second = (yield* DueIndex.open(root, LOOPS)).index
        assert.deepStrictEqual(second.dueFor("idle_maintenance"), ["Bo"])
        assert.deepStrictEqual(second.dueFor("signal_extraction"), ["Bo"])
        second.fire(["idle_maintenance"], 1000)
        assert.deepStrictEqual(second.dueFor("idle_maintenance"), ["Bo"])
        second.fire(["idle_maintenance"], 1234)
        assert.deepStrictEqual(second.dueFor("idle_maintenance"), ["Aki", "Bo"])
        assert.deepStrictEqual(second.dueFor("signal_extraction"), ["Bo"])
        second.mark("Aki")
        assert.deepStrictEqual(second.dueFor("signal_extraction"), ["Aki", "Bo"])
        second.close()

        const raw = new Database(path.join(root, DueIndex.FILE))
        raw.pragma("journal_mode = WAL")
        const rows = raw.prepare("SELECT name, timer FROM due ORDER BY name").all()
        assert.deepStrictEqual(rows, [
          { name: "Aki", timer: null },
          { name: "Bo", timer: null }
        ])
        raw.close()
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    })
  )
})
