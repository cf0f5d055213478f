import { assert, describe, it } from "@effect/vitest"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { InvalidCharacterName } from "../../src/domain/CharacterName.js"
import { createMemoryRuntime } from "../../src/lib.js"
import { RootLocked } from "../../src/store/RootLock.js"

describe("library API", () => {
  it("runs the same operations in-process with typed results", async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "kioku-lib-")), "memory")
    const memory = await createMemoryRuntime({ dataDir, config: { master_name: "Sam" } })
    try {
      assert.deepStrictEqual(
        await memory.cache("Mio", {
          messages: [
            { role: "user", content: "I moved to Osaka" },
            { role: "assistant", content: "How exciting!" }
          ]
        }),
        { status: "cached", count: 2 }
      )
      assert.deepStrictEqual(await memory.process("Mio", { messages: [] }), { status: "processed" })
      assert.deepStrictEqual(await memory.settle("Mio", { messages: [] }), { status: "settled" })
      const dialog = await memory.newDialog("Mio")
      assert.include(dialog, "Sam | I moved to Osaka\nMio | How exciting!\n")
      assert.strictEqual(
        await memory.recentHistory("Mio"),
        "Before the chat begins, Mio mentally reviews recent events.\nSam | I moved to Osaka\nMio | How exciting!\n"
      )
      assert.isAtLeast(await memory.lastConversationGap("Mio"), 0)
      assert.deepStrictEqual(await memory.promptLocale("Mio"), { language: null, order: null })
      assert.deepStrictEqual(await memory.setPromptLocale("Mio", "zh-TW"), {
        language: "zh-TW",
        previousLanguage: null,
        changed: true
      })
      assert.strictEqual((await memory.promptLocale("Mio")).language, "zh-TW")
      const unsupported = await memory.setPromptLocale("Mio", "fr").then(
        () => undefined,
        (e: unknown) => e
      )
      assert.instanceOf(unsupported, Error)
      await memory.setPromptLocale("Mio", "en")
      const status = await memory.status("Mio")
      assert.strictEqual(status.unappliedEvents, 0)
      const bad = await memory.cache("../etc", { messages: [] }).then(
        () => undefined,
        (e: unknown) => e
      )
      assert.instanceOf(bad, InvalidCharacterName)
      assert.strictEqual(bad.message, "Invalid characters in lanlan_name")
      const locked = await createMemoryRuntime({ dataDir }).then(
        () => undefined,
        (e: unknown) => e
      )
      assert.instanceOf(locked, RootLocked)
      assert.match(locked.message, /another kioku process/)
    } finally {
      await memory.close()
    }
    const items = JSON.parse(readFileSync(path.join(dataDir, "Mio", "recent.json"), "utf8"))
    assert.strictEqual(items.length, 2)
    const reopened = await createMemoryRuntime({ dataDir })
    assert.include(await reopened.newDialog("Mio"), "I moved to Osaka")
    await reopened.close()
  })
})
