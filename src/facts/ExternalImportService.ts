/**
 * The external Markdown import inside a character actor (neko-compat §1.6), run on the background lane.
 * Persona candidates go to the persona fusion, one entity at a time; `MEMORY.md` facts are appended (exact
 * duplicates skipped, no semantic dedup); each journal day runs through the fact-extraction task (the
 * `local` provider included) unless its fingerprint is already carried by a fact (`day_fingerprint`) or by
 * `external_import_state.json` (fact-less days), at most 45 new days per call; the candidates of a skipped day
 * count as duplicates (N.E.K.O. counts only persona and `MEMORY.md` ones). A stop after some writes
 * answers `partial` (500) or `too_large` (413) with what was added; a retry adds only what is missing.
 */
import { Clock, Effect, Either, Option, Schema } from "effect"
import { randomUUID } from "node:crypto"
import type { Language } from "../domain/Locale.js"
import { localIso } from "../domain/LocalTime.js"
import type { Speakers } from "../domain/Speakers.js"
import { FactTasks } from "./FactTasks.js"
import type { EventLine } from "../store/EventLog.js"
import type { FactsHost } from "./FactsHost.js"
import { dayFingerprint, importedFact, MAX_NEW_DAYS, type Candidate, type ImportOutcome } from "./ExternalImport.js"
import type { ImportRequest } from "./ExternalImport.js"
import * as ImportState from "./ExternalImportState.js"
import type { Fact } from "./Fact.js"
import { factLine, FACT_ADDED } from "./FactEvents.js"

const DayMeta = Schema.Struct({ day_fingerprint: Schema.String })
const decodeDay = Schema.decodeUnknownOption(DayMeta)

class Stop {
  constructor(
    readonly status: "too_large" | "partial",
    readonly detail: string
  ) {}
}

