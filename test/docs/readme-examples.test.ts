/**
 * The README's examples, and those of the docs pages its detail moved to, run as written: every `curl` command
 * of their shell blocks against a real server (the address swapped for the test server's; an expected answer
 * given in a `# {…}` comment line is checked), their library code blocks (those importing only "kioku") with
 * the built `dist/lib.mjs` in a scratch directory, and the operations commands that need nothing but that
 * directory. Lines with placeholders (`[…]`, `…`, `~`) are not commands one can run, and `serve` lines start
 * servers.
 */
import { assert, describe, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"

import { distBin, serverSuite } from "../support/server.js"

const root = path.resolve(import.meta.dirname, "../..")
/** The README first (its library example fills `./memory`), then the pages its detail moved to. */
const sources = [
  "README.md",
  "docs/routes.md",
  "docs/recall.md",
  "docs/memory.md",
  "docs/configuration.md",
  "docs/providers.md",
  "docs/package.md",
  "docs/client.md",
  "docs/operations.md"
] as const

interface Block {
  readonly source: string
  readonly lang: string
  readonly body: string
}

const blocksOf = (source: string): ReadonlyArray<Block> =>
  [...readFileSync(path.join(root, source), "utf8").matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    source,
    lang: m[1] ?? "",
    body: m[2] ?? ""
  }))

const blocks: ReadonlyArray<Block> = sources.flatMap(blocksOf)

/** A library example: a `ts` block whose every import is from kioku itself (others need the host's packages). */
const libraryExample = (b: Block) =>
  b.lang === "ts" && [...b.body.matchAll(/from "([^"]+)"/g)].every((m) => m[1] === "kioku")

/** A client example: a `ts` block importing kioku's client or AI SDK tools (and the `ai` package), run against a server. */
const clientExample = (b: Block) => {
  const froms = [...b.body.matchAll(/from "([^"]+)"/g)].map((m) => m[1] ?? "")
  return (
    b.lang === "ts" &&
    froms.some((f) => f === "kioku/client") &&
    froms.every((f) => ["kioku/client", "kioku/ai", "ai", "ai/test"].includes(f))
  )
}

/** Where a client example's imports are: the built entries, and the repository's `ai`. */
const entries: Readonly<Record<string, string>> = {
  "kioku/client": pathToFileURL(path.join(root, "dist", "client.mjs")).href,
  "kioku/ai": pathToFileURL(path.join(root, "dist", "ai.mjs")).href,
  ai: import.meta.resolve("ai"),
  "ai/test": import.meta.resolve("ai/test")
}

/** The commands of a shell block: continuation lines joined, each with the comment line that follows it. */
const commands = (body: string) => {
  const out: Array<{ command: string; expected: string | undefined }> = []
  const lines = body.split("\n")
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i] ?? ""
    if (line.trim() === "" || line.trim().startsWith("#")) continue
    while (line.endsWith("\\") && i + 1 < lines.length) line = line.slice(0, -1) + (lines[++i] ?? "").trim()
    const next = (lines[i + 1] ?? "").trim()
    out.push({ command: line, expected: next.startsWith("# {") ? next.slice(2) : undefined })
  }
  return out
}

