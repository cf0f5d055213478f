/**
 * `scoped_forget` (neko-compat §1.7, and beyond N.E.K.O.): every memory of one exact (subject, scope) goes,
 * text included. Inside the character's mailbox, in this order: the subject's pending dedup pairs (queued
 * under its key and scope, or naming one of its facts; their number is the answer's `pending_dedup`); its
 * facts (active and archived, and the facts merged into them) through the fact forget of Forget.ts; its
 * reflections (active and archived) through `reflection.forgotten`, their journal lines tombstoned, their
 * vector rows and `surfaced.json` rows removed; its persona entries (the `@subject/…` section and any entry
 * stamped with the subject) through the persona forget, which also drops the queued corrections quoting
 * them; then its row of `scoped_prompt_locales.json` (the answer's `prompt_locale`, 0 or 1) and of
 * `scoped_subjects.json`. Legacy-private rows and other scopes are never touched. Each step is idempotent and
 * crash-safe (a replay at load completes a journaled forget again), so a failure is a 500 that is safe to
 * retry, and a second call reports zeros.
 */
import { Clock, Effect, Either, Option } from "effect"
import { randomUUID } from "node:crypto"
import { localIso } from "../../domain/LocalTime.js"
import { personaSectionKey, stampedWith, subjectKey, subjectOfRow, type MemorySubject } from "../../domain/Subject.js"
import * as DedupQueue from "../../facts/DedupQueue.js"
import { StoreError } from "../../store/DurableFs.js"
import { surfacedView } from "../../reflection/Surfacing.js"
import { carriedReflections, redactReflectionLine } from "../../reflection/ReflectionRedaction.js"
import {
  decodeReflectionForgotten,
  REFLECTION_FORGOTTEN,
  reflectionForgottenLine
} from "../../reflection/ReflectionEvents.js"
import type { ReflectionHost } from "../../reflection/ReflectionHost.js"
import type { ScopedForgetStats } from "../../scoped/ScopedCommands.js"
import * as SubjectLocales from "../../scoped/SubjectLocales.js"
import * as SubjectNames from "../../scoped/SubjectNames.js"
import type { EventLine } from "../../store/EventLog.js"
import { erase, forgetFacts, journalForget, type ForgetHost } from "../Forget.js"
import { forgetPersonaEntries } from "../PersonaForget.js"

const REASON = "scoped_forget"

/** Tombstones, vector rows and surfaced rows of forgotten reflections `ids`, then the checkpoint. */
const completeReflections = (state: ForgetHost & ReflectionHost, ids: ReadonlySet<string>, at: string) =>
  Effect.gen(function* () {
    const texts = carriedReflections(yield* state.events.all, ids).map((r) => r.text)
    yield* erase(state, "reflection", ids, redactReflectionLine(ids, REASON, at), texts)
    const view = surfacedView(state)
    const rows = Option.getOrElse(yield* view.read, () => [])
    const kept = rows.filter((r) => !ids.has(r.reflection_id))
    if (kept.length !== rows.length) yield* view.write(kept)
    yield* state.checkpoint
    return rows.length - kept.length
  })

/** Completes again the reflection forgets a replay applied (a crash came before their checkpoint). */
export const completeAtLoad = (state: ForgetHost & ReflectionHost, replayed: ReadonlyArray<EventLine>) =>
  Effect.forEach(
    replayed.flatMap((l) =>
      l.type === REFLECTION_FORGOTTEN ? Option.toArray(Either.getRight(decodeReflectionForgotten(l.payload))) : []
    ),
    (p) =>
      Effect.flatMap(Clock.currentTimeMillis, (ms) =>
        completeReflections(state, new Set(p.reflection_ids), localIso(ms))
      ),
    { discard: true }
  )

export const forgetSubject = (state: ForgetHost & ReflectionHost, subject: MemorySubject) =>
  Effect.gen(function* () {
    const mine = stampedWith([subject])
    const active = (yield* state.facts.load).all.filter(mine)
    const archived = (yield* state.archive.all).filter(mine)
    const factIds = [...active, ...archived].map((f) => f.id)
    const pendingDedup = yield* DedupQueue.make(state.dir)
      .forgetSubject(subjectKey(subject), subject.scope, new Set(factIds))
      .pipe(Effect.mapError((e) => new StoreError({ op: "scoped_forget", file: state.dir, message: e.message })))
    if (factIds.length > 0) yield* forgetFacts(state, factIds, REASON)

    const reflections = [
      ...(yield* state.reflections.loadAll).filter(mine),
      ...(yield* state.reflections.archive.all).filter(mine)
    ]
    const reflectionIds = new Set(reflections.map((r) => r.id))
    let surfaced = 0
    if (reflectionIds.size > 0) {
      const at = localIso(yield* Clock.currentTimeMillis)
      yield* journalForget(
        state,
        reflectionForgottenLine(randomUUID(), { reflection_ids: [...reflectionIds], reason: REASON }, at)
      )
      surfaced = yield* completeReflections(state, reflectionIds, at)
    }

    const section = personaSectionKey(subject)
    const persona = yield* state.persona.load
    const entries = Object.entries(persona).flatMap(([key, s]) =>
      s.facts.filter((e) => (key === section && subjectOfRow(e) === undefined) || mine(e))
    )
    const dropped = section in persona
    const corrections =
      entries.length > 0 || dropped ? yield* forgetPersonaEntries(state, entries, REASON, dropped ? [section] : []) : 0
    const locale = yield* SubjectLocales.make(state.dir).forget(subject)
    const names = yield* SubjectNames.make(state.dir).forget(subject)
    const stats: ScopedForgetStats = {
      pending_dedup: pendingDedup,
      prompt_locale: locale,
      facts: active.length,
      facts_archive: archived.length,
      reflections: reflectionIds.size,
      surfaced,
      persona_entries: entries.length,
      persona_section_dropped: dropped,
      corrections,
      display_name: names
    }
    yield* Effect.logInfo("subject forgotten").pipe(
      Effect.annotateLogs({ facts: factIds.length, reflections: reflectionIds.size, persona: entries.length })
    )
    return stats
  })
