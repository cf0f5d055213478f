/**
 * Reflection synthesis inside a character actor (neko-compat §4.4): select the facts (the `local` provider
 * narrows them to one group of related facts), reuse the deterministic id (an existing reflection only
 * absorbs its facts again), ask the `summary` tier or the `local` provider for one insight (with the related
 * existing observations as context once vectors exist), validate its ontology, and journal
 * `reflection.synthesized` plus `fact.absorbed` before the views change. Failures count per fact pool in
 * `synth_backoff.json`; the pool is skipped while `synthesisBackoff` holds it as a dead letter.
 */
import { Clock, Effect, Option, Schema } from "effect"
import { randomUUID } from "node:crypto"
import * as path from "node:path"
import type { Language } from "../domain/Locale.js"
import { localIso } from "../domain/LocalTime.js"
import { ReflectionTasks } from "./ReflectionTasks.js"
import { Tokenizer } from "../llm/Tokenizer.js"
import { reinforcementSeed } from "./evidence/Evidence.js"
import { eventWindow, EventWhenRaw } from "../facts/Fact.js"
import type { Speakers } from "../domain/Speakers.js"
import type { Reflection } from "./Reflection.js"
import { selectFacts, validateDraft } from "./Synthesis.js"
import * as ViewFile from "../store/ViewFile.js"
import type { Tunables } from "../Tunables.js"
import { deadLettered, synthesisBackoff } from "../maintenance/policies.js"
import type { ReflectionHost } from "./ReflectionHost.js"
import type { EventLine } from "../store/EventLog.js"
import { Embedder } from "../vectors/Embedder.js"
import { relatedContext } from "./RelatedContext.js"
import { factAbsorbedLine } from "../facts/FactEvents.js"
import { reflectionLine } from "./ReflectionEvents.js"
import {
  rowsOfSubjects,
  subjectFields,
  subjectKey,
  subjectMarker,
  subjectOfRow,
  type MemorySubject
} from "../domain/Subject.js"

export const Backoff = Schema.Record({
  key: Schema.String,
  value: Schema.Struct({ n: Schema.Number, at: Schema.Number })
})
type Backoff = typeof Backoff.Type
const noBackoff: Backoff = {}
const decodeWhen = Schema.decodeUnknownOption(EventWhenRaw)
/** A group-chat reflection's least reinforcement: no evidence signal ever raises it, yet it must render. */
const SCOPED_SEED = 0.1

