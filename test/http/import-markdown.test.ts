import { assert, describe, it } from "@effect/vitest"
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { kioku } from "../ops/support.js"
import { get, post, serverSuite } from "../support/server.js"

const route = "/internal/memory/import_external_markdown"

interface FactRow {
  readonly text: string
  readonly importance: number
  readonly source: string
  readonly signal_processed: boolean
  readonly event_start_at: string | null
  readonly external_import?: { readonly day_fingerprint?: string; readonly file?: string }
}
const factsOf = (memory: string, name: string): Array<FactRow> => {
  const file = path.join(memory, name, "facts.json")
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : []
}
const personaOf = (memory: string, name: string): Record<string, { facts: Array<{ text: string; source: string }> }> =>
  JSON.parse(readFileSync(path.join(memory, name, "persona.json"), "utf8"))

/** An OpenClaw workspace: USER.md, MEMORY.md and two daily journals (one of them in a nested folder). */
const writeWorkspace = (root: string) => {
  mkdirSync(path.join(root, "memory"), { recursive: true })
  writeFileSync(
    path.join(root, "USER.md"),
    "# About the user\n\n- **Name**: Alex Kim\n- Works as a lighthouse keeper on Hokkaido\n"
  )
  writeFileSync(
    path.join(root, "MEMORY.md"),
    "# Preferences\n\n- Alex is allergic to peanuts\n- Alex collects vintage typewriters\n\n" +
      "```\nignored code block\n```\n<!-- a comment -->\n"
  )
  writeFileSync(path.join(root, "memory", "2026-03-01.md"), "I adopted a kitten named Mochi.\n")
  writeFileSync(path.join(root, "memory", "2026-03-02-trip.md"), "I live in Sapporo.\n\nI love spicy ramen.\n")
  writeFileSync(path.join(root, "notes.md"), "- not a workspace file\n")
}

const candidate = (fields: Record<string, unknown> = {}) => ({
  text: "Alex likes tea",
  entity: "master",
  target: "facts",
  source_file: "MEMORY.md",
  ...fields
})
const body = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    character_name: "Hana",
    source_format: "openclaw",
    imported_files: ["MEMORY.md"],
    candidates: [candidate()],
    ...fields
  })

