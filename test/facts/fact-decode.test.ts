import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { writeFileSync } from "node:fs"
import * as path from "node:path"
import { FactsFile } from "../../src/facts/Fact.js"
import { decodeFacts } from "../../src/facts/FactDecode.js"
import * as FactStore from "../../src/facts/FactStore.js"
import { makeTempRoot } from "../support/server.js"

const base = {
  id: "fact_1",
  text: "Master likes tea",
  hash: "0123456789abcdef",
  created_at: "2026-01-02T03:04:05.000000"
}

/** Rows as N.E.K.O. and kioku write them, and rows a hand edit or another version might leave. */
const rows: ReadonlyArray<unknown> = [
  base,
  { ...base, id: "fact_2", importance: 8, tags: ["food"], absorbed: true, source_row_ids: [3, 4] },
  { ...base, id: "fact_3", event_when_raw: { start: { offset: -1, unit: "day" } }, event_start_at: null },
  { ...base, id: "fact_4", importance: 7, subject_kind: "member", subject_id: "u1", scope: "group", extra: { a: 1 } },
  { ...base, id: "fact_5", entity: "neko", source: "ai_disclosure", schema_version: 2, signal_processed: false },
  { ...base, id: "fact_6", event_end_at: "2026-02-01T00:00:00.000000", tags: [] }
]

const bySchema = (value: unknown) => Schema.decodeUnknownEither(FactsFile)(value)

describe("fast facts.json decode", () => {
  it("answers exactly what the schema decode answers, unknown fields kept", () => {
    const fast = decodeFacts(JSON.parse(JSON.stringify(rows)))
    const slow = bySchema(JSON.parse(JSON.stringify(rows)))
    assert.isTrue(Either.isRight(fast) && Either.isRight(slow))
    if (Either.isRight(fast) && Either.isRight(slow)) {
      assert.deepStrictEqual(fast.right, slow.right)
      assert.deepStrictEqual((fast.right[3] as Record<string, unknown>)["extra"], { a: 1 })
      assert.strictEqual((fast.right[3] as Record<string, unknown>)["scope"], "group")
    }
  })

  it("rejects what the schema rejects", () => {
    const bad: ReadonlyArray<unknown> = [
      [{ ...base, importance: "high" }],
      [{ ...base, tags: [1] }],
      [{ id: "x", text: "no hash", created_at: "2026-01-01" }],
      [{ ...base, absorbed: "yes" }],
      [{ ...base, event_start_at: 5 }],
      [{ ...base, source_row_ids: ["1"] }],
      [null],
      { not: "an array" }
    ]
    for (const value of bad) {
      assert.isTrue(Either.isLeft(decodeFacts(value)), JSON.stringify(value))
      assert.isTrue(Either.isLeft(bySchema(value)), JSON.stringify(value))
    }
  })

  it.effect("FactStore reads a N.E.K.O. file through it with defaults filled", () =>
    Effect.gen(function* () {
      const { root, cleanup } = makeTempRoot()
      try {
        writeFileSync(path.join(root, "facts.json"), JSON.stringify(rows))
        const index = yield* FactStore.make(root).load
        const slow = bySchema(rows)
        assert.isTrue(Either.isRight(slow))
        if (Either.isRight(slow)) assert.deepStrictEqual(index.all, slow.right)
        assert.strictEqual(index.byHash.get(base.hash)?.importance, 5)
        writeFileSync(path.join(root, "facts.json"), JSON.stringify([{ ...base, importance: "high" }]))
        const failed = yield* Effect.either(FactStore.make(root).load)
        assert.isTrue(Either.isLeft(failed) && failed.left._tag === "ViewDecodeError")
      } finally {
        cleanup()
      }
    })
  )
})
