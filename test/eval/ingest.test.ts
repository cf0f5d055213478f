import { assert, describe, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { Effect, Option, Schema } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { ingestConversation, turnContent } from "../../src/eval/Ingest.js"
import type { Conversation, Turn } from "../../src/eval/Locomo.js"
import { readProvenance } from "../../src/eval/Provenance.js"
import { createMemoryRuntime, makeHostClock } from "../../src/lib.js"
import { FactsFile } from "../../src/facts/Fact.js"
import { ReflectionsFile } from "../../src/reflection/Reflection.js"
import * as ViewFile from "../../src/store/ViewFile.js"

const may8 = new Date(2023, 4, 8, 13, 56).getTime()
const june1 = new Date(2023, 5, 1, 9, 5).getTime()
const t = (speaker: string, diaId: string, text: string, caption?: string): Turn => ({
  speaker,
  diaId,
  text,
  caption
})

const conversation: Conversation = {
  index: 0,
  sampleId: "conv-test",
  speakerA: "Ann",
  speakerB: "Bob",
  sessions: [
    {
      index: 1,
      dateTime: "1:56 pm on 8 May, 2023",
      startMillis: may8,
      turns: [
        t("Ann", "D1:1", "I love hiking in the mountains."),
        t("Bob", "D1:2", "That sounds great!"),
        t("Ann", "D1:3", "I love camping in the forest."),
        t("Ann", "D1:4", "I enjoy fishing at the lake."),
        t("Ann", "D1:5", "I love kayaking on the river."),
        t("Ann", "D1:6", "I like trail running at dawn."),
        t("Bob", "D1:7", "Look at this", "a photo of a dog on a beach")
      ]
    },
    {
      index: 2,
      dateTime: "9:05 am on 1 June, 2023",
      startMillis: june1,
      turns: [t("Ann", "D2:1", "I started a pottery class yesterday."), t("Bob", "D2:2", "Nice!")]
    }
  ],
  questions: []
}

const readFile = <A, I>(schema: Schema.Schema<ReadonlyArray<A>, I>, file: string) =>
  ViewFile.make(schema, file).read.pipe(Effect.map(Option.getOrElse((): ReadonlyArray<A> => [])))

describe("LoCoMo ingestion", () => {
  it.live(
    "dates turns and facts by the host clock and maps facts and reflections back to dia_ids",
    () =>
      Effect.gen(function* () {
        const root = yield* Effect.acquireRelease(
          Effect.sync(() => mkdtempSync(path.join(tmpdir(), "kioku-ingest-"))),
          (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
        )
        const dataDir = path.join(root, "memory")
        const clock = makeHostClock(may8)
        const runtime = yield* Effect.acquireRelease(
          Effect.promise(() =>
            createMemoryRuntime({
              dataDir,
              clock,
              config: { master_name: "Ann", vectors_enabled: false },
              backgroundMaintenance: false
            })
          ),
          (rt) => Effect.promise(() => rt.close())
        )
        const { messages, totals } = yield* ingestConversation({ runtime, clock, character: "Bob", conversation })
        assert.strictEqual(totals.turns, 9)
        assert.strictEqual(messages[6]?.content, "Look at this [image: a photo of a dog on a beach]")
        assert.strictEqual(turnContent(t("Ann", "D", "x", " ")), "x")
        const dir = path.join(dataDir, "Bob")

        const db = new Database(path.join(dir, "time_indexed.db"), { readonly: true })
        const stamps = Schema.decodeUnknownSync(Schema.Array(Schema.Struct({ timestamp: Schema.String })))(
          db.prepare("SELECT timestamp FROM time_indexed_original ORDER BY id").all()
        ).map((r) => r.timestamp)
        db.close()
        assert.deepStrictEqual(stamps.slice(0, 3), [
          "2023-05-08 13:56:00.000000",
          "2023-05-08 13:56:01.000000",
          "2023-05-08 13:56:02.000000"
        ])
        assert.deepStrictEqual(stamps.slice(7), ["2023-06-01 09:05:00.000000", "2023-06-01 09:05:01.000000"])

        const provenance = yield* readProvenance(dir, messages)
        assert.deepStrictEqual(
          provenance.turns.map((x) => [x.rowId, x.diaId]),
          messages.map((m, i) => [i + 1, m.diaId])
        )
        assert.deepStrictEqual(provenance.diaIdsOf({ tier: "turn", id: "3" }), ["D1:3"])
        assert.deepStrictEqual(provenance.diaIdsOf({ tier: "persona", id: "3" }), [])

        const facts = yield* readFile(FactsFile, path.join(dir, "facts.json"))
        const hiking = facts.find((f) => f.text.includes("hiking"))
        const pottery = facts.find((f) => f.text.includes("pottery"))
        assert.isDefined(hiking)
        assert.isDefined(pottery)
        assert.match(hiking?.created_at ?? "", /^2023-05-08T13:56:0\d/)
        assert.match(pottery?.created_at ?? "", /^2023-06-01T09:05:01/)
        assert.strictEqual(pottery?.event_start_at?.slice(0, 10), "2023-05-31")
        assert.deepStrictEqual(provenance.diaIdsOf({ tier: "fact", id: hiking?.id ?? "" }), ["D1:1"])
        assert.deepStrictEqual(provenance.diaIdsOf({ tier: "fact_archive", id: pottery?.id ?? "" }), ["D2:1"])

        const reflections = yield* readFile(ReflectionsFile, path.join(dir, "reflections.json"))
        const reflection = reflections[0]
        assert.isDefined(reflection)
        const expected = new Set(
          (reflection?.source_fact_ids ?? []).flatMap((id) => provenance.diaIdsOf({ tier: "fact", id }))
        )
        assert.isAbove(expected.size, 0)
        assert.deepStrictEqual(new Set(provenance.diaIdsOf({ tier: "reflection", id: reflection?.id ?? "" })), expected)
      }).pipe(Effect.scoped),
    60_000
  )
})
