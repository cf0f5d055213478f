/**
 * What the memory browser shows of one character, read-only from its files (like statecharts/Live.ts; the
 * actor writes every view atomically, so a read sees a whole view): active facts, archived facts (the legacy
 * facts_archive.json and the facts_archive/ shards, newest archival first), reflections (live and
 * archived) with their evidence score now and as it will have decayed in 7 and 30 days without new
 * signals, and persona entries by section with protection, suppression, score and version count. Nothing
 * here writes, so reading never races the character's actor.
 */
import { Effect } from "effect"
import * as FactArchive from "../facts/FactArchive.js"
import * as FactStore from "../facts/FactStore.js"
import { META } from "../persona/Persona.js"
import * as PersonaStore from "../persona/PersonaStore.js"
import * as ReflectionStore from "../reflection/ReflectionStore.js"
import { score, type Evidence, type EvidenceTunables } from "../reflection/evidence/Evidence.js"

const DAY = 86_400_000

/** A finite score rounded to 3 decimals; null for a protected entry (+∞). */
const finite = (n: number): number | null => (Number.isFinite(n) ? Math.round(n * 1000) / 1000 : null)

export const snapshot = (dir: string, tunables: EvidenceTunables, nowMillis: number) =>
  Effect.gen(function* () {
    const reflections = ReflectionStore.make(dir, { maxPerShard: 1 })
    const persona = PersonaStore.make(dir, { maxPerShard: 1 })
    const scoreAt = (e: Evidence, days: number) => finite(score(e, nowMillis + days * DAY, tunables))
    const archived = yield* reflections.archive.all
    const archivedIds = new Set(archived.map((r) => r.id))
    const live = (yield* reflections.load).filter((r) => !archivedIds.has(r.id))
    const facts = (yield* FactStore.make(dir).load).facts.map((f) => ({
      id: f.id,
      text: f.text,
      importance: f.importance,
      entity: f.entity,
      absorbed: f.absorbed,
      created_at: f.created_at
    }))
    const archivedFacts = (yield* FactArchive.make(dir, { maxPerShard: 1 }).all).map((f) => ({
      id: f.id,
      text: f.text,
      importance: f.importance,
      entity: f.entity,
      created_at: f.created_at,
      archived_at: typeof f["archived_at"] === "string" ? f["archived_at"] : null
    }))
    const sections = Object.entries(yield* persona.load)
      .filter(([key]) => key !== META)
      .map(([section, s]) => ({
        section,
        entries: s.facts.map((e) => ({
          id: e.id,
          text: e.text,
          protected: e.protected,
          source: e.source,
          suppress: e.suppress,
          score: e.protected ? null : scoreAt(e, 0),
          version_history: e.version_history.length
        }))
      }))
    return {
      facts,
      archived_facts: archivedFacts.reverse(),
      reflections: [...live, ...archived.map((r) => ({ ...r, status: "archived" }))].map((r) => ({
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
      persona: sections
    }
  })
