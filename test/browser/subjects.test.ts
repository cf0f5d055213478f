/**
 * The memory browser's Subjects tab in Chromium: private memory and group-chat subjects (written through
 * `scoped_facts` with display names, plus planted reflections and persona entries) appear as groups with
 * their names and kinds; "Forget this subject" asks first (Escape keeps everything), then forgets the subject
 * through `scoped_forget`: its texts leave the page and every file, while the other subjects and the private
 * memory stay.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { readdirSync, readFileSync, statSync } from "node:fs"
import * as path from "node:path"
import { openPage } from "../support/browser.js"
import { serverSuite } from "../support/server.js"
import { GROUP_TEXT, MEMBER_TEXT, seedSubjects, writeSubjectFacts } from "../support/subjectSeed.js"

const everyFile = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => statSync(path.join(dir, f)).isFile())
    .map((f) => readFileSync(path.join(dir, f)).toString("latin1"))
    .join("\n")

describe("the memory browser's subjects in Chromium", () => {
  const { temp, start } = serverSuite()
  const run = <A>(f: () => Promise<A>) => Effect.promise(f)

  it.scoped(
    "groups memory by subject and forgets one subject after a confirmation",
    () =>
      Effect.gen(function* () {
        const dir = path.join(temp.memory, "Tian")
        seedSubjects(dir)
        const { page: p } = yield* openPage(
          async () => {
            const server = await start(temp.memory)
            await writeSubjectFacts(server.url)
            return server
          },
          "/memory_browser?character=Tian",
          "/facts/.test(document.getElementById('status').textContent)"
        )
        assert.include(yield* run(() => p.locator("#status").textContent()), "3 group-chat subjects")
        yield* run(() => p.locator("#tab-subjects").click())
        const groups = p.locator("#subject-list section.subject")
        const headings = () => run(() => groups.locator("h3").allTextContents())
        assert.deepStrictEqual(yield* headings(), ["Private", "Hiking Friends", "qq:300", "Bob"])
        const hiking = p.getByRole("region", { name: "group chat Hiking Friends" })
        const bob = p.getByRole("region", { name: "participant Bob" })
        const hikingText = (yield* run(() => hiking.textContent())) ?? ""
        for (const text of Object.values(GROUP_TEXT)) assert.include(hikingText, text)
        assert.include(hikingText, "qq:100 · scope group_chat:qq:100")
        for (const text of Object.values(MEMBER_TEXT)) assert.include(yield* run(() => bob.textContent()), text)
        const own = (yield* run(() => p.getByRole("region", { name: "Private" }).textContent())) ?? ""
        assert.include(own, "3 facts · 2 archived facts · 5 reflections · 3 persona entries")
        assert.strictEqual(yield* run(() => p.getByRole("region", { name: "Private" }).getByRole("button").count()), 0)

        // KIOKU_SCREENSHOTS=1 refreshes the screenshot of docs/pages.md.
        if (process.env["KIOKU_SCREENSHOTS"] === "1")
          yield* run(() => p.screenshot({ path: path.resolve("docs/memory-browser-subjects.png"), fullPage: true }))

        const dialog = p.getByRole("dialog", { name: "Forget this subject?" })
        const forget = hiking.getByRole("button", { name: "Forget this subject" })
        yield* run(() => forget.click())
        yield* run(() => dialog.waitFor())
        assert.include(yield* run(() => dialog.textContent()), "Hiking Friends (group chat qq:100)")
        yield* run(() => p.keyboard.press("Escape"))
        yield* run(() => dialog.waitFor({ state: "hidden" }))
        assert.include(everyFile(dir), GROUP_TEXT.fact, "cancelled: nothing forgotten")
        assert.deepStrictEqual(yield* headings(), ["Private", "Hiking Friends", "qq:300", "Bob"])

        yield* run(() => forget.click())
        yield* run(() => dialog.getByRole("button", { name: "Forget", exact: true }).click())
        yield* run(() => p.locator("#status", { hasText: "Forgot group chat Hiking Friends." }).waitFor())
        assert.deepStrictEqual(yield* headings(), ["Private", "qq:300", "Bob"])
        const shown = (yield* run(() => p.locator("#subject-list").textContent())) ?? ""
        for (const text of Object.values(GROUP_TEXT)) assert.notInclude(shown, text)
        for (const text of Object.values(MEMBER_TEXT)) assert.include(shown, text)

        const files = everyFile(dir)
        for (const text of Object.values(GROUP_TEXT)) assert.notInclude(files, text, "no file keeps the subject")
        for (const text of Object.values(MEMBER_TEXT)) assert.include(files, text)
        for (const text of [
          "Tian drinks oolong tea every morning",
          "Tian lived in Osaka as a student",
          "lives in Kyoto"
        ])
          assert.include(files, text)
        yield* run(() => p.setViewportSize({ width: 390, height: 844 }))
        const width = Number(yield* run(() => p.evaluate("document.documentElement.scrollWidth")))
        assert.isAtMost(width, 390 + 1, "the tab does not scroll sideways at a phone width")
        yield* run(() => p.locator("#tab-facts").click())
        assert.strictEqual(yield* run(() => p.locator("#fact-list li.card").count()), 3)
      }),
    60_000
  )
})
