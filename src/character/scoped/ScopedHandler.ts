/**
 * The group-chat commands inside a character's mailbox (scoped/ScopedCommands.ts): writes of facts to
 * subjects (near duplicates looked for within each subject, with the subjects' rows in `scoped_subjects.json`
 * and their languages in `scoped_prompt_locales.json`), the `scoped_context` render over the views (a
 * subject's language read from `scoped_prompt_locales.json` first, then `scoped_subjects.json`), the mention
 * counters of `scoped_mentions`, owner trust signals (scoped/OwnerSignalsWrite.ts), and `scoped_forget`
 * (ScopedForget.ts).
 */
import { Clock, Deferred, Effect, Option } from "effect"
import { normaliseLanguage, type Language } from "../../domain/Locale.js"
import type { Speakers } from "../../domain/Speakers.js"
import { StoreError } from "../../store/DurableFs.js"
import { subjectMarker, type MemorySubject } from "../../domain/Subject.js"
import type { PersonaHost } from "../../persona/PersonaHost.js"
import { renderContext } from "../../scoped/ScopedContext.js"
import type { ScopedCommand } from "../../scoped/ScopedCommands.js"
import * as SubjectLocales from "../../scoped/SubjectLocales.js"
import * as SubjectNames from "../../scoped/SubjectNames.js"
import { recordOwnerSignals } from "../../scoped/OwnerSignalsWrite.js"
import { persist, type ScopedDedup } from "../../scoped/ScopedWrite.js"
import type { Tunables } from "../../Tunables.js"
import type * as State from "../CharacterState.js"
import { forgetSubject } from "./ScopedForget.js"

const storeFailure = (e: unknown): StoreError =>
  e instanceof StoreError
    ? e
    : new StoreError({
        op: "scoped",
        file: typeof e === "object" && e !== null && "file" in e && typeof e.file === "string" ? e.file : "",
        message: e instanceof Error ? e.message : "scoped memory failed"
      })

export const make = (deps: {
  readonly tunables: Tunables
  readonly speakers: Effect.Effect<Speakers>
  readonly count: (text: string) => number
  readonly trackMentions: (
    state: PersonaHost,
    replies: ReadonlyArray<string>,
    subjects?: ReadonlyArray<MemorySubject>
  ) => Effect.Effect<number, unknown>
  /** Near-duplicate detection within a subject (the private facts' own, facts/FactDedup.ts). */
  readonly dedup?: ScopedDedup | undefined
}) => {
  const handle = (state: State.CharacterState, c: ScopedCommand) =>
    Effect.gen(function* () {
      switch (c._tag) {
        case "ScopedWrite": {
          const work = Effect.gen(function* () {
            yield* state.ensureDir
            const out = yield* Effect.forEach(c.writes, (w) =>
              persist(state, w.subject, w.candidates, w.provenance, deps.dedup)
            )
            yield* Effect.ignoreLogged(SubjectNames.make(state.dir).touch(c.writes))
            yield* Effect.ignoreLogged(SubjectLocales.make(state.dir).record(c.writes))
            return out
          })
          return yield* Deferred.complete(c.reply, work.pipe(Effect.mapError(storeFailure)))
        }
        case "ScopedContext": {
          const work = Effect.gen(function* () {
            if (!state.exists()) return ""
            const names = SubjectNames.make(state.dir)
            const none = () => new Map<string, Language>()
            const locales = yield* Effect.orElseSucceed(SubjectLocales.make(state.dir).languages, none)
            const remembered = yield* Effect.orElseSucceed(names.languages, none)
            const first = c.subjects
              .map((s) => locales.get(subjectMarker(s)) ?? remembered.get(subjectMarker(s)))
              .find((l) => l !== undefined)
            const language =
              c.language ??
              first ??
              Option.getOrUndefined(state.locale) ??
              normaliseLanguage(deps.tunables.default_language) ??
              "en"
            return renderContext({
              subjects: c.subjects,
              persona: yield* state.persona.load,
              reflections: yield* state.reflections.loadAll,
              displayNames: yield* Effect.orElseSucceed(names.names, () => new Map()),
              language,
              names: yield* deps.speakers,
              nowMillis: yield* Clock.currentTimeMillis,
              tunables: deps.tunables,
              count: deps.count
            })
          })
          return yield* Deferred.complete(c.reply, work.pipe(Effect.mapError(storeFailure)))
        }
        case "ScopedMentions": {
          const work = state.exists() ? Effect.asVoid(deps.trackMentions(state, [c.text], c.subjects)) : Effect.void
          return yield* Deferred.complete(c.reply, work.pipe(Effect.mapError(storeFailure)))
        }
        case "ScopedTrustSignals": {
          const work = state.exists() ? recordOwnerSignals(state, c.jobs) : Effect.succeed(c.jobs.map(() => []))
          return yield* Deferred.complete(c.reply, work.pipe(Effect.mapError(storeFailure)))
        }
        case "ScopedForget":
          return yield* Deferred.complete(c.reply, forgetSubject(state, c.subject).pipe(Effect.mapError(storeFailure)))
      }
    })
  return { handle }
}
