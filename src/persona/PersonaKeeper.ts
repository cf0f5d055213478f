/**
 * A character's persona as the actor keeps it (neko-compat §4.5, §4.7, §4.8): character-card sync and
 * the one-shot evidence migration before every read, adds with the contradiction check (the overlapping entry
 * gets `contradicted`: its machine rejects a card line's contradiction, or queues a correction), mention
 * tracking and suppression after each reply, lifting expired suppressions (group-chat reflections' too) before
 * each render. Every state change is an event of the persona or reflection machine, applied and journaled with
 * the whole record by PersonaTransitions.ts / ReflectionTransitions.ts.
 */
import { Clock, Effect } from "effect"
import { randomUUID } from "node:crypto"
import type { CharacterName } from "../domain/CharacterName.js"
import { localIso, parseLocal } from "../domain/LocalTime.js"
import { keywords, overlap } from "./local/LocalOverlap.js"
import { mentionedIn } from "./MentionIndex.js"
import type { Speakers } from "../domain/Speakers.js"
import { syncCard } from "./CardSync.js"
import { entriesOf, META, newEntry, type Correction, type PersonaEntry, type PersonaFile } from "./Persona.js"
import { correctionsOf } from "./PersonaState.js"
import type { Reflection } from "../reflection/Reflection.js"
import { AppFiles } from "../store/AppFiles.js"
import type { EventLine } from "../store/EventLog.js"
import type { Tunables } from "../Tunables.js"
import type { PersonaHost } from "./PersonaHost.js"
import {
  isLegacyPrivate,
  SCOPED_PERSONA_PREFIX,
  stampedWith,
  subjectFields,
  subjectOfRow,
  type MemorySubject,
  type SubjectFields
} from "../domain/Subject.js"
import * as LegacySettings from "./LegacySettings.js"
import { cardLine, entryLine, PERSONA_FACT_ADDED, queuedLine } from "./PersonaEvent.js"
import { movePersona } from "./PersonaTransitions.js"
import { moveReflection } from "../reflection/ReflectionTransitions.js"
import { reflectionLine, REFLECTION_UPDATED } from "../reflection/ReflectionEvents.js"
import { withFields } from "../domain/Shapes.js"

const HOUR = 3_600_000
const MIGRATION_MARKER = "__evidence_migration_v1__"

export type AddResult =
  | { readonly _tag: "Added"; readonly entry: PersonaEntry }
  | { readonly _tag: "CardConflict"; readonly cardId: string }
  | { readonly _tag: "Queued"; readonly correctionId: string }

