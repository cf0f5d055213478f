/**
 * Resolving queued persona corrections (neko-compat §4.7; powerful memory ON, post-turn and idle): at
 * most `persona_correction_batch_limit` items not dead-lettered by `correctionRetry` go to the correction task.
 * merge rewrites the old entry (its previous version into `version_history`), keep_new replaces it with
 * the new statement, keep_old drops the new one, keep_both appends it — each the action the persona machine
 * emits for `correction.resolved` on the corrected entry. A reflection waiting on the correction gets
 * `promotion.fresh` when its text (or a merge of it) lands and `promotion.rejected` on keep_old, applied and
 * journaled by ReflectionTransitions.ts. A correction stamped with a group-chat subject (from a promotion
 * into its `@subject/…` section) stamps the new entry the same way. Items the answer does not cover, and
 * whole batches that fail, count one attempt each.
 */
import type { Language } from "../domain/Locale.js"
import { Clock, Effect, Either } from "effect"
import { randomUUID } from "node:crypto"
import { localIso } from "../domain/LocalTime.js"
import { PersonaTasks } from "./PersonaTasks.js"
import { manualEntryId, newEntry, type Correction, type PersonaEntry } from "./Persona.js"
import { correctionsOf, correctionTarget } from "./PersonaState.js"
import type { Speakers } from "../domain/Speakers.js"
import { AppFiles } from "../store/AppFiles.js"
import type { EventLine } from "../store/EventLog.js"
import type { Tunables } from "../Tunables.js"
import { correctionRetry, exhausted } from "../maintenance/policies.js"
import type { PersonaHost } from "./PersonaHost.js"
import {
  attemptedLine,
  entryLine,
  PERSONA_ENTRY_UPDATED,
  PERSONA_FACT_ADDED,
  removedLine,
  resolvedLine
} from "./PersonaEvent.js"
import { movePersona } from "./PersonaTransitions.js"
import { subjectFields, subjectOfRow } from "../domain/Subject.js"
import { moveReflection } from "../reflection/ReflectionTransitions.js"
import { withFields } from "../domain/Shapes.js"

export const make = (deps: {
  readonly tunables: Tunables
  readonly speakers: Effect.Effect<Speakers>
  readonly language: (state: PersonaHost) => Language
}) =>
  Effect.gen(function* () {
    const tasks = yield* PersonaTasks
    const files = yield* AppFiles
    const t = deps.tunables

    const newFrom = (c: Correction, ts: string): PersonaEntry => {
      const subject = subjectOfRow(c)
      const entry = newEntry({
        id:
          c.new_source_id !== null && c.new_source.startsWith("reflection")
            ? `prom_${c.new_source_id}`
            : manualEntryId(ts, c.new_text),
        text: c.new_text,
        source: c.new_source,
        ...(c.new_source_id !== null ? { sourceId: c.new_source_id } : {}),
        createdAt: ts
      })
      return subject === undefined ? entry : withFields(entry, subjectFields(subject))
    }

    /** Resolves one batch; returns how many corrections were resolved. */
    const resolve = (state: PersonaHost) =>
      Effect.gen(function* () {
        if (!state.exists() || !(yield* files.core).powerful_memory_enabled) return 0
        const batch = (yield* state.persona.loadCorrections)
          .filter((c) => !exhausted(correctionRetry(t), c.resolve_attempts))
          .slice(0, t.persona_correction_batch_limit)
        if (batch.length === 0) return 0
        const ts = localIso(yield* Clock.currentTimeMillis)
        const attempt = (items: ReadonlyArray<Correction>) =>
          items.length === 0
            ? []
            : [
                attemptedLine(
                  randomUUID(),
                  Object.fromEntries(items.map((c) => [c.correction_id, c.resolve_attempts + 1])),
                  ts
                )
              ]
        const answer = yield* Effect.either(
          tasks.resolveCorrections({
            pairs: batch.map((c) => ({ old: c.old_text, new: c.new_text })),
            names: yield* deps.speakers,
            language: deps.language(state)
          })
        )
        if (Either.isLeft(answer)) {
          yield* state.journal(attempt(batch))
          return 0
        }
        const persona = yield* state.persona.load
        const reflections = yield* state.reflections.loadAll
        const queue = yield* state.persona.loadCorrections
        const lines: Array<EventLine> = []
        const done = new Set<string>()
        for (const item of answer.right) {
          const c = batch[item.index]
          if (c === undefined || done.has(c.correction_id)) continue
          done.add(c.correction_id)
          const section = c.entity
          const entries = persona[section]?.facts ?? []
          const old = correctionTarget(c, entries)
          const fresh = newFrom(c, ts)
          const queued = old === undefined ? [c] : correctionsOf(old, section, entries, queue)
          const event = {
            type: "correction.resolved",
            action: item.action,
            ...(item.text ? { text: item.text } : {}),
            othersQueued: queued.filter((q) => q.correction_id !== c.correction_id && !done.has(q.correction_id)).length
          } as const
          const { commands } = movePersona(section, old ?? fresh, old === undefined ? [c] : queued, event, t, ts, {
            source: "correction"
          })
          for (const command of commands) {
            if (command.type === "rewrite" && old !== undefined && command.params.text !== "") {
              const { version_history, ...snapshot } = old
              const rewritten: PersonaEntry = {
                ...old,
                text: command.params.text,
                version_history: [...version_history, { ...snapshot, replaced_at: ts }].slice(
                  -t.persona_version_history_max
                )
              }
              lines.push(
                entryLine(randomUUID(), PERSONA_ENTRY_UPDATED, section, rewritten, ts, { source: "correction_merge" })
              )
            } else if (
              command.type === "replaceWithNew" ||
              command.type === "appendNew" ||
              (command.type === "rewrite" && old === undefined)
            ) {
              if (command.type === "replaceWithNew" && old !== undefined && !old.protected) {
                lines.push(removedLine(randomUUID(), section, old.id, "correction_keep_new", ts))
              }
              lines.push(entryLine(randomUUID(), PERSONA_FACT_ADDED, section, fresh, ts, { source: c.new_source }))
            }
          }
          const waiting = reflections.find((r) => r.id === c.new_source_id)
          if (waiting !== undefined) {
            const finished =
              item.action !== "keep_old"
                ? ({ type: "promotion.fresh" } as const)
                : ({ type: "promotion.rejected", reason: "correction_keep_old" } as const)
            lines.push(...moveReflection(waiting, finished, t, ts).lines)
          }
        }
        lines.push(resolvedLine(randomUUID(), [...done], "resolved", ts))
        lines.push(...attempt(batch.filter((c) => !done.has(c.correction_id))))
        yield* state.journal(lines)
        return done.size
      })

    return { resolve }
  })
