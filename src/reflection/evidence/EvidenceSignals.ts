/**
 * Evidence from what the user says (neko-compat §4.6, §4.11, §4.12; powerful memory ON only). Stage 2:
 * new facts are mapped onto the observations (pending/confirmed reflections, non-protected persona
 * entries) the internal reranker picks, each cut to `evidence_per_observation_max_tokens` and together to
 * `evidence_observations_total_max_tokens` in the prompt — a reinforcing fact adds +0.5 (`user_fact`, with
 * the combo bonus from the third), a negating one disputation +1.0. The negative-keyword hook: a user message
 * asking to stop mentioning something sends the last user messages and the observations to the `emotion`
 * tier; each target gets disputation +1.0 (`user_keyword_rebut`). Every change is journaled with the whole
 * record. Only private observations take part: a group-chat subject's entries never see private evidence.
 */
import { Clock, Effect } from "effect"
import { randomUUID } from "node:crypto"
import type { Language } from "../../domain/Locale.js"
import { localIso } from "../../domain/LocalTime.js"
import { PersonaTasks, type Observation } from "../../persona/PersonaTasks.js"
import { Tokenizer } from "../../llm/Tokenizer.js"
import { applySignal, score, type SignalSource } from "./Evidence.js"
import { hasNegativeKeyword } from "./NegativeKeywords.js"
import { applyRerank, coarseOrder } from "./Rerank.js"
import type { Fact } from "../../facts/Fact.js"
import { privateView, type PersonaEntry } from "../../persona/Persona.js"
import type { Speakers } from "../../domain/Speakers.js"
import type { Reflection } from "../Reflection.js"
import { AppFiles } from "../../store/AppFiles.js"
import type { EventLine } from "../../store/EventLog.js"
import type { Tunables } from "../../Tunables.js"
import type { ReflectionHost } from "../ReflectionHost.js"
import { entryLine, PERSONA_EVIDENCE_UPDATED } from "../../persona/PersonaEvent.js"
import { reflectionLine, REFLECTION_UPDATED } from "../ReflectionEvents.js"
import { withFields } from "../../domain/Shapes.js"

type Target =
  | (Observation & { readonly type: "reflection"; readonly score: number; readonly record: Reflection })
  | (Observation & {
      readonly type: "persona"
      readonly score: number
      readonly section: string
      readonly record: PersonaEntry
    })

export interface Delta {
  readonly reinforcement?: number
  readonly disputation?: number
  readonly source: SignalSource
}

