import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { ExportDocument } from "../../src/ops/Export.js"
import { VERSION } from "../../src/Version.js"
import { history, post, serverSuite, turn } from "../support/server.js"
import { nekoApp } from "./nekoApp.js"
import { fingerprint, kioku } from "./support.js"

const decode = Schema.decodeUnknownSync(Schema.parseJson(ExportDocument))

describe("kioku export", () => {
  const { temp, start } = serverSuite()

  it("writes one decodable document with every part of a character's memory", async () => {
    const app = path.join(temp.root, "app")
    nekoApp(app)
    const memory = path.join(temp.root, "kioku", "memory")
    assert.strictEqual(kioku(["import-neko", app, "--data-dir", memory]).status, 0)
    const server = await start(memory)
    await post(`${server.url}/cache/Mochi`, history(turn("We planted basil today", "Basil loves the sun")))
    // The turn's fact extraction runs after the answer; waiting for it keeps the export's facts deterministic.
    await server.waitFor(/outbox ops done/)
    await server.stop()
    const before = fingerprint(memory)

    const r = kioku(["export", "Mochi", "--data-dir", memory])
    assert.strictEqual(r.status, 0, r.stderr)
    const doc = decode(r.stdout)
    assert.strictEqual(doc.format, "kioku-export/1")
    assert.strictEqual(doc.kioku_version, VERSION)
    assert.strictEqual(doc.character, "Mochi")
    assert.match(doc.exported_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/)
    assert.deepStrictEqual(
      doc.recent.map((m) => m.data.content),
      [
        "Memo from prior conversations: Ren talked about tea.",
        "I brewed sencha this morning",
        "Sencha again? You really love green tea",
        "We planted basil today",
        "Basil loves the sun"
      ]
    )
    assert.deepStrictEqual(
      doc.facts.map((f) => f.text),
      ["Ren drinks sencha every morning", "Ren and others planted basil today", "Basil loves the sun"]
    )
    assert.deepStrictEqual(
      doc.reflections.map((x) => x.id),
      ["ref_0123456789abcdef"]
    )
    assert.deepStrictEqual(
      doc.reflections_archive.map((x) => x.id),
      ["ref_fedcba9876543210"]
    )
    assert.include(
      (doc.persona["master"]?.facts ?? []).map((e) => e.text),
      "Ren is a night owl"
    )
    assert.strictEqual(doc.cursors["rebuttal_checked_until"], "2026-01-03T00:00:00.000000")
    assert.strictEqual(doc.time_index.length, 4)
    assert.deepStrictEqual(doc.time_index[3]?.message, { type: "ai", data: { content: "Basil loves the sun" } })
    assert.deepStrictEqual(fingerprint(memory), before)

    const file = path.join(temp.root, "mochi.json")
    const toFile = kioku(["export", "Mochi", "--data-dir", memory, "--out", file])
    assert.strictEqual(toFile.status, 0, toFile.stderr)
    assert.strictEqual(toFile.stdout, "")
    assert.deepStrictEqual({ ...decode(readFileSync(file, "utf8")), exported_at: "" }, { ...doc, exported_at: "" })
  })

  it("fails with the file named when a view does not decode, and for an unknown character", () => {
    const app = path.join(temp.root, "bad")
    nekoApp(app)
    const memory = path.join(temp.root, "bad-kioku", "memory")
    assert.strictEqual(kioku(["import-neko", app, "--data-dir", memory]).status, 0)
    writeFileSync(path.join(memory, "Mochi", "facts.json"), "[{")
    const broken = kioku(["export", "Mochi", "--data-dir", memory])
    assert.strictEqual(broken.status, 1)
    assert.strictEqual(broken.stdout, "")
    assert.match(broken.stderr, /facts\.json/)
    const unknown = kioku(["export", "Nobody", "--data-dir", memory])
    assert.strictEqual(unknown.status, 1)
    assert.match(unknown.stderr, /no memory for Nobody/)
  })
})
