/**
 * The fact events' side of the crash-repair table (see reconcile-transitions.test.ts): several events of one
 * fact past the sentinel land as one record, and a crash after the archive shard does not archive twice.
 */
import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { tombstone } from "../../src/store/Tombstone.js"
import * as T from "../../src/character/JournalEvent.js"
import { Fact, FactsFile, textHash } from "../../src/facts/Fact.js"
import { assertShard, eid, read, repairsOnce, SHARD, shards, T0, T1, type Case } from "../support/crashReplay.js"

const fact = (id: string, text: string, over: Partial<Fact> = {}): Fact =>
  Schema.decodeUnknownSync(Fact)({ id, text, hash: textHash(text), created_at: T0, ...over })
const F1 = fact("fact_20261129080000_aaaaaaaa", "Alex lives in Osaka.")
const F2 = fact("fact_20261129080000_bbbbbbbb", "Alex lives in Osaka city.")
const R0 = "ref_0123456789abcdef"
const facts = (dir: string) => read(FactsFile, path.join(dir, "facts.json"))

const factCases: ReadonlyArray<Case> = [
  {
    name: "fact.added then fact.updated",
    views: {},
    applied: [],
    pending: [
      T.factLine(eid(1), T.FACT_ADDED, F1, T1),
      T.factLine(eid(2), T.FACT_UPDATED, { ...F1, importance: 8 }, T1)
    ],
    expect: (dir) => assert.deepStrictEqual(facts(dir), [{ ...F1, importance: 8 }])
  },
  {
    name: "fact.added then fact.absorbed (a synthesis consuming it)",
    views: {},
    applied: [],
    pending: [
      T.factLine(eid(1), T.FACT_ADDED, F1, T1),
      T.factAbsorbedLine(eid(2), { fact_ids: [F1.id], reflection_id: R0 }, T1)
    ],
    expect: (dir) => assert.deepStrictEqual(facts(dir), [{ ...F1, absorbed: true }])
  },
  {
    name: "fact.archived (crash after the shard, before facts.json)",
    views: {
      "facts.json": [F1, F2],
      [`facts_archive/${SHARD}`]: [{ ...F2, archived_at: T1, archive_shard_path: SHARD }]
    },
    applied: [T.factLine(eid(1), T.FACT_ADDED, F1, T0), T.factLine(eid(2), T.FACT_ADDED, F2, T0)],
    pending: [T.factMoveLine(eid(3), T.FACT_ARCHIVED, { archived: F2, reason: "stale" }, T1)],
    expect: (dir) => {
      assert.deepStrictEqual(facts(dir), [F1])
      assertShard(dir, "facts_archive", "2026-11-30", [F2.id], T1)
    }
  },
  {
    name: "fact.merged and fact.absorbed",
    views: { "facts.json": [F1, F2] },
    applied: [T.factLine(eid(1), T.FACT_ADDED, F1, T0), T.factLine(eid(2), T.FACT_ADDED, F2, T0)],
    pending: [
      T.factMoveLine(eid(3), T.FACT_MERGED, { kept: { ...F1, importance: 7 }, archived: F2, reason: "dedup" }, T1),
      T.factAbsorbedLine(eid(4), { fact_ids: [F1.id], reflection_id: R0 }, T1)
    ],
    expect: (dir) => {
      assert.deepStrictEqual(facts(dir), [{ ...F1, importance: 7, absorbed: true }])
      assert.deepStrictEqual(
        shards(dir, "facts_archive").flatMap((s) => s.entries.map((e) => e["id"])),
        [F2.id]
      )
    }
  },
  {
    name: "fact.forgotten (the fact leaves facts.json for no archive)",
    views: { "facts.json": [F1, F2] },
    applied: [T.factLine(eid(1), T.FACT_ADDED, F1, T0), T.factLine(eid(2), T.FACT_ADDED, F2, T0)],
    pending: [T.factForgottenLine(eid(3), { fact_ids: [F2.id], reason: "manual" }, T1)],
    expect: (dir) => {
      assert.deepStrictEqual(facts(dir), [F1])
      assert.deepStrictEqual(shards(dir, "facts_archive"), [])
      const journal = readFileSync(path.join(dir, "events.ndjson"), "utf8")
      assert.notInclude(journal, F2.text, "the replayed forget completes its redaction")
      assert.include(journal, F1.text)
    }
  },
  {
    name: "redaction tombstones past the sentinel (a crash amid a forget's rewrite)",
    views: { "facts.json": [F1, F2] },
    applied: [],
    pending: [
      tombstone(T.factLine(eid(1), T.FACT_ADDED, F2, T0), { ids: [F2.id], reason: "manual", at: T1 }),
      tombstone(
        T.factMoveLine(eid(2), T.FACT_MERGED, { kept: { ...F1, importance: 9 }, archived: F2, reason: "dedup" }, T0),
        { ids: [F2.id], reason: "manual", at: T1 },
        { kept: { ...F1, importance: 9 } }
      )
    ],
    expect: (dir) => {
      assert.deepStrictEqual(facts(dir), [{ ...F1, importance: 9 }], "ids removed again, the kept fact upserted")
      assert.deepStrictEqual(shards(dir, "facts_archive"), [])
    }
  }
]

describe("the reconciler repairs a crash in the fact events", () => {
  it.scoped.each(factCases)("$name", repairsOnce)
})
