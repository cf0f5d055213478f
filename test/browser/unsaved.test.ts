import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { mkdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { seed } from "../support/browserSeed.js"
import { page } from "../support/browser.js"
import { serverSuite } from "../support/server.js"

describe("the memory browser's unsaved-changes guard in Chromium", () => {
  const { temp, start } = serverSuite()
  const run = <A>(f: () => Promise<A>) => Effect.promise(f)

  it.scoped(
    "asks before leaving a tab, the character or the page with unsaved edits",
    () =>
      Effect.gen(function* () {
        const dir = path.join(temp.memory, "Tian")
        seed(dir)
        mkdirSync(path.join(temp.memory, "Mio"), { recursive: true })
        const item = (type: string, content: string) => ({ type, data: { content } })
        writeFileSync(path.join(dir, "recent.json"), JSON.stringify([item("human", "hello"), item("ai", "hi")]))
        const server = yield* run(() => start(temp.memory))
        const p = yield* page()
        yield* run(() => p.goto(`${server.url}/memory_browser?character=Tian`))
        yield* run(() => p.locator("#msg-1").waitFor())
        const dialog = p.getByRole("dialog", { name: "Unsaved changes" })
        const unloadBlocked = () =>
          run(() =>
            p.evaluate(
              "(() => { const e = new Event('beforeunload', { cancelable: true }); dispatchEvent(e); return e.defaultPrevented })()"
            )
          )
        const selected = () => run(() => p.locator("[role=tab][aria-selected=true]").getAttribute("id"))

        // Nothing edited: tabs change without asking.
        yield* run(() => p.locator("#tab-facts").click())
        assert.strictEqual(yield* selected(), "tab-facts")
        yield* run(() => p.locator("#tab-recent").click())

        yield* run(() => p.locator("#msg-0").fill("hello, edited"))
        yield* run(() => p.locator("#tab-facts").click())
        yield* run(() => dialog.waitFor())
        assert.include(yield* run(() => dialog.textContent()), "Recent tab has unsaved changes")
        yield* run(() => p.keyboard.press("Escape"))
        yield* run(() => dialog.waitFor({ state: "hidden" }))
        assert.strictEqual(yield* selected(), "tab-recent")
        assert.strictEqual(yield* run(() => p.locator("#msg-0").inputValue()), "hello, edited")

        yield* run(() => p.locator("#character").selectOption("Mio"))
        yield* run(() => dialog.getByRole("button", { name: "Keep editing" }).click())
        yield* run(() => p.waitForFunction("document.getElementById('character').value === 'Tian'"))

        // Leaving the page: the beforeunload handler cancels the unload, so the browser asks.
        assert.isTrue(yield* unloadBlocked())

        yield* run(() => p.locator("#tab-facts").click())
        yield* run(() => dialog.getByRole("button", { name: "Discard changes" }).click())
        yield* run(() => p.locator("#tab-facts[aria-selected=true]").waitFor())
        yield* run(() => p.locator("#tab-recent").click())
        yield* run(() => p.waitForFunction("document.getElementById('msg-0')?.value === 'hello'"))
        assert.isFalse(yield* unloadBlocked())

        // An open fact editor with changed text guards its tab too; unchanged, it does not.
        yield* run(() => p.locator("#tab-facts").click())
        const fact = p.locator("#fact-list li.card").first()
        yield* run(() => fact.getByRole("button", { name: "Edit" }).click())
        yield* run(() => p.locator("#tab-persona").click())
        assert.strictEqual(yield* selected(), "tab-persona")
        yield* run(() => p.locator("#tab-facts").click())
        yield* run(() => fact.getByLabel("Fact text").fill("a changed fact"))
        // A new search keeps the open editor and its text, even when the filter no longer matches its fact.
        yield* run(() => p.locator("#fact-search").fill("zzz-no-such-fact"))
        const area = p.locator("#fact-list .editor textarea")
        assert.strictEqual(yield* run(() => area.inputValue()), "a changed fact")
        yield* run(() => p.locator("#fact-search").fill(""))
        assert.strictEqual(yield* run(() => area.inputValue()), "a changed fact")
        yield* run(() => p.locator("#character").selectOption("Mio"))
        yield* run(() => dialog.getByRole("button", { name: "Discard changes" }).click())
        yield* run(() => p.locator("#status", { hasText: "Mio" }).waitFor())
        assert.strictEqual(yield* run(() => p.locator("#character").inputValue()), "Mio")
      }),
    60_000
  )
})