export const make = <S extends FactsHost>(deps: {
  readonly speakers: Effect.Effect<Speakers>
  readonly language: (state: S) => Language
  readonly fusePersona: (
    state: S,
    entity: string,
    candidates: ReadonlyArray<Candidate>,
    format: string
  ) => Effect.Effect<{ readonly added: number; readonly skipped: number }, { readonly message: string }>
}) =>
  Effect.gen(function* () {
    const tasks = yield* FactTasks

    /** Journals the facts whose hash is not stored yet; answers how many were added. */
    const append = (state: S, facts: ReadonlyArray<Fact>) =>
      Effect.gen(function* () {
        const { byHash } = yield* state.facts.load
        const seen = new Set<string>()
        const fresh = facts.filter((f) => !byHash.has(f.hash) && !seen.has(f.hash) && seen.add(f.hash))
        if (fresh.length === 0) return 0
        const ts = fresh[0]?.created_at ?? ""
        const lines: Array<EventLine> = fresh.map((f) => factLine(randomUUID(), FACT_ADDED, f, ts))
        yield* state.ensureDir
        yield* state.journal(lines)
        return fresh.length
      })

    const daily = (state: S, format: string, candidates: ReadonlyArray<Candidate>) =>
      Effect.gen(function* () {
        const sidecar = ImportState.make(state.dir)
        const recorded = yield* sidecar.days
        const carried = new Set(
          (yield* state.facts.load).facts.flatMap((f) =>
            Option.toArray(Option.map(decodeDay(f["external_import"]), (m) => m.day_fingerprint))
          )
        )
        const stale = [...recorded].filter((fp) => carried.has(fp))
        if (stale.length > 0) yield* Effect.ignoreLogged(sidecar.update([], stale))
        const byFile = new Map<string, Array<Candidate>>()
        for (const c of candidates) byFile.set(c.source_file, [...(byFile.get(c.source_file) ?? []), c])
        const days = [...byFile].map(([file, group]) => {
          const date = group.find((g) => g.event_date !== null)?.event_date ?? ""
          const texts = group.map((g) => g.text.trim()).filter((t) => t !== "")
          return { file, date, texts, fp: dayFingerprint(date, texts) }
        })
        const pending = days.filter((d) => !recorded.has(d.fp) && !carried.has(d.fp))
        if (pending.length > MAX_NEW_DAYS) {
          return yield* Effect.fail(
            new Stop(
              "too_large",
              `daily import has ${pending.length} new journal days (cap ${MAX_NEW_DAYS}); split the workspace`
            )
          )
        }
        const names = yield* deps.speakers
        let added = 0
        let failed = 0
        for (const day of pending) {
          const extracted = yield* Effect.either(
            tasks.extractFacts({
              utterances: day.texts.map((text) => ({ speaker: "human" as const, text })),
              language: deps.language(state),
              names
            })
          )
          if (Either.isLeft(extracted)) {
            failed++
            yield* Effect.logWarning("external daily extraction failed; the day is left for a retry").pipe(
              Effect.annotateLogs({ reason: extracted.left.reason })
            )
            continue
          }
          if (extracted.right.length === 0) {
            yield* Effect.ignoreLogged(state.ensureDir.pipe(Effect.zipRight(sidecar.update([day.fp], []))))
            continue
          }
          const created = localIso(yield* Clock.currentTimeMillis)
          const facts = extracted.right.map((e) =>
            importedFact({
              text: e.text.trim(),
              importance: e.importance,
              entity: e.entity,
              source: e.source,
              created,
              date: day.date,
              provenance: {
                format,
                file: day.file,
                section: "daily",
                event_date: day.date,
                imported_at: created,
                day_fingerprint: day.fp
              }
            })
          )
          const result = yield* Effect.either(
            append(
              state,
              facts.filter((f) => f.text !== "")
            )
          )
          if (Either.isLeft(result)) {
            failed++
            continue
          }
          added += result.right
          yield* Effect.ignoreLogged(sidecar.update([], [day.fp]))
        }
        const skipped = days.filter((d) => !pending.includes(d)).reduce((n, d) => n + d.texts.length, 0)
        return { added, failed, skipped }
      })

    const run = (state: S, request: ImportRequest): Effect.Effect<ImportOutcome> => {
      const done = { persona: 0, facts: 0, skipped: 0 }
      const outcome = (status: ImportOutcome["status"], detail: string): ImportOutcome => ({
        status,
        detail,
        added_persona: done.persona,
        added_facts: done.facts,
        skipped_duplicates: done.skipped
      })
      const partial = "External memory import was only partially completed"
      return Effect.gen(function* () {
        const persona = new Map<string, Array<Candidate>>()
        const plain: Array<Candidate> = []
        const journal: Array<Candidate> = []
        for (const c of request.candidates) {
          if (c.target === "persona") persona.set(c.entity, [...(persona.get(c.entity) ?? []), c])
          else if (c.event_date) journal.push(c)
          else plain.push(c)
        }
        let fusionFailed = false
        for (const [entity, group] of persona) {
          const r = yield* Effect.either(deps.fusePersona(state, entity, group, request.source_format))
          if (Either.isRight(r)) {
            done.persona += r.right.added
            done.skipped += r.right.skipped
          } else {
            fusionFailed = true
            yield* Effect.logError("external import: persona fusion failed").pipe(
              Effect.annotateLogs({ entity, error: r.left.message })
            )
          }
        }
        if (fusionFailed) return yield* Effect.fail(new Stop("partial", partial))
        const created = localIso(yield* Clock.currentTimeMillis)
        const facts = plain.map((c) =>
          importedFact({
            text: c.text.trim(),
            importance: 7,
            entity: c.entity,
            source: "user_observation",
            created,
            date: null,
            provenance: {
              format: request.source_format,
              file: c.source_file,
              section: c.source_section,
              event_date: c.event_date,
              imported_at: created
            }
          })
        )
        const appended = yield* Effect.mapError(append(state, facts), () => new Stop("partial", partial))
        done.facts += appended
        done.skipped += plain.length - appended
        if (journal.length > 0) {
          const days = yield* daily(state, request.source_format, journal).pipe(
            Effect.catchAll((e) => Effect.fail(e instanceof Stop ? e : new Stop("partial", partial)))
          )
          done.facts += days.added
          done.skipped += days.skipped
          if (days.failed > 0) {
            return yield* Effect.fail(
              new Stop("partial", `${days.failed} daily journal(s) failed extraction; retry to finish`)
            )
          }
        }
        return outcome("success", "")
      }).pipe(Effect.catchAll((stop) => Effect.succeed(outcome(stop.status, stop.detail))))
    }

    return { run }
  })
