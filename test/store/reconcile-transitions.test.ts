/**
 * For each transition type, a crash between the journal append and the view write is repaired by the
 * reconciler at the next start (test/support/crashReplay.ts plants the crash and restarts): the views show
 * the change, the sentinel names the last event, and replaying the same events again changes nothing.
 */
import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import * as path from "node:path"
import * as P from "../../src/persona/PersonaEvent.js"
import * as T from "../../src/character/JournalEvent.js"
import { Correction, CorrectionsFile, newEntry, PersonaFile, type PersonaEntry } from "../../src/persona/Persona.js"
import { Reflection, ReflectionsFile } from "../../src/reflection/Reflection.js"
import { assertShard, eid, MIGRATED, read, repairsOnce, SHARD, T0, T1, type Case } from "../support/crashReplay.js"

const ref = (over: Readonly<Record<string, unknown>> = {}): Reflection =>
  Schema.decodeUnknownSync(Reflection)({
    id: "ref_0123456789abcdef",
    text: "Alex runs every morning.",
    entity: "master",
    created_at: T0,
    ...over
  })
const R0 = ref()
const confirmed = ref({ status: "confirmed", confirmed_at: T0 })
const entry = (over: Partial<PersonaEntry> = {}): PersonaEntry => ({
  ...newEntry({ id: "manual_20261129080000_0a1b2c3d", text: "Alex likes green tea.", source: "manual", createdAt: T0 }),
  ...over
})
const E0 = entry()
const persona = (sections: Partial<Record<"neko" | "master" | "relationship", ReadonlyArray<PersonaEntry>>>) => ({
  __meta__: MIGRATED,
  neko: { facts: sections.neko ?? [] },
  master: { facts: sections.master ?? [] },
  relationship: { facts: sections.relationship ?? [] }
})
const correction = (id: string, over: Readonly<Record<string, unknown>> = {}): Correction =>
  Schema.decodeUnknownSync(Correction)({
    correction_id: id,
    old_text: "Alex likes green tea.",
    new_text: "Alex likes black tea.",
    entity: "master",
    created_at: T0,
    ...over
  })

/** `reflection.state_changed` as Promotion/Feedback/EvidenceSweep journal it: the fields on both payload and record. */
const moved = (n: number, r: Reflection, to: string, fields: Readonly<Record<string, unknown>>) =>
  T.stateChangedLine(
    eid(n),
    { reflection_id: r.id, from: r.status, to, ts: T1, ...fields, entry_snapshot: { ...r, ...fields, status: to } },
    T1
  )
const synthesized = (n: number, r: Reflection, ts = T0) => T.reflectionLine(eid(n), { reflection: r }, ts)