export const make = (deps: {
  readonly name: CharacterName
  readonly tunables: Tunables
  readonly speakers: Effect.Effect<Speakers>
}) =>
  Effect.gen(function* () {
    const files = yield* AppFiles
    const t = deps.tunables
    const names = Effect.map(deps.speakers, (s) => [s.character, s.master])

    /** The persona and the lines that would sync its card lines (and migrate it) before a read. */
    const ensureLines = (state: PersonaHost) =>
      Effect.gen(function* () {
        const directory = yield* files.characters
        const persona = yield* state.persona.load
        const lines: Array<EventLine> = []
        if (!state.exists() && !directory.characters.includes(deps.name)) return { persona, lines }
        const ts = localIso(yield* Clock.currentTimeMillis)
        const cards = [
          ["neko", directory.cards[deps.name]],
          ["master", directory.masterCard]
        ] as const
        for (const [section, card] of cards) {
          if (card === undefined) continue
          const next = syncCard(section, persona[section]?.facts ?? [], card, ts)
          if (next !== undefined) lines.push(cardLine(randomUUID(), section, next, ts))
        }
        const empty = Object.entries(persona).every(
          ([section, s]) => section === META || s.facts.every((entry) => entry.text === "")
        )
        if (empty && state.exists()) {
          const legacy = yield* LegacySettings.entries(state.dir, yield* deps.speakers)
          lines.push(
            ...legacy.map(({ section, id, text }) =>
              entryLine(
                randomUUID(),
                PERSONA_FACT_ADDED,
                section,
                newEntry({ id, text, source: "settings", createdAt: ts }),
                ts,
                {
                  source: "settings"
                }
              )
            )
          )
        }
        if (state.exists() && !(persona[META]?.facts ?? []).some((e) => e.id === MIGRATION_MARKER)) {
          lines.push(...(yield* evidenceMigration(state, ts)))
        }
        return { persona, lines }
      })

    /** Syncs the character-card lines, then returns the persona. */
    const ensure = (state: PersonaHost) =>
      Effect.gen(function* () {
        const { persona, lines } = yield* ensureLines(state)
        if (lines.length === 0) return persona
        const journaled = yield* Effect.either(state.ensureDir.pipe(Effect.zipRight(state.journal(lines))))
        if (journaled._tag === "Left") {
          yield* Effect.logError("persona ensure not journaled; persona used as it is").pipe(
            Effect.annotateLogs({ error: journaled.left.message })
          )
          return persona
        }
        return yield* state.persona.load
      })

    /**
     * The one-shot evidence migration (§4.5): reflections that never had evidence are seeded by status
     * (promoted 2/0, confirmed 1/0, denied 0/2), then the `__meta__` marker is added.
     */
    const evidenceMigration = (state: PersonaHost, ts: string) =>
      Effect.gen(function* () {
        const seeds: Readonly<Record<string, { readonly reinforcement: number; readonly disputation: number }>> = {
          promoted: { reinforcement: 2, disputation: 0 },
          confirmed: { reinforcement: 1, disputation: 0 },
          denied: { reinforcement: 0, disputation: 2 }
        }
        const lines: Array<EventLine> = []
        for (const r of yield* state.reflections.load) {
          const seed = seeds[r.status]
          const untouched =
            r.reinforcement === 0 &&
            r.disputation === 0 &&
            r.rein_last_signal_at === null &&
            r.disp_last_signal_at === null
          if (seed === undefined || !untouched) continue
          const seeded: Reflection = {
            ...r,
            ...seed,
            rein_last_signal_at: seed.reinforcement !== 0 ? ts : null,
            disp_last_signal_at: seed.disputation !== 0 ? ts : null
          }
          lines.push(reflectionLine(randomUUID(), { reflection: seeded }, ts, REFLECTION_UPDATED))
        }
        const marker = newEntry({ id: MIGRATION_MARKER, text: "", source: "migration", createdAt: ts, protected: true })
        lines.push(entryLine(randomUUID(), PERSONA_FACT_ADDED, META, marker, ts, { source: "migration_seed" }))
        return lines
      })

    /**
     * Adds `text` to `section` unless it may contradict an entry there (keyword overlap of at least
     * `contradiction_overlap_ratio`): that entry's machine gets `contradicted` — a card line rejects the
     * statement, another entry has a correction queued (not twice for the same pair; a suppression is lifted
     * meanwhile). Only private entries are compared, or with `subject` (a group-chat promotion into its
     * `@subject/…` section) only that subject's, and then every character-card line rejects and the entry, the
     * correction and the section carry the subject's stamp. Journals the result.
     */
    const add = (
      state: PersonaHost,
      persona: PersonaFile,
      section: string,
      fields: { readonly id: string; readonly text: string; readonly source: string; readonly sourceId?: string },
      subject?: MemorySubject
    ) =>
      Effect.gen(function* () {
        const ts = localIso(yield* Clock.currentTimeMillis)
        const nameList = yield* names
        const mine = keywords(fields.text, nameList)
        const clashes = (e: PersonaEntry) =>
          e.text !== "" && overlap(mine, keywords(e.text, nameList)) >= t.contradiction_overlap_ratio
        const existing = persona[section]?.facts ?? []
        const already = existing.find((e) => e.id === fields.id)
        if (already) return { _tag: "Added", entry: already } satisfies AddResult
        const stamp: Partial<SubjectFields> = subject === undefined ? {} : subjectFields(subject)
        if (subject !== undefined) {
          const card = entriesOf(persona).find(({ entry }) => entry.source === "character_card" && clashes(entry))
          if (card) return { _tag: "CardConflict", cardId: card.entry.id } satisfies AddResult
        }
        const hit = existing.filter(subject === undefined ? isLegacyPrivate : stampedWith([subject])).find(clashes)
        if (hit) {
          const queue = yield* state.persona.loadCorrections
          const same = queue.find(
            (c) =>
              c.old_text === hit.text &&
              c.new_text === fields.text &&
              c.entity === section &&
              c["scope"] === stamp.scope
          )
          if (same) return { _tag: "Queued", correctionId: same.correction_id } satisfies AddResult
          const correction: Correction = {
            correction_id: randomUUID().replace(/-/g, ""),
            old_text: hit.text,
            new_text: fields.text,
            entity: section,
            created_at: ts,
            resolve_attempts: 0,
            old_id: hit.id,
            new_source: fields.source,
            new_source_id: fields.sourceId ?? null,
            ...stamp
          }
          const move = movePersona(
            section,
            hit,
            correctionsOf(hit, section, existing, queue),
            { type: "contradicted", correctionId: correction.correction_id },
            t,
            ts,
            { source: "contradiction" }
          )
          if (move.commands.some((c) => c.type === "rejectNew"))
            return { _tag: "CardConflict", cardId: hit.id } satisfies AddResult
          if (!move.commands.some((c) => c.type === "queueCorrection"))
            return { _tag: "Added", entry: hit } satisfies AddResult
          yield* state.journal([...move.lines, queuedLine(randomUUID(), correction, ts)])
          return { _tag: "Queued", correctionId: correction.correction_id } satisfies AddResult
        }
        const entry: PersonaEntry = { ...newEntry({ ...fields, createdAt: ts }), ...stamp }
        const sectionFields = subject === undefined ? {} : { section_fields: { ...stamp, entity: subject.kind } }
        yield* state.journal([
          entryLine(randomUUID(), PERSONA_FACT_ADDED, section, entry, ts, { source: fields.source, ...sectionFields })
        ])
        return { _tag: "Added", entry } satisfies AddResult
      })

    /**
     * After an AI reply: every non-protected persona entry and every confirmed reflection whose keywords
     * occur in the reply is mentioned; more than `suppress_mention_limit` mentions within the window
     * suppress it. Only the private entries count, or with `subjects` only those subjects' entries
     * (`scoped_mentions`). Returns how many records changed.
     */
    const trackMentions = (
      state: PersonaHost,
      replies: ReadonlyArray<string>,
      subjects?: ReadonlyArray<MemorySubject>
    ) =>
      Effect.gen(function* () {
        const text = replies.join("\n").toLowerCase()
        if (text.trim() === "" || !state.exists()) return 0
        const now = yield* Clock.currentTimeMillis
        const ts = localIso(now)
        const nameList = yield* names
        const windowStart = now - t.suppress_window_hours * HOUR
        const recent = (list: ReadonlyArray<string>) => [
          ...list.filter((iso) => (parseLocal(iso) ?? 0) >= windowStart),
          ts
        ]
        const lines: Array<EventLine> = []
        const persona = yield* state.persona.load
        const queue = yield* state.persona.loadCorrections
        const inScope = subjects === undefined ? isLegacyPrivate : stampedWith(subjects)
        for (const m of mentionedIn(persona, yield* state.reflections.loadAll, nameList, text)) {
          if (m.kind === "persona") {
            const { section, entry: e } = m
            if ((subjects === undefined && section.startsWith(SCOPED_PERSONA_PREFIX)) || !inScope(e)) continue
            const mentions = recent(e.recent_mentions)
            const move = movePersona(
              section,
              e,
              correctionsOf(e, section, m.facts, queue),
              { type: "mentioned", mentionsInWindow: mentions.length },
              t,
              ts,
              { base: withFields(e, { recent_mentions: mentions }), source: "mention", always: true }
            )
            lines.push(...move.lines)
            continue
          }
          const r = m.reflection
          if (!inScope(r)) continue
          const mentions = recent(r.recent_mentions)
          const base: Reflection = withFields(r, { recent_mentions: mentions })
          const move = moveReflection(
            r,
            { type: "mentioned", mentionsInWindow: mentions.length, suppressed: r.suppress },
            t,
            ts,
            { base }
          )
          lines.push(
            ...(move.lines.length > 0
              ? move.lines
              : [reflectionLine(randomUUID(), { reflection: base }, ts, REFLECTION_UPDATED)])
          )
        }
        yield* state.journal(lines)
        return lines.length
      })

    /** The lines that lift suppressions older than the cooldown (and clear their mentions). */
    const liftLines = (state: PersonaHost) =>
      Effect.gen(function* () {
        const lines: Array<EventLine> = []
        if (!state.exists()) return lines
        const now = yield* Clock.currentTimeMillis
        const ts = localIso(now)
        const hoursSince = (iso: unknown) => {
          const at = typeof iso === "string" ? parseLocal(iso) : undefined
          return at === undefined ? Number.POSITIVE_INFINITY : (now - at) / HOUR
        }
        const queue = yield* state.persona.loadCorrections
        for (const [section, s] of Object.entries(yield* state.persona.load)) {
          for (const e of s.facts) {
            if (!e.suppress) continue
            const event = { type: "cooldown.checked", hoursSinceSuppressed: hoursSince(e.suppressed_at) } as const
            const queued = correctionsOf(e, section, s.facts, queue)
            lines.push(...movePersona(section, e, queued, event, t, ts, { source: "cooldown" }).lines)
          }
        }
        for (const r of yield* state.reflections.loadAll) {
          if (!r.suppress || (subjectOfRow(r) === undefined && !isLegacyPrivate(r))) continue
          const event = {
            type: "cooldown.checked",
            hoursSinceSuppressed: hoursSince(r["suppressed_at"]),
            suppressed: r.suppress
          } as const
          lines.push(...moveReflection(r, event, t, ts).lines)
        }
        return lines
      })

    /** Before a render: suppressions older than the cooldown are lifted and their mentions cleared. */
    const liftSuppressions = (state: PersonaHost) =>
      Effect.flatMap(liftLines(state), (lines) => Effect.as(state.journal(lines), lines.length))

    /**
     * Whether a render would journal nothing (card in sync, migration done, no suppression due): then a
     * dialog can be rendered from the loaded views without the mailbox. Plans, writes nothing.
     */
    const settled = (state: PersonaHost) =>
      Effect.gen(function* () {
        if ((yield* liftLines(state)).length > 0) return false
        return (yield* ensureLines(state)).lines.length === 0
      })

    return { ensure, add, trackMentions, liftSuppressions, settled }
  })