describe("external Markdown import", () => {
  const { temp, start } = serverSuite()

  it("rejects bad bodies with N.E.K.O.'s status codes and answers the success body", async () => {
    const server = await start(temp.memory)
    const url = `${server.url}${route}`
    const cases: ReadonlyArray<readonly [string, number, string | undefined]> = [
      [body({ source_format: "notion" }), 400, "Invalid source_format"],
      [body({ candidates: [] }), 400, "Invalid candidate count"],
      [
        body({ candidates: Array.from({ length: 1001 }, (_, i) => candidate({ text: `t${i}` })) }),
        400,
        "Invalid candidate count"
      ],
      [body({ candidates: [candidate({ text: "x".repeat(8001) })] }), 400, "Invalid candidate fields"],
      [body({ candidates: [candidate({ entity: "stranger" })] }), 400, "Invalid candidate fields"],
      [body({ candidates: [candidate({ target: "diary" })] }), 400, "Invalid candidate fields"],
      [body({ candidates: [candidate({ source_file: "" })] }), 400, "Invalid candidate fields"],
      [body({ candidates: ["just text"] }), 400, "Invalid candidate"],
      [body({ character_name: "../x" }), 400, undefined],
      [JSON.stringify({ character_name: "Hana" }), 422, undefined]
    ]
    for (const [payload, status, detail] of cases) {
      const res = await post(url, payload)
      assert.strictEqual(res.status, status, `${payload.slice(0, 80)} → ${res.text}`)
      if (detail !== undefined) assert.strictEqual(JSON.parse(res.text).detail, detail)
    }
    assert.deepStrictEqual(factsOf(temp.memory, "Hana"), [], "a rejected body writes nothing")

    const ok = await post(url, body({ warning_count: 2 }))
    assert.strictEqual(ok.status, 200, ok.text)
    assert.deepStrictEqual(JSON.parse(ok.text), {
      status: "success",
      character_name: "Hana",
      source_format: "openclaw",
      imported_files: ["MEMORY.md"],
      added_persona: 0,
      added_facts: 1,
      skipped_duplicates: 0,
      warning_count: 2
    })
    const [fact] = factsOf(temp.memory, "Hana")
    assert.deepInclude(fact, {
      text: "Alex likes tea",
      importance: 7,
      source: "user_observation",
      signal_processed: true
    })
    const again = JSON.parse((await post(url, body({ warning_count: -3 }))).text)
    assert.deepInclude(again, { added_facts: 0, skipped_duplicates: 1, warning_count: 0 })
  })

  it("answers 413 external_import_too_large beyond 45 new journal days, with what it added first", async () => {
    const server = await start(temp.memory)
    const days = Array.from({ length: 46 }, (_, i) =>
      candidate({
        text: `I visited place number ${i}.`,
        source_file: `memory/2026-01-${String((i % 28) + 1).padStart(2, "0")}-${i}.md`,
        event_date: `2026-01-${String((i % 28) + 1).padStart(2, "0")}`
      })
    )
    const res = await post(
      `${server.url}${route}`,
      body({ character_name: "Big", candidates: [candidate({ text: "Alex owns a red bicycle" }), ...days] })
    )
    assert.strictEqual(res.status, 413, res.text)
    const parsed = JSON.parse(res.text)
    assert.strictEqual(parsed.error_code, "external_import_too_large")
    assert.deepStrictEqual(parsed.partial_import, { character_name: "Big", added_persona: 0, added_facts: 1 })
  })

  it("imports an OpenClaw workspace through the route and the CLI; twice adds nothing; a restart keeps it", async () => {
    const workspace = path.join(temp.root, "claw")
    writeWorkspace(workspace)

    const dry = kioku(["import-markdown", workspace, "--character", "Mika", "--dry-run", "--data-dir", temp.memory])
    assert.strictEqual(dry.status, 0, dry.stderr)
    assert.include(dry.stdout, "openclaw workspace: 4 file(s)")
    assert.include(dry.stdout, "would import MEMORY.md: 2 candidate(s)")
    assert.include(dry.stdout, "facts/master 2026-03-02: I love spicy ramen.")
    assert.include(dry.stdout, "persona/master: About the user: Name: Alex Kim")
    assert.notInclude(dry.stdout, "ignored code block")
    assert.isFalse(existsSync(path.join(temp.memory, "Mika")), "a dry run writes nothing")

    // In process on the data directory.
    const first = kioku(["import-markdown", workspace, "--character", "Mika", "--data-dir", temp.memory])
    assert.strictEqual(first.status, 0, first.stderr + first.stdout)
    const lines = first.stdout.trim().split("\n")
    assert.strictEqual(lines.length, 5, first.stdout)
    assert.include(first.stdout, "imported MEMORY.md: 2 candidate(s), +0 persona, +2 facts, 0 duplicate(s)")
    assert.include(first.stdout, "imported USER.md: 2 candidate(s), +2 persona")
    const facts = factsOf(temp.memory, "Mika")
    const texts = facts.map((f) => f.text)
    assert.includeMembers(texts, [
      "Preferences: Alex is allergic to peanuts",
      "Preferences: Alex collects vintage typewriters"
    ])
    const daily = facts.filter((f) => f.external_import?.day_fingerprint !== undefined)
    assert.isAbove(daily.length, 0, `daily facts extracted: ${JSON.stringify(texts)}`)
    assert.isTrue(
      daily.some((f) => f.event_start_at === "2026-03-02T00:00:00"),
      JSON.stringify(daily)
    )
    const persona = personaOf(temp.memory, "Mika")
    const imported = persona["master"]?.facts.filter((e) => e.source === "external_import") ?? []
    assert.includeMembers(
      imported.map((e) => e.text),
      ["About the user: Name: Alex Kim", "About the user: Works as a lighthouse keeper on Hokkaido"]
    )

    // Through a running server: the same workspace again adds nothing.
    const server = await start(temp.memory)
    const second = kioku(["import-markdown", workspace, "--character", "Mika", "--port", String(server.port)])
    assert.strictEqual(second.status, 0, second.stderr + second.stdout)
    for (const line of second.stdout.trim().split("\n").slice(1)) {
      assert.match(line, /"added_persona":0,"added_facts":0/, line)
    }
    assert.include(
      second.stdout,
      '"imported_files":["USER.md"],"added_persona":0,"added_facts":0,"skipped_duplicates":2'
    )
    assert.include(
      second.stdout,
      '"imported_files":["memory/2026-03-02-trip.md"],"added_persona":0,"added_facts":0,"skipped_duplicates":2'
    )
    assert.strictEqual(factsOf(temp.memory, "Mika").length, facts.length)

    // And the route, with the whole workspace in one body, adds nothing either.
    const all = [
      candidate({ text: "Preferences: Alex is allergic to peanuts", source_section: "Preferences" }),
      candidate({
        text: "I adopted a kitten named Mochi.",
        source_file: "memory/2026-03-01.md",
        event_date: "2026-03-01"
      })
    ]
    const third = JSON.parse(
      (await post(`${server.url}${route}`, body({ character_name: "Mika", candidates: all }))).text
    )
    assert.deepInclude(third, { status: "success", added_persona: 0, added_facts: 0, skipped_duplicates: 2 })

    const query = async (q: string) =>
      JSON.parse((await post(`${server.url}/query_memory/Mika`, JSON.stringify({ query: q, language: "en" }))).text)
    const found = await query("peanuts")
    assert.include(
      found.results.map((r: { text: string }) => r.text),
      "Preferences: Alex is allergic to peanuts"
    )
    const personaRoute = JSON.parse((await get(`${server.url}/get_persona/Mika`)).text)
    assert.include(JSON.stringify(personaRoute), "lighthouse keeper on Hokkaido")

    // kill -9 and a restart: the journal keeps what was imported.
    await server.kill9()
    const restarted = await start(temp.memory)
    const after = await post(
      `${restarted.url}/query_memory/Mika`,
      JSON.stringify({ query: "typewriters", language: "en" })
    )
    assert.include(after.text, "Alex collects vintage typewriters")
    assert.include((await get(`${restarted.url}/get_persona/Mika`)).text, "lighthouse keeper on Hokkaido")
    const events = readFileSync(path.join(temp.memory, "Mika", "events.ndjson"), "utf8")
    assert.include(events, '"type":"fact.added"')
    assert.include(events, '"type":"persona.fact_added"')
  })

  it("records a journal day with no fact in external_import_state.json and skips it next time", async () => {
    const server = await start(temp.memory)
    const day = candidate({ text: "Rain all day.", source_file: "memory/2026-04-01.md", event_date: "2026-04-01" })
    const res = await post(`${server.url}${route}`, body({ character_name: "Sora", candidates: [day] }))
    assert.strictEqual(res.status, 200, res.text)
    assert.strictEqual(JSON.parse(res.text).added_facts, 0)
    const state = JSON.parse(readFileSync(path.join(temp.memory, "Sora", "external_import_state.json"), "utf8"))
    assert.strictEqual(state.version, 1)
    assert.lengthOf(state.daily.imported_day_fingerprints, 1)
    assert.match(state.daily.imported_day_fingerprints[0], /^[0-9a-f]{64}$/)
    const again = await post(`${server.url}${route}`, body({ character_name: "Sora", candidates: [day] }))
    assert.deepInclude(JSON.parse(again.text), { added_facts: 0, skipped_duplicates: 1 })
    const edited = { ...day, text: "Rain all day, then sun." }
    const changed = await post(`${server.url}${route}`, body({ character_name: "Sora", candidates: [edited] }))
    assert.deepInclude(JSON.parse(changed.text), { skipped_duplicates: 0 }, "an edited day is read again")
    const later = JSON.parse(readFileSync(path.join(temp.memory, "Sora", "external_import_state.json"), "utf8"))
    assert.lengthOf(later.daily.imported_day_fingerprints, 2)
  })
})