export const make = (deps: {
  readonly tunables: Tunables
  readonly speakers: Effect.Effect<Speakers>
  readonly language: (state: ReflectionHost) => Language
}) =>
  Effect.gen(function* () {
    const tasks = yield* ReflectionTasks
    const tokens = yield* Tokenizer
    const embedder = yield* Embedder
    const t = deps.tunables

    const backoffView = (state: ReflectionHost) => ViewFile.make(Backoff, path.join(state.dir, "synth_backoff.json"))

    const failed = (state: ReflectionHost, key: string, now: number) =>
      Effect.gen(function* () {
        const view = backoffView(state)
        const all = Option.getOrElse(yield* view.read, () => noBackoff)
        const n = (all[key]?.n ?? 0) + 1
        const entries = Object.entries({ ...all, [key]: { n, at: now } }).slice(-64)
        yield* view.write(Object.fromEntries(entries))
      }).pipe(Effect.ignoreLogged)

    const commit = (state: ReflectionHost, lines: ReadonlyArray<EventLine>) =>
      Effect.asVoid(state.journal(lines, { supersedes: false }))

    /**
     * Synthesises at most one reflection from the private facts, or from one group-chat subject's facts (the
     * reflection then carries the subject's stamp, its kind as entity, and the subject key stands for the
     * speaker, as in N.E.K.O.; it starts `confirmed` with a reinforcement of at least 0.1, since no evidence
     * signal reaches a subject: the synthesis is its quality gate, and only its age promotes it);
     * returns it, or undefined when nothing was due.
     */
    const synthesize = (state: ReflectionHost, subject?: MemorySubject) =>
      Effect.gen(function* () {
        const speakers = yield* deps.speakers
        const names = subject === undefined ? speakers : { ...speakers, master: subjectKey(subject) }
        const language = deps.language(state)
        const index = yield* state.facts.load
        const selection = selectFacts(
          subject === undefined ? index.facts : rowsOfSubjects(index.all, [subject]),
          { min: t.min_facts_for_reflection, max: t.reflection_synthesis_facts_max },
          tasks.reflectionFocus(names, language)
        )
        if (selection === undefined) return undefined
        const now = yield* Clock.currentTimeMillis
        const ts = localIso(now)
        const absorb = factAbsorbedLine(
          randomUUID(),
          { fact_ids: selection.sourceFactIds, reflection_id: selection.id },
          ts
        )
        if ((yield* state.reflections.loadAll).some((r) => r.id === selection.id)) {
          yield* commit(state, [absorb])
          return undefined
        }
        const backoff = Option.getOrElse(
          yield* Effect.orElseSucceed(backoffView(state).read, () => Option.none<Backoff>()),
          () => noBackoff
        )
        const entry = backoff[selection.backoffKey]
        if (entry && deadLettered(synthesisBackoff(t), entry.n, entry.at, now)) return undefined
        const draft = yield* Effect.either(
          tasks.synthesizeReflection({
            facts: selection.facts.map((f) => ({ text: f.text, importance: f.importance, entity: f.entity })),
            names,
            language,
            context: yield* relatedContext(
              state,
              selection.facts.map((f) => f.text),
              t,
              subject
            ).pipe(Effect.provideService(Embedder, embedder))
          })
        )
        const valid =
          draft._tag === "Right" ? validateDraft(draft.right, tokens.count, t.reflection_text_max_tokens) : undefined
        if (draft._tag === "Left" || valid === undefined) {
          yield* failed(state, selection.backoffKey, now)
          return undefined
        }
        const when = draft.right.event_when === null ? null : Option.getOrNull(decodeWhen(draft.right.event_when))
        const window = eventWindow(when, now)
        const importanceSeed = reinforcementSeed(Math.max(...selection.facts.map((f) => f.importance)))
        const seed = subject === undefined ? importanceSeed : Math.max(importanceSeed, SCOPED_SEED)
        const reflection: Reflection = {
          ...(subject === undefined ? {} : subjectFields(subject)),
          id: selection.id,
          text: valid.text,
          entity: subject === undefined ? valid.entity : subject.kind,
          status: "pending",
          source_fact_ids: selection.sourceFactIds,
          created_at: ts,
          feedback: null,
          next_eligible_at: localIso(now + t.reflection_cooldown_minutes * 60_000),
          relation_type: valid.relation_type,
          temporal_scope: valid.temporal_scope,
          subject: null,
          event_when_raw: when,
          event_start_at: window.event_start_at,
          event_end_at:
            window.event_end_at ??
            (valid.temporal_scope === "state" || valid.temporal_scope === "episode" ? window.event_start_at : null),
          schema_version: 2,
          reinforcement: seed,
          disputation: 0,
          rein_last_signal_at: seed > 0 ? ts : null,
          disp_last_signal_at: null,
          sub_zero_days: 0,
          sub_zero_last_increment_date: null,
          user_fact_reinforce_count: 0,
          promote_attempt_count: 0,
          last_promote_attempt_at: null,
          recent_mentions: [],
          suppress: false,
          ...(subject === undefined ? {} : { status: "confirmed", confirmed_at: ts, auto_confirmed: true })
        }
        yield* commit(state, [reflectionLine(randomUUID(), { reflection }, ts), absorb])
        return reflection
      })

    /** The subject served last by `synthesizeScoped`, so that one busy subject cannot starve the others. */
    let lastServed = ""

    /** One synthesis for the next group-chat subject with a ready pool (one subject a tick, in turn, as N.E.K.O. does). */
    const synthesizeScoped = (state: ReflectionHost) =>
      Effect.gen(function* () {
        const ready = new Map<string, MemorySubject>()
        const counts = new Map<string, number>()
        for (const f of (yield* state.facts.load).all) {
          const s = f.absorbed || f.importance < 5 ? undefined : subjectOfRow(f)
          if (s === undefined) continue
          const marker = subjectMarker(s)
          ready.set(marker, s)
          counts.set(marker, (counts.get(marker) ?? 0) + 1)
        }
        const due = [...ready.keys()]
          .filter((m) => (counts.get(m) ?? 0) >= Math.max(1, t.min_facts_for_reflection))
          .sort()
        const next = due.find((m) => m > lastServed) ?? due[0]
        const subject = next === undefined ? undefined : ready.get(next)
        if (next === undefined || subject === undefined) return undefined
        lastServed = next
        return yield* synthesize(state, subject)
      })

    return { synthesize, synthesizeScoped }
  })
