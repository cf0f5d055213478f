import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { DEFAULT_PROFILE } from "../../src/vectors/DefaultModel.js"
import { DoctorReport } from "../../src/ops/Findings.js"
import { history, post, serverSuite, turn } from "../support/server.js"
import { fingerprint, kioku } from "./support.js"

const decodeReport = Schema.decodeUnknownSync(Schema.parseJson(DoctorReport))

describe("kioku doctor", () => {
  const { temp, start } = serverSuite()

  it("finds a root written by kioku healthy, with or without the server running", async () => {
    const root = path.join(temp.root, "healthy")
    const memory = path.join(root, "memory")
    mkdirSync(path.join(root, "config"), { recursive: true })
    writeFileSync(
      path.join(root, "config", "characters.json"),
      JSON.stringify({ 猫娘: { Mochi: {} }, 当前猫娘: "Mochi" })
    )
    const server = await start(memory)
    for (let i = 0; i < 3; i++) await post(`${server.url}/cache/Mochi`, history(turn(`hello ${i}`, `hi ${i}`)))
    await post(`${server.url}/process/Mochi`, history([]))
    const live = kioku(["doctor", "--data-dir", memory, "--json"])
    assert.strictEqual(live.status, 0, live.stdout + live.stderr)
    const liveReport = decodeReport(live.stdout)
    assert.isTrue(liveReport.server.running)
    assert.strictEqual(liveReport.server.pid, String(server.child.pid))
    await server.stop()
    const before = fingerprint(root)
    const stopped = kioku(["doctor", "--data-dir", memory])
    assert.strictEqual(stopped.status, 0, stopped.stdout + stopped.stderr)
    assert.match(stopped.stdout, /no server running/)
    assert.match(stopped.stdout, /Mochi: \d+ files checked, 0 events to replay/)
    assert.match(stopped.stdout, /\nhealthy$/m)
    assert.deepStrictEqual(fingerprint(root), before)
  })

  it("reports every problem with its fix, exits 1 and writes nothing", async () => {
    const root = path.join(temp.root, "broken")
    const memory = path.join(root, "memory")
    const server = await start(memory)
    await post(`${server.url}/cache/Mochi`, history(turn("I live in Osaka", "noted")))
    await server.stop()
    const dir = path.join(memory, "Mochi")
    writeFileSync(path.join(dir, "facts.json"), '[{"id": 1}]')
    writeFileSync(path.join(dir, "persona.json"), "{ not json")
    writeFileSync(path.join(dir, "time_indexed.db"), "this is not a database, just bytes".repeat(200))
    writeFileSync(path.join(dir, "events_applied.json"), JSON.stringify({ last_applied_event_id: "gone", ts: "x" }))
    appendFileSync(path.join(dir, "events.ndjson"), '{"event_id":"torn')
    writeFileSync(path.join(dir, "recent.json.0badc0de.tmp"), "[]")
    writeFileSync(path.join(dir, "notes.txt"), "mine")
    mkdirSync(path.join(dir, "reflection_archive"))
    writeFileSync(path.join(dir, "reflection_archive", "2026-01-02_0123abcd.json"), "{}")
    writeFileSync(path.join(memory, "facts_Bob.json"), "[]")
    mkdirSync(path.join(memory, "#import-deadbeef", "Mochi"), { recursive: true })
    mkdirSync(path.join(root, "embedding_models"))
    writeFileSync(path.join(root, "embedding_models", `${DEFAULT_PROFILE.id}.lock`), "2147483646")
    mkdirSync(path.join(root, "config"), { recursive: true })
    writeFileSync(path.join(root, "config", "core_config.json"), JSON.stringify({ powerful_memory_enabled: "yes" }))
    writeFileSync(
      path.join(root, "config", "characters.json"),
      JSON.stringify({ 猫娘: { "a/b": {} }, 当前猫娘: "Zed" })
    )
    const before = fingerprint(root)
    const r = kioku(["doctor", "--data-dir", memory, "--json"])
    assert.strictEqual(r.status, 1)
    assert.match(r.stderr, /doctor found \d+ problem/)
    const report = decodeReport(r.stdout)
    const problems = report.problems.map((p) => `${p.file}: ${p.problem}`)
    const expected = [
      /^Mochi\/facts\.json: does not decode: at \[0\]\.id/,
      /^Mochi\/persona\.json: does not decode/,
      /^Mochi\/time_indexed\.db: (cannot be opened|integrity check failed)/,
      /^Mochi\/events_applied\.json: names event gone, which is not in events\.ndjson/,
      /^Mochi\/recent\.json\.0badc0de\.tmp: temp file/,
      /^Mochi\/reflection_archive\/2026-01-02_0123abcd\.json: does not decode/,
      /^facts_Bob\.json: legacy flat file not yet moved/,
      /^#import-deadbeef\/: leftover of an interrupted import-neko/,
      /^config\/core_config\.json: powerful_memory_enabled is not true\/false/,
      /^config\/characters\.json: character name "a\/b" is invalid/,
      /^config\/characters\.json: 当前猫娘 "Zed" is not in 猫娘/
    ]
    for (const e of expected)
      assert.isTrue(
        problems.some((p) => e.test(p)),
        `${e}\n${problems.join("\n")}`
      )
    assert.strictEqual(problems.length, expected.length, problems.join("\n"))
    for (const p of report.problems) assert.isAbove(p.fix.length, 5)
    const notes = report.notes.map((n) => `${n.file}: ${n.problem}`)
    assert.isTrue(notes.some((n) => /^Mochi\/notes\.txt: unknown file/.test(n)))
    assert.isTrue(notes.some((n) => /embedding_models\/.+\.lock: stale embedding-model build lock$/.test(n)))
    assert.isTrue(notes.some((n) => /^Mochi\/events\.ndjson: line \d+ does not parse/.test(n)))
    assert.deepStrictEqual(fingerprint(root), before)
    const text = kioku(["doctor", "--data-dir", memory])
    assert.strictEqual(text.status, 1)
    assert.match(text.stdout, /problem Mochi\/facts\.json: does not decode: .* — fix: .+/)
    assert.match(text.stdout, /\n11 problems found$/m)
  })
})