const reflections = (dir: string) => read(ReflectionsFile, path.join(dir, "reflections.json"))
const personaFile = (dir: string) => read(PersonaFile, path.join(dir, "persona.json"))
const corrections = (dir: string) => read(CorrectionsFile, path.join(dir, "persona_corrections.json"))
const reflectionCases: ReadonlyArray<Case> = [
  {
    name: "reflection.synthesized",
    views: { "reflections.json": [] },
    applied: [],
    pending: [synthesized(1, R0, T1)],
    expect: (dir) => assert.deepStrictEqual(reflections(dir), [R0])
  },
  {
    name: "reflection.updated",
    views: { "reflections.json": [R0] },
    applied: [synthesized(1, R0)],
    pending: [
      T.reflectionLine(eid(2), { reflection: { ...R0, sub_zero_days: 3 } }, T1, T.REFLECTION_UPDATED),
      T.reflectionLine(
        eid(3),
        { reflection: { ...R0, sub_zero_days: 4, feedback: "ignored" } },
        T1,
        T.REFLECTION_UPDATED
      )
    ],
    expect: (dir) => assert.deepStrictEqual(reflections(dir), [{ ...R0, sub_zero_days: 4, feedback: "ignored" }])
  },
  {
    name: "reflection.state_changed → confirmed",
    views: { "reflections.json": [R0] },
    applied: [synthesized(1, R0)],
    pending: [moved(2, R0, "confirmed", { confirmed_at: T1, auto_confirmed: true })],
    expect: (dir) =>
      assert.deepStrictEqual(reflections(dir), [{ ...R0, status: "confirmed", confirmed_at: T1, auto_confirmed: true }])
  },
  {
    name: "reflection.state_changed → promoted (with its persona.fact_added)",
    views: { "reflections.json": [confirmed], "persona.json": persona({}) },
    applied: [synthesized(1, confirmed)],
    pending: [
      P.entryLine(eid(2), P.PERSONA_FACT_ADDED, "master", entry({ id: `prom_${R0.id}`, text: R0.text }), T1, {
        source: "reflection"
      }),
      moved(3, confirmed, "promoted", { promoted_at: T1 })
    ],
    expect: (dir) => {
      assert.deepStrictEqual(reflections(dir), [{ ...confirmed, status: "promoted", promoted_at: T1 }])
      assert.deepStrictEqual(
        personaFile(dir)["master"]?.facts.map((e) => [e.id, e.text]),
        [[`prom_${R0.id}`, R0.text]]
      )
    }
  },
  {
    name: "reflection.state_changed → merged (with its persona.entry_updated)",
    views: { "reflections.json": [confirmed], "persona.json": persona({ master: [E0] }) },
    applied: [synthesized(1, confirmed)],
    pending: [
      P.entryLine(
        eid(2),
        P.PERSONA_ENTRY_UPDATED,
        "master",
        entry({ text: "Alex likes green tea and runs.", merged_from_ids: [R0.id] }),
        T1,
        { source: "promote_merge" }
      ),
      moved(3, confirmed, "merged", { merged_at: T1, absorbed_into: E0.id })
    ],
    expect: (dir) => {
      assert.deepStrictEqual(reflections(dir), [
        { ...confirmed, status: "merged", merged_at: T1, absorbed_into: E0.id }
      ])
      assert.deepStrictEqual(personaFile(dir)["master"]?.facts, [
        entry({ text: "Alex likes green tea and runs.", merged_from_ids: [R0.id] })
      ])
    }
  },
  {
    name: "reflection.state_changed → denied",
    views: { "reflections.json": [R0] },
    applied: [synthesized(1, R0)],
    pending: [moved(2, R0, "denied", { feedback: "denied", denied_at: T1, denied_reason: "user_denied" })],
    expect: (dir) =>
      assert.deepStrictEqual(reflections(dir), [
        { ...R0, status: "denied", feedback: "denied", denied_at: T1, denied_reason: "user_denied" }
      ])
  },
  {
    name: "reflection.state_changed → promote_blocked",
    views: { "reflections.json": [confirmed] },
    applied: [synthesized(1, confirmed)],
    pending: [
      moved(2, confirmed, "promote_blocked", { promote_blocked_at: T1, promote_blocked_reason: "max_attempts" })
    ],
    expect: (dir) =>
      assert.deepStrictEqual(reflections(dir), [
        { ...confirmed, status: "promote_blocked", promote_blocked_at: T1, promote_blocked_reason: "max_attempts" }
      ])
  },
  {
    name: "reflection.state_changed → archived (the sweep's payload, with archived_at)",
    views: { "reflections.json": [ref({ id: "ref_keep" }), R0] },
    applied: [synthesized(1, R0)],
    pending: [moved(2, R0, "archived", { archived_at: T1, reason: "sub_zero_14d" })],
    expect: (dir) => {
      assert.deepStrictEqual(reflections(dir), [ref({ id: "ref_keep" })])
      assertShard(dir, "reflection_archive", "2026-11-30", [R0.id], T1)
    }
  },
  {
    name: "reflection.state_changed → archived (crash after the shard, before reflections.json)",
    views: {
      "reflections.json": [R0],
      [`reflection_archive/${SHARD}`]: [
        { ...R0, status: "archived", archived_at: T1, archive_reason: "sub_zero_14d", archive_shard_path: SHARD }
      ]
    },
    applied: [synthesized(1, R0)],
    pending: [moved(2, R0, "archived", { archived_at: T1, archive_reason: "sub_zero_14d" })],
    expect: (dir) => {
      assert.deepStrictEqual(reflections(dir), [])
      assertShard(dir, "reflection_archive", "2026-11-30", [R0.id], T1)
    }
  },
  {
    name: "reflection.state_changed → archived (N.E.K.O.'s payload: ts only)",
    views: { "reflections.json": [R0] },
    applied: [synthesized(1, R0)],
    pending: [
      T.stateChangedLine(
        eid(2),
        {
          reflection_id: R0.id,
          from: "pending",
          to: "archived",
          ts: T1,
          entry_snapshot: { ...R0, status: "archived" }
        },
        T1
      )
    ],
    expect: (dir) => {
      assert.deepStrictEqual(reflections(dir), [])
      assertShard(dir, "reflection_archive", "2026-11-30", [R0.id], T1)
    }
  },
  {
    name: "a synthesis and its later transitions, all past the sentinel",
    views: {},
    applied: [],
    pending: [
      synthesized(1, R0),
      moved(2, R0, "confirmed", { confirmed_at: T1 }),
      moved(3, { ...R0, status: "confirmed", confirmed_at: T1 }, "promoted", { promoted_at: T1 })
    ],
    expect: (dir) =>
      assert.deepStrictEqual(reflections(dir), [{ ...R0, status: "promoted", confirmed_at: T1, promoted_at: T1 }])
  }
]