export const make = (deps: {
  readonly tunables: Tunables
  readonly speakers: Effect.Effect<Speakers>
  readonly language: (state: ReflectionHost) => Language
  /** Runs after evidence changed (the lifecycle evaluation, which may confirm or promote). */
  readonly afterwards: (state: ReflectionHost) => Effect.Effect<unknown>
}) =>
  Effect.gen(function* () {
    const tasks = yield* PersonaTasks
    const files = yield* AppFiles
    const tokens = yield* Tokenizer
    const t = deps.tunables

    /** The observations as the prompt shows them: each text capped, and no more than the total budget. */
    const prompted = (picked: ReadonlyArray<Target>): ReadonlyArray<Observation> => {
      const out: Array<Observation> = []
      let total = 0
      for (const { type, id, text, entity } of picked) {
        const capped = tokens.truncate(text, t.evidence_per_observation_max_tokens)
        total += tokens.count(capped)
        if (total > t.evidence_observations_total_max_tokens) break
        out.push({ type, id, text: capped, entity })
      }
      return out
    }

    /** The hard-filtered observation pool, in file order. */
    const pool = (state: ReflectionHost, now: number) =>
      Effect.gen(function* () {
        const out: Array<Target> = []
        for (const r of yield* state.reflections.load) {
          if ((r.status !== "pending" && r.status !== "confirmed") || r.suppress || r.text === "") continue
          out.push({ type: "reflection", id: r.id, text: r.text, entity: r.entity, score: score(r, now, t), record: r })
        }
        for (const [section, s] of Object.entries(privateView(yield* state.persona.load))) {
          for (const e of s.facts) {
            if (e.protected || e.suppress || e.text === "") continue
            out.push({
              type: "persona",
              id: e.id,
              text: e.text,
              entity: section,
              score: score(e, now, t),
              section,
              record: e
            })
          }
        }
        return out
      })

    /** Journals one evidence application per target (deltas of one target are summed into one snapshot). */
    const apply = (state: ReflectionHost, changes: ReadonlyArray<{ readonly target: Target; readonly delta: Delta }>) =>
      Effect.gen(function* () {
        const ts = localIso(yield* Clock.currentTimeMillis)
        const reflections = new Map<string, Reflection>()
        const entries = new Map<string, { readonly section: string; entry: PersonaEntry }>()
        for (const { target, delta } of changes) {
          if (target.type === "reflection") {
            const current = reflections.get(target.id) ?? target.record
            reflections.set(target.id, withFields(current, applySignal(current, delta, ts, t)))
          } else {
            const current = entries.get(target.id)?.entry ?? target.record
            entries.set(target.id, {
              section: target.section,
              entry: withFields(current, applySignal(current, delta, ts, t))
            })
          }
        }
        const lines: Array<EventLine> = [
          ...[...reflections.values()].map((r) =>
            reflectionLine(randomUUID(), { reflection: r }, ts, REFLECTION_UPDATED)
          ),
          ...[...entries.values()].map(({ section, entry }) =>
            entryLine(randomUUID(), PERSONA_EVIDENCE_UPDATED, section, entry, ts, {
              source: changes[0]?.delta.source ?? ""
            })
          )
        ]
        yield* state.journal(lines)
        if (lines.length > 0) yield* deps.afterwards(state)
        return lines.length
      })

    /** Stage 2 for facts just extracted; returns how many observations changed. */
    const mapFacts = (state: ReflectionHost, facts: ReadonlyArray<Fact>) =>
      Effect.gen(function* () {
        if (facts.length === 0 || !(yield* files.core).powerful_memory_enabled) return 0
        const now = yield* Clock.currentTimeMillis
        const candidates = yield* pool(state, now)
        if (candidates.length === 0) return 0
        const picked = applyRerank(
          coarseOrder(candidates, undefined, t.evidence_detect_signals_max_observations).ordered,
          [],
          t.evidence_detect_signals_max_observations
        )
        const newest = [...facts]
          .sort((a, b) => b.importance - a.importance)
          .slice(0, t.evidence_detect_signals_max_new_facts)
        const answer = yield* tasks.detectSignals({
          facts: newest.map((f) => ({ id: f.id, text: f.text, entity: f.entity })),
          observations: prompted(picked),
          names: yield* deps.speakers,
          language: deps.language(state)
        })
        const known = new Set(newest.map((f) => f.id))
        const byKey = new Map(picked.map((c) => [`${c.type}:${c.id}`, c]))
        const changes = answer.signals.flatMap((s) => {
          const target = byKey.get(`${s.target_type}:${s.target_id}`)
          if (target === undefined || !known.has(s.source_fact_id)) return []
          const delta: Delta =
            s.signal === "reinforces"
              ? { reinforcement: t.user_fact_reinforce_delta, source: "user_fact" }
              : { disputation: t.user_fact_negate_delta, source: "user_fact" }
          return [{ target, delta }]
        })
        return yield* apply(state, changes)
      })

    /** The negative-keyword hook for one turn's user messages. */
    const negativeHook = (state: ReflectionHost, userMessages: ReadonlyArray<string>, language: Language) =>
      Effect.gen(function* () {
        if (!userMessages.some((m) => hasNegativeKeyword(m, language))) return 0
        if (!(yield* files.core).powerful_memory_enabled) return 0
        const candidates = yield* pool(state, yield* Clock.currentTimeMillis)
        if (candidates.length === 0) return 0
        const answer = yield* tasks.negativeTargets({
          messages: userMessages.slice(-t.negative_keyword_check_context_items),
          observations: candidates.map(({ type, id, text, entity }) => ({ type, id, text, entity })),
          names: yield* deps.speakers,
          language
        })
        const byKey = new Map(candidates.map((c) => [`${c.type}:${c.id}`, c]))
        const changes = answer.targets.flatMap((x) => {
          const target = byKey.get(`${x.target_type}:${x.target_id}`)
          return target === undefined
            ? []
            : [{ target, delta: { disputation: t.user_keyword_rebut_delta, source: "user_keyword_rebut" as const } }]
        })
        return yield* apply(state, changes)
      })

    return { mapFacts, negativeHook, pool }
  })
