import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as path from "node:path"
import { openPage } from "../support/browser.js"
import { serverSuite } from "../support/server.js"
import { seed } from "../support/statechartSeed.js"

describe("the /statecharts page in Chromium", () => {
  const { temp, start } = serverSuite()

  const open = (size?: { readonly width: number; readonly height: number }) =>
    Effect.gen(function* () {
      seed(path.join(temp.memory, "Tian"))
      const { page } = yield* openPage(
        () => start(temp.memory),
        "/statecharts?character=Tian",
        "document.getElementById('status').textContent !== ''",
        size
      )
      return page
    })

  it.scoped(
    "draws the four machines with the seeded counts; a state lists its entries, an entry its history",
    () =>
      Effect.gen(function* () {
        const p = yield* open()
        for (const id of ["reflection", "persona", "session", "recent"]) {
          assert.isTrue(yield* Effect.promise(() => p.locator(`#chart-${id}`).isVisible()), id)
        }
        const count = (machine: string, state: string) =>
          Effect.promise(() =>
            p.locator(`g.state[data-machine="${machine}"][data-state="${state}"] .count`).textContent()
          )
        assert.deepStrictEqual(
          [yield* count("reflection", "pending"), yield* count("reflection", "confirmed")],
          ["2", "1"]
        )
        assert.deepStrictEqual(
          [yield* count("reflection", "archived"), yield* count("persona", "suppressed")],
          ["1", "1"]
        )
        const confirmed = p.locator('g.state[data-machine="reflection"][data-state="confirmed"]')
        yield* Effect.promise(() => confirmed.focus())
        yield* Effect.promise(() => p.keyboard.press("Enter"))
        yield* Effect.promise(() => p.locator("#panel button", { hasText: "reflection ref_c1" }).click())
        yield* Effect.promise(() => p.locator("#panel table").waitFor())
        const rows = yield* Effect.promise(() => p.locator("#panel tr").allTextContents())
        assert.include(rows.join("\n"), "reflection.state_changed")
        assert.include(rows.join("\n"), "pendingconfirmed")
        // KIOKU_SCREENSHOTS=1 refreshes the screenshot shown in docs/pages.md.
        if (process.env["KIOKU_SCREENSHOTS"] === "1") {
          yield* Effect.promise(() => p.screenshot({ path: path.resolve("docs/statecharts.png") }))
        }
      }),
    60_000
  )

  it.scoped(
    "stays usable at a phone width",
    () =>
      Effect.gen(function* () {
        const p = yield* open({ width: 390, height: 844 })
        const width = Number(yield* Effect.promise(() => p.evaluate("document.documentElement.scrollWidth")))
        assert.isAtMost(width, 390 + 1, "the page itself does not scroll sideways")
        assert.isTrue(yield* Effect.promise(() => p.locator("#character").isVisible()))
      }),
    60_000
  )
})