/** Runs to completion on its own: no placeholder, and not a server (`serve`, which the other tests start). */
const runnable = (command: string) => !/\[|…|~|\sserve\b/.test(command.replace(/#.*$/, ""))

describe("README and docs examples", () => {
  const { temp, start } = serverSuite()

  it("finds the examples it runs (the check itself)", () => {
    const curls = blocks
      .filter((b) => b.lang === "sh")
      .flatMap((b) => commands(b.body).map((c) => ({ ...c, source: b.source })))
      .filter((c) => c.command.startsWith("curl"))
    assert.isAtLeast(curls.length, 6)
    assert.isAtLeast(blocks.filter(libraryExample).length, 3)
    const curlsIn = (source: string) => curls.filter((c) => c.source === source).length
    assert.isAtLeast(curlsIn("README.md"), 3)
    assert.isAtLeast(curlsIn("docs/routes.md"), 2)
    assert.isAtLeast(curlsIn("docs/recall.md"), 1)
    assert.isAtLeast(curlsIn("docs/memory.md"), 1)
    assert.isTrue(blocks.some((b) => b.source === "README.md" && libraryExample(b)))
    assert.isTrue(blocks.some((b) => b.source === "README.md" && clientExample(b)))
    assert.isAtLeast(blocks.filter((b) => b.source === "docs/client.md" && clientExample(b)).length, 2)
    assert.isFalse(
      clientExample({ source: "x", lang: "ts", body: 'import { a } from "kioku/client"\nimport { z } from "zod"\n' })
    )
    assert.isFalse(libraryExample({ source: "x", lang: "ts", body: 'import { a } from "kioku/mcp"\n' }))
    assert.deepStrictEqual(commands('curl a \\\n  -d b\n# {"x":1}\n'), [
      { command: "curl a -d b", expected: '{"x":1}' }
    ])
  })

  it("runs every curl example against a real server", async () => {
    const server = await start(temp.memory)
    const curls = blocks
      .filter((b) => b.lang === "sh")
      .flatMap((b) => commands(b.body).map((c) => ({ ...c, source: b.source })))
      .filter((c) => c.command.startsWith("curl"))
    for (const { command, expected, source } of curls) {
      const live = command.replaceAll("http://127.0.0.1:48912", server.url)
      const out = execFileSync("bash", ["-c", `${live} -w '\\n%{http_code}'`], { encoding: "utf8" })
      const status = out.slice(out.lastIndexOf("\n") + 1)
      const body = out.slice(0, out.lastIndexOf("\n"))
      assert.match(status, /^2\d\d$/, `${source}: ${command}\n→ ${status} ${body}`)
      if (expected !== undefined) assert.deepStrictEqual(JSON.parse(body), JSON.parse(expected), command)
    }
  })

  it("runs the client and AI SDK examples against a real server", async () => {
    const server = await start(temp.memory)
    const dir = mkdtempSync(path.join(os.tmpdir(), "kioku-client-"))
    try {
      blocks.filter(clientExample).forEach((b, i) => {
        const file = path.join(dir, `client-${i}.mjs`)
        const live = b.body
          .replaceAll("http://127.0.0.1:48912", server.url)
          .replace(/from "([^"]+)"/g, (whole, name: string) => (name in entries ? `from "${entries[name]}"` : whole))
        writeFileSync(file, live)
        try {
          execFileSync(process.execPath, [file], { cwd: dir, encoding: "utf8", timeout: 60_000, stdio: "pipe" })
        } catch (e) {
          assert.fail(`${b.source} example ${i} failed: ${String(e)}`)
        }
      })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("runs the library examples and the operations commands in a scratch directory", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "kioku-readme-"))
    try {
      const lib = path.join(root, "dist", "lib.mjs")
      blocks.filter(libraryExample).forEach((b, i) => {
        const file = path.join(dir, `example-${i}.mjs`)
        writeFileSync(file, b.body.replaceAll('from "kioku"', `from ${JSON.stringify(lib)}`))
        execFileSync(process.execPath, [file], { cwd: dir, encoding: "utf8", timeout: 60_000 })
      })
      const operations = blocks
        .filter((b) => b.lang === "sh")
        .flatMap((b) => commands(b.body))
        .filter((c) => c.command.startsWith("kioku ") && runnable(c.command))
      assert.isAtLeast(operations.length, 2)
      for (const { command } of operations) {
        const live = command.replace(/^kioku /, `${JSON.stringify(process.execPath)} ${JSON.stringify(distBin)} `)
        execFileSync("bash", ["-c", live], { cwd: dir, encoding: "utf8", timeout: 60_000 })
      }
      const exported = JSON.parse(readFileSync(path.join(dir, "tian.json"), "utf8"))
      assert.include(JSON.stringify(exported), "I adopted a cat")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
