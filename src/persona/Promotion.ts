/**
 * Promotion of confirmed reflections into persona (neko-compat §4.6). Score-driven (powerful memory ON):
 * the attempt is stamped first (30-minute backoff, 5 attempts → promote_blocked), then the promotion-merge
 * task decides: promote_fresh adds `prom_<id>` (a card collision denies, another collision queues a
 * correction and the reflection waits), merge_into rewrites the target entry (old text into
 * `version_history`, evidence per-side max, clocks reset, reflection id into `merged_from_ids`), reject
 * denies. Time-driven (OFF): a plain add. Only private reflections and private entries take part (group-chat
 * reflections go to ScopedPromotion.ts). Every outcome is an event of the reflection machine, applied and
 * journaled by ReflectionTransitions.ts (one state change with the whole record).
 */
import type { Language } from "../domain/Locale.js"
import { Clock, Effect, Either } from "effect"
import { randomUUID } from "node:crypto"
import type { ReflectionEvent } from "../../machines/reflection.js"
import { localIso } from "../domain/LocalTime.js"
import { PersonaTasks } from "./PersonaTasks.js"
import { Tokenizer } from "../llm/Tokenizer.js"
import { score } from "../reflection/evidence/Evidence.js"
import type { PersonaEntry } from "./Persona.js"
import type { Speakers } from "../domain/Speakers.js"
import type { Reflection } from "../reflection/Reflection.js"
import type { EventLine } from "../store/EventLog.js"
import type { Tunables } from "../Tunables.js"
import type { PersonaHost } from "./PersonaHost.js"
import { entryLine, PERSONA_ENTRY_UPDATED } from "./PersonaEvent.js"
import type * as PersonaKeeper from "./PersonaKeeper.js"
import { moveReflection } from "../reflection/ReflectionTransitions.js"
import { reflectionLine, REFLECTION_UPDATED } from "../reflection/ReflectionEvents.js"
import { isLegacyPrivate } from "../domain/Subject.js"

/** The persona section a reflection's entity belongs to. */
export const sectionOf = (entity: string): string =>
  entity === "master" || entity === "neko" || entity === "relationship" ? entity : "relationship"

export const make = (deps: {
  readonly tunables: Tunables
  readonly speakers: Effect.Effect<Speakers>
  readonly language: (state: PersonaHost) => Language
  readonly keeper: Effect.Effect.Success<ReturnType<typeof PersonaKeeper.make>>
}) =>
  Effect.gen(function* () {
    const tasks = yield* PersonaTasks
    const tokens = yield* Tokenizer
    const t = deps.tunables
    const { keeper } = deps

    /** Journals what the machine makes of `event` (with `extra` lines first); the reflection's new status. */
    const move = (
      state: PersonaHost,
      r: Reflection,
      event: ReflectionEvent,
      fields: Readonly<Record<string, unknown>> = {},
      extra: ReadonlyArray<EventLine> = []
    ) =>
      Effect.gen(function* () {
        const m = moveReflection(r, event, t, localIso(yield* Clock.currentTimeMillis), { fields })
        if (m.to === r.status) return r.status
        yield* state.journal([...extra, ...m.lines])
        return m.to
      })

    const addFresh = (state: PersonaHost, r: Reflection, source: string) =>
      Effect.gen(function* () {
        const persona = yield* keeper.ensure(state)
        const result = yield* keeper.add(state, persona, sectionOf(r.entity), {
          id: `prom_${r.id}`,
          text: r.text,
          source,
          sourceId: r.id
        })
        if (result._tag === "Added") return yield* move(state, r, { type: "promotion.fresh" })
        if (result._tag === "CardConflict") {
          return yield* move(state, r, {
            type: "promotion.rejected",
            reason: `rejected_by_persona_add:${result.cardId}`
          })
        }
        return r.status
      })

    /** Powerful memory OFF: confirmed for long enough → a plain persona add. */
    const timeDriven = (state: PersonaHost, r: Reflection) => addFresh(state, r, "reflection_time_driven")

    /** Powerful memory ON: one merge-on-promote attempt. */
    const scoreDriven = (state: PersonaHost, r: Reflection) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const ts = localIso(now)
        const attempted: Reflection = {
          ...r,
          promote_attempt_count: r.promote_attempt_count + 1,
          last_promote_attempt_at: ts
        }
        yield* state.journal([reflectionLine(randomUUID(), { reflection: attempted }, ts, REFLECTION_UPDATED)])
        const persona = yield* keeper.ensure(state)
        const section = sectionOf(r.entity)
        const pool: Array<PersonaEntry> = []
        let used = 0
        for (const e of (persona[section]?.facts ?? []).filter(isLegacyPrivate)) {
          const cost = tokens.count(e.text)
          if (e.text === "" || used + cost > t.persona_merge_pool_max_tokens) continue
          used += cost
          pool.push(e)
        }
        const answer = yield* Effect.either(
          tasks.promotionMerge({
            reflection: r.text,
            entries: pool.map((e) => ({
              id: e.id,
              text: e.text,
              protected: e.protected,
              score: score(e, now, t, e.protected)
            })),
            names: yield* deps.speakers,
            language: deps.language(state)
          })
        )
        if (Either.isLeft(answer)) {
          yield* Effect.logWarning("promotion merge failed; reflection stays confirmed").pipe(
            Effect.annotateLogs({ reason: answer.left.reason })
          )
          return attempted.status
        }
        const a = answer.right
        const current = (yield* state.reflections.load).find((x) => x.id === r.id)
        if (current === undefined || current.status !== "confirmed") return current?.status ?? "gone"
        if (a.action === "reject") {
          const reason = a.reason ?? "llm_merge_rejected"
          return yield* move(
            state,
            current,
            { type: "promotion.rejected", reason: "llm_merge_rejected" },
            { reject_reason: reason }
          )
        }
        const target = a.action === "merge_into" ? pool.find((e) => e.id === a.target_id && !e.protected) : undefined
        if (a.action === "merge_into" && target !== undefined && a.merged_text) {
          if (target.merged_from_ids.includes(r.id)) {
            return yield* move(state, current, { type: "promotion.merged", into: target.id })
          }
          const { version_history, ...snapshot } = target
          const merged: PersonaEntry = {
            ...target,
            text: a.merged_text,
            reinforcement: Math.max(target.reinforcement, current.reinforcement),
            disputation: Math.max(target.disputation, current.disputation),
            rein_last_signal_at: ts,
            disp_last_signal_at: ts,
            sub_zero_days: 0,
            merged_from_ids: [...target.merged_from_ids, r.id],
            version_history: [...version_history, { ...snapshot, replaced_at: ts }].slice(
              -t.persona_version_history_max
            )
          }
          return yield* move(state, current, { type: "promotion.merged", into: target.id }, {}, [
            entryLine(randomUUID(), PERSONA_ENTRY_UPDATED, section, merged, ts, { source: "promote_merge" })
          ])
        }
        return yield* addFresh(state, current, "reflection")
      })

    return { timeDriven, scoreDriven }
  })
