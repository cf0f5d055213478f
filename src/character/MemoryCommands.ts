/**
 * The reflection and persona side of a character actor: it assembles the lifecycle components (synthesis,
 * evaluation and promotion, the evidence sweep, surfacing, feedback, persona keeping) and answers their
 * commands and the external Markdown import, plus the post-turn work after each drained turn (feedback check,
 * negative-keyword hook, mention tracking, persona corrections), the rebuttal loop and correction resolution when idle. Reads of
 * persona (`/get_persona`, `/get_settings`, the persona block of `/new_dialog`) sync the character card
 * and lift expired suppressions first.
 */
import { Clock, Deferred, Effect, Option } from "effect"
import type { CharacterName } from "../domain/CharacterName.js"
import type { Language } from "../domain/Locale.js"
import { Tokenizer } from "../llm/Tokenizer.js"
import { countFunnel } from "./Funnel.js"
import { preparePersona, renderPrepared, type PreparedPersona } from "../persona/PersonaRender.js"
import { privateView, type PersonaFile } from "../persona/Persona.js"
import type { Reflection } from "../reflection/Reflection.js"
import { privateRows } from "../domain/Subject.js"
import type { Speakers } from "../domain/Speakers.js"
import { AppFiles } from "../store/AppFiles.js"
import { StoreError } from "../store/DurableFs.js"
import type { OutboxOp } from "../store/Outbox.js"
import type { Tunables } from "../Tunables.js"
import type { ActorDefect } from "../runtime/Actor.js"
import * as State from "./CharacterState.js"
import type { CharacterHost } from "../runtime/CharacterHost.js"
import type { Command } from "./Commands.js"
import * as Corrections from "../persona/Corrections.js"
import * as EvidenceSignals from "../reflection/evidence/EvidenceSignals.js"
import * as Rebuttal from "../reflection/evidence/Rebuttal.js"
import * as ManualActions from "./ManualActions.js"
import * as EntryEdit from "./EntryEdit.js"
import * as EvidenceSweep from "../reflection/evidence/EvidenceSweep.js"
import * as Feedback from "../reflection/Feedback.js"
import * as LegacySettings from "../persona/LegacySettings.js"
import * as PersonaKeeper from "../persona/PersonaKeeper.js"
import * as PersonaFusion from "../persona/PersonaFusion.js"
import * as ExternalImport from "../facts/ExternalImportService.js"
import * as Promotion from "../persona/Promotion.js"
import * as ScopedPromotion from "../persona/ScopedPromotion.js"
import * as ReflectionLifecycle from "../reflection/ReflectionLifecycle.js"
import * as ReflectionSynth from "../reflection/ReflectionSynth.js"
import * as Surfacing from "../reflection/Surfacing.js"

const decodeError = (e: { readonly _tag: string; readonly file?: string; readonly message: string }) =>
  e._tag === "StoreError" && e instanceof StoreError
    ? e
    : new StoreError({ op: "decode", file: e.file ?? "", message: e.message })