const card = (id: string, text: string) => entry({ id, text, source: "character_card", protected: true })
const personaCases: ReadonlyArray<Case> = [
  {
    name: "persona.fact_added",
    views: {},
    applied: [],
    pending: [P.entryLine(eid(1), P.PERSONA_FACT_ADDED, "master", E0, T1, { source: "manual" })],
    expect: (dir) => assert.deepStrictEqual(personaFile(dir), persona({ master: [E0] }))
  },
  {
    name: "persona.fact_added with archived_at (archival)",
    views: { "persona.json": persona({ master: [E0, entry({ id: "manual_keep" })] }) },
    applied: [P.entryLine(eid(1), P.PERSONA_FACT_ADDED, "master", E0, T0)],
    pending: [
      P.entryLine(eid(2), P.PERSONA_FACT_ADDED, "master", { ...E0, sub_zero_days: 14 }, T1, {
        source: "manual",
        archived_at: T1
      })
    ],
    expect: (dir) => {
      assert.deepStrictEqual(personaFile(dir), persona({ master: [entry({ id: "manual_keep" })] }))
      assertShard(dir, "persona_archive", "2026-11-30", [E0.id], T1)
    }
  },
  {
    name: "persona.fact_added with archived_at (crash after the shard, before persona.json)",
    views: {
      "persona.json": persona({ master: [E0] }),
      [`persona_archive/${SHARD}`]: [{ ...E0, archived_at: T1, archive_shard_path: SHARD }]
    },
    applied: [P.entryLine(eid(1), P.PERSONA_FACT_ADDED, "master", E0, T0)],
    pending: [P.entryLine(eid(2), P.PERSONA_FACT_ADDED, "master", E0, T1, { source: "manual", archived_at: T1 })],
    expect: (dir) => {
      assert.deepStrictEqual(personaFile(dir), persona({}))
      assertShard(dir, "persona_archive", "2026-11-30", [E0.id], T1)
    }
  },
  {
    name: "persona.entry_updated",
    views: { "persona.json": persona({ master: [E0] }) },
    applied: [P.entryLine(eid(1), P.PERSONA_FACT_ADDED, "master", E0, T0)],
    pending: [
      P.entryLine(
        eid(2),
        P.PERSONA_ENTRY_UPDATED,
        "master",
        entry({ text: "Alex likes black tea.", version_history: [{ text: E0.text, replaced_at: T1 }] }),
        T1,
        { source: "correction" }
      )
    ],
    expect: (dir) =>
      assert.deepStrictEqual(
        personaFile(dir),
        persona({
          master: [entry({ text: "Alex likes black tea.", version_history: [{ text: E0.text, replaced_at: T1 }] })]
        })
      )
  },
  {
    name: "persona.evidence_updated",
    views: { "persona.json": persona({ master: [E0] }) },
    applied: [P.entryLine(eid(1), P.PERSONA_FACT_ADDED, "master", E0, T0)],
    pending: [
      P.entryLine(
        eid(2),
        P.PERSONA_EVIDENCE_UPDATED,
        "master",
        entry({ reinforcement: 1.5, rein_last_signal_at: T1, recent_mentions: [T1] }),
        T1,
        { source: "user_confirm" }
      )
    ],
    expect: (dir) =>
      assert.deepStrictEqual(
        personaFile(dir),
        persona({ master: [entry({ reinforcement: 1.5, rein_last_signal_at: T1, recent_mentions: [T1] })] })
      )
  },
  {
    name: "persona.entry_removed",
    views: { "persona.json": persona({ master: [E0, entry({ id: "manual_keep" })] }) },
    applied: [P.entryLine(eid(1), P.PERSONA_FACT_ADDED, "master", E0, T0)],
    pending: [P.removedLine(eid(2), "master", E0.id, "user_removed", T1)],
    expect: (dir) => assert.deepStrictEqual(personaFile(dir), persona({ master: [entry({ id: "manual_keep" })] }))
  },
  {
    name: "persona.card_synced",
    views: { "persona.json": persona({ neko: [card("card_00000001", "age: 3"), E0] }) },
    applied: [P.cardLine(eid(1), "neko", [card("card_00000001", "age: 3")], T0)],
    pending: [P.cardLine(eid(2), "neko", [card("card_00000002", "likes: fish"), card("card_00000001", "age: 4")], T1)],
    expect: (dir) =>
      assert.deepStrictEqual(
        personaFile(dir),
        persona({ neko: [card("card_00000002", "likes: fish"), card("card_00000001", "age: 4"), E0] })
      )
  }
]

