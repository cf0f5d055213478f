/**
 * What the memory browser shows of one character, read-only from its files (like statecharts/Live.ts; the
 * actor writes every view atomically, so a read sees a whole view): active facts, archived facts (the legacy
 * facts_archive.json and the facts_archive/ shards, newest archival first), reflections (live and
 * archived) with their evidence score now and as it will have decayed in 7 and 30 days without new
 * signals, and persona entries by section with protection, suppression, score and version count. The
 * top-level lists are private memory only; `subjects` holds the same lists per group-chat subject with its
 * display name (Subjects.ts). Nothing here writes, so reading never races the character's actor.
 */
import { Effect } from "effect"
import { subjectFields, subjectMarker } from "../domain/Subject.js"
import type { Fact } from "../facts/Fact.js"
import * as FactArchive from "../facts/FactArchive.js"
import * as FactStore from "../facts/FactStore.js"
import type { PersonaEntry } from "../persona/Persona.js"
import * as PersonaStore from "../persona/PersonaStore.js"
import type { Reflection } from "../reflection/Reflection.js"
import * as ReflectionStore from "../reflection/ReflectionStore.js"
import { score, type Evidence, type EvidenceTunables } from "../reflection/evidence/Evidence.js"
import * as SubjectNames from "../scoped/SubjectNames.js"
import { privatePart, subjectParts, type Memory } from "./Subjects.js"

const DAY = 86_400_000

/** A finite score rounded to 3 decimals; null for a protected entry (+∞). */
const finite = (n: number): number | null => (Number.isFinite(n) ? Math.round(n * 1000) / 1000 : null)

/** The wire lists of one part of the memory. */
const lists = (m: Memory<Fact, Reflection, PersonaEntry>, scoreAt: (e: Evidence, days: number) => number | null) => ({
  facts: m.facts.map((f) => ({
    id: f.id,
    text: f.text,
    importance: f.importance,
    entity: f.entity,
    absorbed: f.absorbed,
    created_at: f.created_at
  })),
  archived_facts: m.archivedFacts.map((f) => ({
    id: f.id,
    text: f.text,
    importance: f.importance,
    entity: f.entity,
    created_at: f.created_at,
    archived_at: typeof f["archived_at"] === "string" ? f["archived_at"] : null
  })),
  reflections: m.reflections.map((r) => ({
    id: r.id,
    text: r.text,
    status: r.status,
    entity: r.entity,
    source_fact_ids: r.source_fact_ids,
    created_at: r.created_at,
    reinforcement: r.reinforcement,
    disputation: r.disputation,
    score: { now: scoreAt(r, 0), in_7d: scoreAt(r, 7), in_30d: scoreAt(r, 30) }
  })),
  persona: m.persona.map(({ section, entries }) => ({
    section,
    entries: entries.map((e) => ({
      id: e.id,
      text: e.text,
      protected: e.protected,
      source: e.source,
      suppress: e.suppress,
      score: e.protected ? null : scoreAt(e, 0),
      version_history: e.version_history.length
    }))
  }))
})

export const snapshot = (dir: string, tunables: EvidenceTunables, nowMillis: number) =>
  Effect.gen(function* () {
    const reflections = ReflectionStore.make(dir, { maxPerShard: 1 })
    const persona = PersonaStore.make(dir, { maxPerShard: 1 })
    const scoreAt = (e: Evidence, days: number) => finite(score(e, nowMillis + days * DAY, tunables))
    const archived = yield* reflections.archive.all
    const archivedIds = new Set(archived.map((r) => r.id))
    const live = (yield* reflections.loadAll).filter((r) => !archivedIds.has(r.id))
    const memory: Memory<Fact, Reflection, PersonaEntry> = {
      facts: (yield* FactStore.make(dir).load).all,
      archivedFacts: [...(yield* FactArchive.make(dir, { maxPerShard: 1 }).all)].reverse(),
      reflections: [...live, ...archived.map((r) => ({ ...r, status: "archived" }))],
      persona: Object.entries(yield* persona.load).map(([section, s]) => ({ section, entries: s.facts }))
    }
    // The names are cosmetic: an unreadable scoped_subjects.json leaves the subjects unnamed, not the page empty.
    const named = yield* SubjectNames.make(dir).rows.pipe(
      Effect.tapError(() => Effect.logWarning("memory browser: scoped_subjects.json unreadable")),
      Effect.orElseSucceed(() => [])
    )
    const displayNames = SubjectNames.namesOf(named)
    return {
      ...lists(privatePart(memory), scoreAt),
      subjects: subjectParts(memory, named).map(({ subject, memory }) => ({
        ...subjectFields(subject),
        display_name: displayNames.get(subjectMarker(subject)) ?? null,
        ...lists(memory, scoreAt)
      }))
    }
  })
