/**
 * N.E.K.O.'s routes through the typed client against the real server: the checks of test/http/ (ingest,
 * validation, lifecycle, prompt-locale, import-markdown, recall, persona) for each route, with the answers
 * decoded by the route table's Schemas and the quirks kept: FastAPI's 400/422 bodies arrive as `refused` with
 * the server's body, N.E.K.O.'s HTTP 200 `status:"error"` as `operation_failed`, dialogs as text. The last test
 * checks that the suite called every N.E.K.O. route of the table (the group-chat ones: client-group.test.ts).
 */
import { assert, describe, it } from "@effect/vitest"
import { mkdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { serverSuite, turn } from "../support/server.js"
import { refusal, trackedClients, value } from "../support/client.js"
import { groupRoutes } from "../../src/api/GroupRoutes.js"

const history = (messages: ReadonlyArray<unknown>) => ({ input_history: JSON.stringify(messages) })

describe("the typed client on N.E.K.O.'s routes", () => {
  const { temp, start } = serverSuite()
  const { clientFor, uncalled, tagOf } = trackedClients()

  it("writes turns, reads the context and history, and keeps N.E.K.O.'s 400 and 422 bodies", async () => {
    const client = clientFor((await start(temp.memory)).url)
    const health = value(await client.health())
    assert.strictEqual(health.service, "memory")
    assert.isNotEmpty(health.kioku_version)
    for (const [name, detail] of [
      ["a/b", "Invalid characters in lanlan_name"],
      ["x".repeat(51), "Invalid lanlan_name length"]
    ] as const) {
      assert.deepStrictEqual(refusal(await client.cache({ name, body: history(turn("a", "b")) })), {
        reason: "refused",
        status: 400,
        body: { detail }
      })
    }
    const malformed = refusal(await client.cache({ name: "Tian", body: { input_history: "not json" } }))
    assert.strictEqual(malformed.status, 422)
    assert.deepStrictEqual(malformed.body, {
      detail: [
        {
          type: "value_error.json",
          loc: ["body", "input_history"],
          msg: "input_history must be a JSON array encoded as a string"
        }
      ]
    })
    assert.deepStrictEqual(
      value(await client.cache({ name: "Tian", body: history(turn("I adopted a cat", "Nice!")) })),
      {
        status: "cached",
        count: 2
      }
    )
    assert.deepStrictEqual(value(await client.process({ name: "Tian", body: history([]) })), { status: "processed" })
    assert.deepStrictEqual(value(await client.renew({ name: "Tian", body: history([]) })), { status: "processed" })
    assert.deepStrictEqual(value(await client.settle({ name: "Tian", body: history([]) })), { status: "settled" })
    assert.include(value(await client.newDialog({ name: "Tian" })), "I adopted a cat")
    assert.strictEqual(value(await client.newDialog({ name: "Nobody" })), "")
    assert.include(value(await client.getRecentHistory({ name: "Tian", query: { language: "en" } })), "I adopted a cat")
    assert.isAtLeast(value(await client.lastConversationGap({ name: "Tian" })).gap_seconds, 0)
    assert.strictEqual(value(await client.lastConversationGap({ name: "Nobody" })).gap_seconds, -1)
    assert.deepStrictEqual(value(await client.cancelCorrection({ name: "Tian" })), { status: "no_task" })
    assert.strictEqual(value(await client.reflect({ name: "Tian" })).auto_transitions, 0)
    assert.isString(value(await client.getSettings({ name: "Tian" })))
    assert.isObject(value(await client.getPersona({ name: "Tian" })))
    assert.deepStrictEqual(value(await client.followupTopics({ name: "Tian" })), { topics: [] })
    assert.deepStrictEqual(value(await client.recordSurfaced({ name: "Tian", body: { reflection_ids: [] } })), {
      ok: true
    })
    assert.strictEqual(value(await client.resetConfirmedAt()).ok, true)
    assert.strictEqual(value(await client.shutdown()).status, "shutdown_disabled")
    assert.include(value(await client.searchForMemory({ name: "Tian", query: "cat" })), "query_memory")
  })

  it("answers a failed memory operation as operation_failed (HTTP 200, status error)", async () => {
    const client = clientFor((await start(temp.memory)).url)
    mkdirSync(temp.memory, { recursive: true })
    writeFileSync(path.join(temp.memory, "Blocked"), "a file where the character directory would be")
    const failed = refusal(await client.cache({ name: "Blocked", body: history(turn("hi", "yo")) }))
    assert.strictEqual(failed.reason, "operation_failed")
    assert.strictEqual(failed.status, 200)
    assert.deepInclude(failed.body, { status: "error" })
  })

  it("recalls as JSON or as the tool's text, and refuses subjects outside 1 to 8 with a 422", async () => {
    const client = clientFor((await start(temp.memory)).url)
    value(await client.cache({ name: "Mio", body: history(turn("My cat Mochi sleeps on the piano", "Cute")) }))
    const found = value(await client.queryMemory({ name: "Mio", body: { query: "cat piano" } }))
    assert.isFalse(typeof found === "string")
    if (typeof found !== "string") assert.isNumber(found.candidates_total)
    assert.isString(
      value(await client.queryMemory({ name: "Mio", query: { format: "markdown" }, body: { query: "cat" } }))
    )
    const noSubjects = refusal(await client.queryMemory({ name: "Mio", body: { query: "cat", subjects: [] } }))
    assert.strictEqual(noSubjects.status, 422)
  })

  it("reads and sets the prompt locale, refusing an unsupported language with a 400", async () => {
    const client = clientFor((await start(temp.memory)).url)
    assert.strictEqual(value(await client.getPromptLocale({ name: "Kai" })).language, null)
    const set = value(await client.setPromptLocale({ name: "Kai", body: { language: "ja" } }))
    assert.deepInclude(set, { success: true, language: "ja", changed: true, previous_language: null })
    assert.strictEqual(value(await client.getPromptLocale({ name: "Kai" })).effective_language, "ja")
    assert.deepStrictEqual(refusal(await client.setPromptLocale({ name: "Kai", body: { language: "xx" } })), {
      reason: "refused",
      status: 400,
      body: { detail: "Unsupported language" }
    })
  })

  it("imports candidates, refusing an empty list with a 400", async () => {
    const client = clientFor((await start(temp.memory)).url)
    const body = {
      character_name: "Hana",
      source_format: "openclaw",
      imported_files: ["MEMORY.md"],
      candidates: [{ text: "Alex likes tea", entity: "master", target: "facts", source_file: "MEMORY.md" }] as const
    }
    const imported = value(await client.importExternalMarkdown({ body }))
    assert.deepInclude(imported, { status: "success", character_name: "Hana", added_facts: 1, warning_count: 0 })
    assert.deepStrictEqual(refusal(await client.importExternalMarkdown({ body: { ...body, candidates: [] } })), {
      reason: "refused",
      status: 400,
      body: { detail: "Invalid candidate count" }
    })
  })

  it("releases a character with a claim, reloads, and answers 400 and 409 with N.E.K.O.'s bodies", async () => {
    const client = clientFor((await start(temp.memory)).url)
    value(await client.cache({ name: "Hana", body: history(turn("I moved to Sapporo", "Oh!")) }))
    assert.deepStrictEqual(refusal(await client.releaseCharacter({ name: "Mio" })), {
      reason: "refused",
      status: 400,
      body: { status: "error", character_name: "Mio", message: "derived task claim token and generation are required" }
    })
    const claim = { derived_task_claim_token: "t1", derived_task_claim_generation: "3" }
    assert.deepStrictEqual(value(await client.releaseCharacter({ name: "Hana", query: claim })), {
      status: "success",
      character_name: "Hana",
      cancelled_derived_tasks: 0,
      derived_task_claim_token: "t1"
    })
    const reloaded = value(await client.reload({ body: { release_derived_task_claims: { Hana: ["t1"] } } }))
    assert.strictEqual(reloaded.status, "success")
    assert.strictEqual(value(await client.reload()).status, "success")
    const late = refusal(await client.releaseCharacter({ name: "Hana", query: claim }))
    assert.strictEqual(late.status, 409)
    assert.deepInclude(late.body, { status: "cancelled" })
  })

  it("called every N.E.K.O. route of the route table", () => {
    assert.deepStrictEqual(
      uncalled((n) => tagOf(n) === "neko" && !(n in groupRoutes)),
      []
    )
  })
})