const correctionCases: ReadonlyArray<Case> = [
  {
    name: "correction.queued",
    views: {},
    applied: [],
    pending: [P.queuedLine(eid(1), correction("corr_1"), T1)],
    expect: (dir) => assert.deepStrictEqual(corrections(dir), [correction("corr_1")])
  },
  {
    name: "correction.resolved",
    views: { "persona_corrections.json": [correction("corr_1"), correction("corr_2")] },
    applied: [P.queuedLine(eid(1), correction("corr_1"), T0), P.queuedLine(eid(2), correction("corr_2"), T0)],
    pending: [P.resolvedLine(eid(3), ["corr_1"], "applied", T1)],
    expect: (dir) => assert.deepStrictEqual(corrections(dir), [correction("corr_2")])
  },
  {
    name: "correction.attempted",
    views: { "persona_corrections.json": [correction("corr_1"), correction("corr_2")] },
    applied: [P.queuedLine(eid(1), correction("corr_1"), T0), P.queuedLine(eid(2), correction("corr_2"), T0)],
    pending: [P.attemptedLine(eid(3), { corr_1: 2 }, T1)],
    expect: (dir) =>
      assert.deepStrictEqual(corrections(dir), [correction("corr_1", { resolve_attempts: 2 }), correction("corr_2")])
  },
  {
    name: "a correction queued and resolved, both past the sentinel",
    views: {},
    applied: [],
    pending: [P.queuedLine(eid(1), correction("corr_1"), T1), P.resolvedLine(eid(2), ["corr_1"], "applied", T1)],
    expect: (dir) => assert.deepStrictEqual(corrections(dir), [])
  }
]

describe("the reconciler repairs a crash between the journal append and the view write", () => {
  it.scoped.each([...reflectionCases, ...personaCases, ...correctionCases])("$name", repairsOnce)
})
