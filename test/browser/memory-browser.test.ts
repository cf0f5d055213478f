import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { seed } from "../support/browserSeed.js"
import { openPage, page } from "../support/browser.js"
import { get, post, serverSuite, type RunningServer } from "../support/server.js"

describe("the /memory_browser page in Chromium", () => {
  let server: RunningServer | undefined
  const { temp, start } = serverSuite()

  const open = (size?: { readonly width: number; readonly height: number }) =>
    Effect.gen(function* () {
      seed(path.join(temp.memory, "Tian"))
      const opened = yield* openPage(
        () => start(temp.memory),
        "/memory_browser?character=Tian",
        "/facts/.test(document.getElementById('status').textContent)",
        size
      )
      server = opened.server
      return opened.page
    })
  const run = <A>(f: () => Promise<A>) => Effect.promise(f)

  it.scoped(
    "confirms a reflection (status and history change), edits a fact, toggles powerful memory",
    () =>
      Effect.gen(function* () {
        const p = yield* open()
        assert.strictEqual(yield* run(() => p.locator("#character").inputValue()), "Tian")

        yield* run(() => p.locator("#tab-reflections").click())
        const card = p.locator('#reflection-list li.card[data-id="ref_p1"]')
        assert.include(yield* run(() => card.textContent()), "Tian drinks oolong tea every morning")
        assert.include(yield* run(() => card.locator(".badge").textContent()), "pending")
        assert.match((yield* run(() => card.textContent())) ?? "", /score now [\d.]+ → 7 d [\d.]+ → 30 d [\d.]+/)
        yield* run(() => card.getByRole("button", { name: "Confirm" }).click())
        yield* run(() => card.locator(".badge", { hasText: "confirmed" }).waitFor())
        yield* run(() => card.locator("table.history").waitFor())
        const rows = (yield* run(() => card.locator("table.history tr").allTextContents())).join("\n")
        assert.include(rows, "reflection.state_changed")
        assert.include(rows, "pendingconfirmed")

        yield* run(() => p.locator("#tab-facts").focus())
        yield* run(() => p.keyboard.press("Enter"))
        yield* run(() => p.locator("#fact-search").fill("kyoto"))
        assert.strictEqual(yield* run(() => p.locator("#fact-list li.card").count()), 1)
        const fact = p.locator("#fact-list li.card").first()
        yield* run(() => fact.getByRole("button", { name: "Edit" }).click())
        yield* run(() => fact.getByLabel("Fact text").fill("Tian moved to Kyoto in spring 2025"))
        yield* run(() => fact.getByRole("button", { name: "Save" }).click())
        yield* run(() => p.locator("#status", { hasText: "Saved fact_20261101090000_aaaa0002" }).waitFor())
        assert.include(yield* run(() => p.locator("#fact-list").textContent()), "Kyoto in spring 2025")
        yield* run(() => p.locator("#fact-search").fill("morning"))
        assert.strictEqual(yield* run(() => p.locator("#fact-list li.card").count()), 1)
        const archive = p.locator("#fact-archive-summary")
        assert.strictEqual(yield* run(() => archive.textContent()), "Archived facts (1 of 2, read-only)")
        yield* run(() => archive.focus())
        yield* run(() => p.keyboard.press("Enter"))
        const archived = p.locator('#fact-archive-list li.card[data-id="fact_20260901090000_bbbb0002"]')
        yield* run(() => archived.waitFor())
        assert.include(yield* run(() => archived.textContent()), "archived 2026-10-01T08:00:00")
        assert.strictEqual(yield* run(() => archived.getByRole("button").count()), 0)
        assert.include(readFileSync(path.join(temp.memory, "Tian", "facts.json"), "utf8"), "Kyoto in spring 2025")

        yield* run(() => p.locator("#tab-settings").click())
        const powerful = p.getByLabel("Powerful memory")
        const before = yield* run(() => powerful.isChecked())
        yield* run(() => powerful.click())
        yield* run(() => p.locator("#powerful-msg", { hasText: before ? "off" : "on" }).waitFor())
        const config = JSON.parse((yield* run(() => get(`${server?.url}/api/memory/powerful_memory_config`))).text)
        assert.strictEqual(config.enabled, !before)
        assert.strictEqual(yield* run(() => p.locator("#funnel svg rect").count()), 10)

        // KIOKU_SCREENSHOTS=1 refreshes the screenshot shown in the README and docs/pages.md.
        if (process.env["KIOKU_SCREENSHOTS"] === "1") {
          yield* run(() => p.locator("#tab-reflections").click())
          yield* run(() => p.screenshot({ path: path.resolve("docs/memory-browser.png") }))
        }
      }),
    60_000
  )

  it.scoped(
    "shows protected persona entries read-only and stays usable at a phone width",
    () =>
      Effect.gen(function* () {
        const p = yield* open({ width: 390, height: 844 })
        for (const tab of ["recent", "facts", "reflections", "persona", "settings"]) {
          yield* run(() => p.locator(`#tab-${tab}`).click())
          const width = Number(yield* run(() => p.evaluate("document.documentElement.scrollWidth")))
          assert.isAtMost(width, 390 + 1, `${tab}: the page itself does not scroll sideways`)
        }
        yield* run(() => p.locator("#tab-persona").click())
        const card = p.locator('#persona-list li.card[data-id="card_0a0b0c0d"]')
        assert.include(yield* run(() => card.textContent()), "read-only")
        assert.strictEqual(yield* run(() => card.getByRole("button").count()), 0)
        const manual = p.locator('#persona-list li.card[data-id="manual_2"]')
        assert.strictEqual(yield* run(() => manual.getByRole("button").count()), 2)
      }),
    60_000
  )

  it.scoped(
    "edits, clears and saves recent history; a stale save shows the reload prompt",
    () =>
      Effect.gen(function* () {
        const dir = path.join(temp.memory, "Tian")
        seed(dir)
        const item = (type: string, content: string) => ({ type, data: { content } })
        writeFileSync(
          path.join(dir, "recent.json"),
          JSON.stringify([
            item("system", "memo: likes tea\n---\nolder: moved to Kyoto"),
            item("human", "hello"),
            item("ai", "hi there"),
            item("human", "bye")
          ])
        )
        server = yield* run(() => start(temp.memory))
        const p = yield* page()
        yield* run(() => p.goto(`${server?.url}/memory_browser?character=Tian`))
        yield* run(() => p.locator("#recent-list li.card").nth(2).waitFor())
        assert.strictEqual(yield* run(() => p.locator("#memo").inputValue()), "memo: likes tea")
        assert.strictEqual(yield* run(() => p.getByLabel("Older").inputValue()), "older: moved to Kyoto")
        // Clicks save and waits for the save request's answer, so a message left from an earlier save
        // cannot be mistaken for this one.
        const saveAndWait = () =>
          run(() =>
            Promise.all([
              p.waitForResponse((r) => r.url().includes("/api/memory/recent_file/save")),
              p.locator("#recent-save").click()
            ])
          )
        yield* run(() => p.locator("#msg-0").fill("hello again"))
        yield* run(() => p.locator("#recent-list li.card").nth(2).getByRole("button", { name: "Delete" }).click())
        yield* saveAndWait()
        yield* run(() => p.locator("#recent-msg", { hasText: "Saved." }).waitFor())
        const file = () => get(`${server?.url}/api/memory/recent_file?filename=recent_Tian.json`)
        const saved = JSON.parse((yield* run(file)).text)
        assert.include(saved.content, "hello again")
        assert.include(saved.content, JSON.stringify("memo: likes tea\n---\nolder: moved to Kyoto"))
        assert.notInclude(saved.content, "bye")

        const other = yield* run(() =>
          post(
            `${server?.url}/api/memory/recent_file/save`,
            JSON.stringify({
              filename: "recent_Tian.json",
              fingerprint: saved.fingerprint,
              identity_token: saved.identity_token,
              chat: [{ role: "system", text: "memo: changed elsewhere" }]
            })
          )
        )
        assert.strictEqual(other.status, 200, other.text)
        yield* run(() => p.locator("#msg-0").fill("a stale edit"))
        yield* run(() => p.locator("#recent-save").click())
        yield* run(() => p.locator("#recent-conflict").waitFor())
        assert.include(yield* run(() => p.locator("#recent-conflict").textContent()), "changed on the server")
        yield* run(() => p.getByRole("button", { name: "Reload" }).click())
        yield* run(() => p.locator("#recent-conflict").waitFor({ state: "hidden" }))
        yield* run(() => p.waitForFunction("document.getElementById('memo').value === 'memo: changed elsewhere'"))
        assert.notInclude(JSON.parse((yield* run(file)).text).content, "a stale edit")

        yield* run(() => p.locator("#memo").fill("memo: kept\n"))
        yield* run(() => p.locator("#memo-older").fill("older: an edited older part"))
        yield* run(() => p.locator("#recent-clear").click())
        yield* saveAndWait()
        const cleared = JSON.parse(JSON.parse((yield* run(file)).text).content)
        assert.deepStrictEqual(
          cleared.map((i: { data: { content: string } }) => i.data.content),
          ["memo: kept\n\n---\n\nolder: an edited older part"]
        )
      }),
    60_000
  )
})