export const make = (deps: {
  readonly name: CharacterName
  readonly tunables: Tunables
  readonly speakers: Effect.Effect<Speakers>
  readonly language: (state: CharacterHost) => Language
}) =>
  Effect.gen(function* () {
    const t = deps.tunables
    const tokens = yield* Tokenizer
    const files = yield* AppFiles
    const keeper = yield* PersonaKeeper.make(deps)
    const promotion = yield* Promotion.make({ tunables: t, speakers: deps.speakers, language: deps.language, keeper })
    const scoped = ScopedPromotion.make({ tunables: t, keeper })
    const lifecycle = yield* ReflectionLifecycle.make({ tunables: t, promotion, scoped })
    const sweep = EvidenceSweep.make({ tunables: t })
    const synth = yield* ReflectionSynth.make({ tunables: t, speakers: deps.speakers, language: deps.language })
    const surfacing = Surfacing.make({ tunables: t })
    const feedback = yield* Feedback.make({
      tunables: t,
      speakers: deps.speakers,
      language: deps.language,
      afterwards: (state) => Effect.ignoreLogged(lifecycle.evaluate(state))
    })

    const signals = yield* EvidenceSignals.make({
      tunables: t,
      speakers: deps.speakers,
      language: deps.language,
      afterwards: (state) => Effect.ignoreLogged(lifecycle.evaluate(state))
    })

    const corrections = yield* Corrections.make({ tunables: t, speakers: deps.speakers, language: deps.language })
    const rebuttal = yield* Rebuttal.make({ tunables: t, speakers: deps.speakers, language: deps.language })
    const manual = ManualActions.make(t)
    const editor = EntryEdit.make(t)
    const fusion = yield* PersonaFusion.make({ ...deps, ensure: (state) => keeper.ensure(state) })
    const importer = yield* ExternalImport.make<State.CharacterState>({ ...deps, fusePersona: fusion.fuse })

    /** Token counts of rendered texts, memoised (the same entries render on every dialog). */
    const counts = new Map<string, number>()
    const count = (text: string) => {
      const known = counts.get(text)
      if (known !== undefined) return known
      if (counts.size >= 20_000) counts.clear()
      const n = tokens.count(text)
      counts.set(text, n)
      return n
    }

    /** The render inputs of a persona and (every row of) a reflections snapshot, kept while both stay the views. */
    const preparedBy = new WeakMap<PersonaFile, { reflections: ReadonlyArray<Reflection>; prepared: PreparedPersona }>()
    const prepared = (persona: PersonaFile, reflections: ReadonlyArray<Reflection>) => {
      const known = preparedBy.get(persona)
      if (known?.reflections === reflections) return known.prepared
      const fresh = preparePersona(
        privateView(persona),
        privateRows(reflections).filter((r) => r.status === "pending" || r.status === "confirmed"),
        count
      )
      preparedBy.set(persona, { reflections, prepared: fresh })
      return fresh
    }

    /**
     * The persona block for `lang`: card synced, expired suppressions lifted, budgets applied. `readOnly`
     * (beside the mailbox) syncs and lifts nothing: the caller has checked `personaSettled` first.
     */
    const personaBlock = (state: State.CharacterState, lang: Language, readOnly = false) =>
      Effect.gen(function* () {
        if (!readOnly) yield* Effect.ignoreLogged(keeper.liftSuppressions(state))
        const persona = readOnly ? yield* state.persona.load : yield* keeper.ensure(state)
        const rendered = renderPrepared(prepared(persona, yield* state.reflections.loadAll), {
          nowMillis: yield* Clock.currentTimeMillis,
          language: lang,
          names: yield* deps.speakers,
          tunables: t
        })
        return rendered !== "" ? rendered : yield* LegacySettings.render(state.dir, deps.name)
      }).pipe(
        Effect.catchTag("ViewDecodeError", (e) =>
          Effect.logError("persona or reflections unreadable; dialog rendered without them").pipe(
            Effect.annotateLogs({ file: e.file }),
            Effect.as("")
          )
        )
      )

    /** Post-turn work after drained `extract_facts` ops: feedback on surfaced reflections, mentions. */
    const afterTurns = (state: State.CharacterState, ops: ReadonlyArray<OutboxOp>) =>
      Effect.gen(function* () {
        const payloads = ops.map((op) => op.payload)
        const userTexts = feedback.userTexts(payloads)
        yield* Effect.ignoreLogged(feedback.check(state, userTexts))
        yield* Effect.ignoreLogged(signals.negativeHook(state, userTexts, deps.language(state)))
        yield* Effect.ignoreLogged(keeper.trackMentions(state, feedback.texts(payloads, "ai")))
        yield* Effect.ignoreLogged(corrections.resolve(state))
      })

    const evaluate = (state: State.CharacterState) => lifecycle.evaluate(state)

    /** Handles one of this module's commands; false when the command is not one of them. */
    const handle = (state: State.CharacterState, c: Command) =>
      Effect.gen(function* () {
        const answer = <A, E extends { readonly _tag: string; readonly message: string }>(
          reply: Deferred.Deferred<A, StoreError | ActorDefect>,
          work: Effect.Effect<A, E>
        ) =>
          Effect.either(work).pipe(
            Effect.flatMap((r) =>
              Deferred.complete(reply, r._tag === "Right" ? Effect.succeed(r.right) : Effect.fail(decodeError(r.left)))
            )
          )
        switch (c._tag) {
          case "Synthesize": {
            const added = yield* Effect.orElseSucceed(synth.synthesize(state), () => undefined)
            if (c.done) yield* Effect.ignoreLogged(synth.synthesizeScoped(state))
            if (c.reply) yield* Deferred.succeed(c.reply, Option.fromNullable(added))
            if (c.done) yield* Deferred.succeed(c.done, undefined)
            // `/reflect` also fires the promotion pass, after its answer (as N.E.K.O. does in the background).
            if (c.reply) yield* Effect.ignoreLogged(lifecycle.evaluate(state))
            return true
          }
          case "Followups":
            yield* answer(c.reply, surfacing.followups(state).pipe(Effect.orElseSucceed(() => [])))
            return true
          case "RecordSurfaced":
            yield* answer(c.reply, surfacing.recordSurfaced(state, c.ids))
            return true
          case "Funnel":
            yield* answer(
              c.reply,
              Effect.map(state.events.all, (events) => countFunnel(events, c.since, c.until))
            )
            return true
          case "ResetConfirmedAt":
            yield* answer(c.reply, lifecycle.resetConfirmedAt(state))
            return true
          case "EvaluateReflections":
            yield* Effect.ignoreLogged(lifecycle.evaluate(state))
            if (c.reply) yield* Deferred.succeed(c.reply, undefined)
            return true
          case "EvidenceSweep":
            yield* Effect.ignoreLogged(sweep.sweep(state))
            return true
          case "RebuttalTick":
            yield* Effect.ignoreLogged(rebuttal.tick(state))
            if (c.reply) yield* Deferred.succeed(c.reply, undefined)
            return true
          case "ResolveCorrections":
            yield* Effect.ignoreLogged(corrections.resolve(state))
            return true
          case "ManualAction":
            yield* answer(c.reply, manual.act(state, c.kind, c.id, c.action))
            return true
          case "EntryEdit":
            yield* answer(c.reply, editor.edit(state, c.kind, c.id, c.text))
            return true
          case "ImportMarkdown":
            yield* Deferred.succeed(c.reply, yield* importer.run(state, c.request))
            return true
          case "GetPersona":
            yield* answer(c.reply, keeper.ensure(state))
            return true
          case "GetSettings": {
            const known = state.exists() || (yield* files.characters).characters.includes(deps.name)
            const lang = Option.getOrElse(
              Option.orElse(
                Option.orElse(c.lang.language, () => state.locale),
                () => c.lang.renderLanguage
              ),
              () => deps.language(state)
            )
            yield* answer(c.reply, known ? personaBlock(state, lang) : Effect.succeed(`${deps.name}记得{}`))
            return true
          }
          default:
            return false
        }
      })

    return {
      handle,
      afterTurns,
      personaBlock,
      /** Whether rendering the persona block would journal nothing (see `personaBlock`'s `readOnly`). */
      personaSettled: (state: State.CharacterState) => Effect.orElseSucceed(keeper.settled(state), () => false),
      evaluate,
      synth,
      sweep,
      signals,
      count,
      trackMentions: keeper.trackMentions,
      /** Whether a failed rebuttal window waits for its retry time. */
      rebuttalFailing: rebuttal.failing
    }
  })
