/**
 * What the state-chart page shows of one character, read-only from its files (the actor writes every view
 * atomically, so a read sees a whole view; events past the sentinel show once the actor has applied them):
 * reflections by `status` (archived ones from the `reflection_archive/` shards), persona entries by state
 * (archived: in `persona_archive/`; otherwise as memory/persona/PersonaState.ts derives it for the actor too),
 * each with its evidence score, and one entry's history from `events.ndjson`. Nothing here
 * writes, so reading never races the character's actor.
 */
import { Effect, Option, Schema } from "effect"
import * as path from "node:path"
import { META } from "../persona/Persona.js"
import { correctionsOf, personaState } from "../persona/PersonaState.js"
import * as PersonaStore from "../persona/PersonaStore.js"
import * as ReflectionStore from "../reflection/ReflectionStore.js"
import { score, type Evidence, type EvidenceTunables } from "../reflection/evidence/Evidence.js"
import * as EventLog from "../store/EventLog.js"

export interface LiveEntry {
  readonly machine: "reflection" | "persona"
  readonly state: string
  readonly id: string
  readonly text: string
  /** The evidence score now; null for a protected entry (+∞). */
  readonly score: number | null
  readonly section?: string
}

export interface HistoryStep {
  readonly type: string
  readonly ts: string
  readonly from: string | null
  readonly to: string | null
}

const finite = (n: number): number | null => (Number.isFinite(n) ? Math.round(n * 1000) / 1000 : null)

/** Every reflection and persona entry of the character with its lifecycle state. */
export const entries = (dir: string, tunables: EvidenceTunables, nowMillis: number) =>
  Effect.gen(function* () {
    const reflections = ReflectionStore.make(dir, { maxPerShard: 1 })
    const persona = PersonaStore.make(dir, { maxPerShard: 1 })
    const scored = (e: Evidence, isProtected = false) => finite(score(e, nowMillis, tunables, isProtected))
    const archivedReflections = yield* reflections.archive.all
    const archivedIds = new Set(archivedReflections.map((r) => r.id))
    const liveReflections = (yield* reflections.load).filter((r) => !archivedIds.has(r.id))
    const queue = yield* persona.loadCorrections
    const sections = Object.entries(yield* persona.load).filter(([key]) => key !== META)
    const reflectionEntry = (state: string, r: (typeof liveReflections)[number]): LiveEntry => ({
      machine: "reflection",
      state,
      id: r.id,
      text: r.text,
      score: scored(r)
    })
    return [
      ...liveReflections.map((r) => reflectionEntry(r.status, r)),
      ...archivedReflections.map((r) => reflectionEntry("archived", r)),
      ...sections.flatMap(([section, s]) =>
        (s.facts ?? []).map(
          (e): LiveEntry => ({
            machine: "persona",
            state: personaState(e, correctionsOf(e, section, s.facts ?? [], queue)),
            id: e.id,
            text: e.text,
            score: scored(e, e.protected),
            section
          })
        )
      ),
      ...(yield* persona.archive.all).map(
        (e): LiveEntry => ({ machine: "persona", state: "archived", id: e.id, text: e.text, score: scored(e) })
      )
    ]
  })

/** Entry counts by state of one machine; every state of `states` is present. */
export const countBy = (
  all: ReadonlyArray<LiveEntry>,
  machine: LiveEntry["machine"],
  states: ReadonlyArray<string>
): Record<string, number> => {
  const counts: Record<string, number> = Object.fromEntries(states.map((s) => [s, 0]))
  for (const e of all) if (e.machine === machine) counts[e.state] = (counts[e.state] ?? 0) + 1
  return counts
}

const ReflectionRef = Schema.Struct({ reflection: Schema.Struct({ id: Schema.String, status: Schema.String }) })
const StateChanged = Schema.Struct({ reflection_id: Schema.String, from: Schema.String, to: Schema.String })
const PersonaRef = Schema.Struct({
  entry_id: Schema.String,
  archived_at: Schema.optional(Schema.String),
  entry_snapshot: Schema.optional(Schema.Struct({ suppress: Schema.optional(Schema.Boolean) }))
})
const CardRef = Schema.Struct({ entries: Schema.Array(Schema.Struct({ id: Schema.String })) })
const Queued = Schema.Struct({
  correction: Schema.Struct({ correction_id: Schema.String, old_id: Schema.optional(Schema.NullOr(Schema.String)) })
})
const Resolved = Schema.Struct({ correction_ids: Schema.Array(Schema.String) })
const decode = {
  reflection: Schema.decodeUnknownOption(ReflectionRef),
  changed: Schema.decodeUnknownOption(StateChanged),
  persona: Schema.decodeUnknownOption(PersonaRef),
  card: Schema.decodeUnknownOption(CardRef),
  queued: Schema.decodeUnknownOption(Queued),
  resolved: Schema.decodeUnknownOption(Resolved)
}

/** The journal lines that concern `id`, as lifecycle steps (`from`/`to` where the event states them). */
export const historyOf = (events: ReadonlyArray<EventLog.EventLine>, id: string): ReadonlyArray<HistoryStep> => {
  const corrections = new Set<string>()
  let last: string | null = null
  const steps: Array<HistoryStep> = []
  const step = (type: string, ts: string, to: string | null, from: string | null = last) => {
    steps.push({ type, ts, from, to })
    if (to !== null) last = to
  }
  for (const e of events) {
    const p = e.payload
    if (e.type === "reflection.synthesized" || e.type === "reflection.updated") {
      Option.map(
        Option.filter(decode.reflection(p), (r) => r.reflection.id === id),
        (r) => step(e.type, e.ts, r.reflection.status)
      )
    } else if (e.type === "reflection.state_changed") {
      Option.map(
        Option.filter(decode.changed(p), (c) => c.reflection_id === id),
        (c) => step(e.type, e.ts, c.to, c.from)
      )
    } else if (e.type === "persona.card_synced") {
      Option.map(
        Option.filter(decode.card(p), (c) => c.entries.some((x) => x.id === id)),
        () => step(e.type, e.ts, "active")
      )
    } else if (e.type === "persona.entry_removed") {
      Option.map(
        Option.filter(decode.persona(p), (r) => r.entry_id === id),
        () => step(e.type, e.ts, "removed")
      )
    } else if (e.type.startsWith("persona.")) {
      Option.map(
        Option.filter(decode.persona(p), (r) => r.entry_id === id),
        (r) =>
          step(
            e.type,
            e.ts,
            r.archived_at !== undefined ? "archived" : r.entry_snapshot?.suppress ? "suppressed" : "active"
          )
      )
    } else if (e.type === "correction.queued") {
      Option.map(
        Option.filter(decode.queued(p), (q) => q.correction.old_id === id),
        (q) => {
          corrections.add(q.correction.correction_id)
          step(e.type, e.ts, "corrected")
        }
      )
    } else if (e.type === "correction.resolved") {
      Option.map(
        Option.filter(decode.resolved(p), (r) => r.correction_ids.some((c) => corrections.has(c))),
        () => step(e.type, e.ts, "active")
      )
    }
  }
  return steps
}

/** The history of one entry from the character's journal. */
export const history = (dir: string, id: string) =>
  Effect.map(EventLog.make(dir).all, (events) => historyOf(events, id))

export const characterDir = (dataDir: string, name: string): string => path.join(dataDir, name)
