/**
 * The README is a front page whose detail lives in docs/: every relative link of README.md and docs/*.md
 * (`[text](path)`, `![alt](image)`, with an optional `#anchor`) names a file that exists and, for an anchor, a
 * heading of that file (GitHub's slug: lower case, punctuation dropped, spaces as hyphens).
 */
import { assert, describe, it } from "@effect/vitest"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import * as path from "node:path"

const root = path.resolve(import.meta.dirname, "../..")
const pages = [
  "README.md",
  ...readdirSync(path.join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`)
]

const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-")

/** The anchors of a page's headings (outside code blocks). */
const anchors = (text: string) =>
  new Set(
    text
      .replace(/^```[\s\S]*?^```$/gm, "")
      .split("\n")
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => slug(l.replace(/^#+ /, "")))
  )

/** The relative links of a page, outside code blocks and inline code. */
const links = (text: string) =>
  [...text.replace(/^```[\s\S]*?^```$/gm, "").matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] ?? "")
    .filter((href) => !/^[a-z]+:/.test(href))

describe("docs links", () => {
  it("reads links and anchors the way GitHub renders them (the check itself)", () => {
    assert.strictEqual(slug("`kioku doctor`"), "kioku-doctor")
    assert.strictEqual(slug("Pointing N.E.K.O. or a library at it"), "pointing-neko-or-a-library-at-it")
    assert.deepStrictEqual(links("see [a](docs/a.md#x), ![b](b.png) and [c](https://x.y)\n```\n[d](d.md)\n```\n"), [
      "docs/a.md#x",
      "b.png"
    ])
  })

  it("every relative link of README.md and docs/ resolves", () => {
    const found = pages.flatMap((page) => {
      const text = readFileSync(path.join(root, page), "utf8")
      return links(text).map((href) => ({ page, href }))
    })
    assert.isAtLeast(found.filter((l) => l.page === "README.md").length, 15)
    for (const { page, href } of found) {
      const [file = "", anchor] = href.split("#")
      const target = file === "" ? path.join(root, page) : path.resolve(path.dirname(path.join(root, page)), file)
      assert.isTrue(existsSync(target), `${page}: ${href} names no file`)
      if (anchor !== undefined && target.endsWith(".md")) {
        assert.isTrue(anchors(readFileSync(target, "utf8")).has(anchor), `${page}: ${href} names no heading`)
      }
    }
  })
})
