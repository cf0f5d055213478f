import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { seed } from "../support/browserSeed.js"
import { page } from "../support/browser.js"
import { get, serverSuite } from "../support/server.js"

const TOKEN = "browser-token-9f8e7d6c"

describe("signing in to a token-protected server in Chromium", () => {
  const { temp, start } = serverSuite()
  const run = <A>(f: () => Promise<A>) => Effect.promise(f)

  it.scoped(
    "signs in through the form, opens the memory browser, edits a fact, opens the state charts, signs out",
    () =>
      Effect.gen(function* () {
        seed(path.join(temp.memory, "Tian"))
        const server = yield* run(() => start(temp.memory, ["--auth-token", TOKEN]))
        const p = yield* page()
        yield* run(() => p.goto(`${server.url}/memory_browser?character=Tian`))
        assert.strictEqual(new URL(p.url()).pathname, "/")
        yield* run(() => p.getByLabel("Auth token").fill("not the token"))
        yield* run(() => p.getByRole("button", { name: "Sign in" }).click())
        yield* run(() => p.getByRole("alert").filter({ hasText: "That token is not right." }).waitFor())
        assert.deepStrictEqual(yield* run(() => p.context().cookies()), [])

        yield* run(() => p.getByLabel("Auth token").fill(TOKEN))
        yield* run(() => p.getByRole("button", { name: "Sign in" }).click())
        yield* run(() => p.waitForFunction("/facts/.test(document.getElementById('status').textContent)"))
        assert.strictEqual(new URL(p.url()).pathname + new URL(p.url()).search, "/memory_browser?character=Tian")
        const cookies = yield* run(() => p.context().cookies())
        assert.strictEqual(cookies.length, 1)
        assert.include(cookies[0], { name: `kioku_session_${server.port}`, httpOnly: true, sameSite: "Strict" })
        assert.strictEqual(yield* run(() => p.evaluate("document.cookie")), "")

        yield* run(() => p.locator("#tab-facts").click())
        const fact = p.locator('#fact-list li.card[data-id="fact_20261101090000_aaaa0002"]')
        yield* run(() => fact.getByRole("button", { name: "Edit" }).click())
        yield* run(() => fact.getByLabel("Fact text").fill("Tian moved to Kyoto in spring 2025"))
        yield* run(() => fact.getByRole("button", { name: "Save" }).click())
        yield* run(() => p.locator("#status", { hasText: "Saved fact_20261101090000_aaaa0002" }).waitFor())
        assert.include(readFileSync(path.join(temp.memory, "Tian", "facts.json"), "utf8"), "Kyoto in spring 2025")

        assert.strictEqual((yield* run(() => get(`${server.url}/api/memory/browser/Tian`))).status, 401)

        yield* run(() => p.goto(`${server.url}/statecharts?character=Tian`))
        // The chart is served with zero counts; the page fills them in, then names the character in its status.
        yield* run(() => p.locator("#status", { hasText: "Tian: session" }).waitFor())
        const pending = p.locator('g.state[data-machine="reflection"][data-state="pending"] .count')
        assert.strictEqual(yield* run(() => pending.textContent()), "2")

        yield* run(() => p.goto(`${server.url}/`))
        yield* run(() => p.getByRole("button", { name: "Sign out" }).click())
        yield* run(() => p.getByLabel("Auth token").waitFor())
        assert.deepStrictEqual(yield* run(() => p.context().cookies()), [])
        const status = yield* run(() => p.evaluate("fetch('/api/memory/browser/Tian').then((r) => r.status)"))
        assert.strictEqual(status, 401)
      }),
    60_000
  )
})
