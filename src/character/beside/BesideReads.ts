/**
 * Reads served beside a character's mailbox, on the state it has loaded, so they do not queue behind a commit
 * or a lane job: `/query_memory` always, `/new_dialog` when rendering it would write nothing — no settle in
 * flight (the session machine idle), the requested language already remembered, the time index open, the
 * persona settled (card in sync, migration done, no suppression due). Both run under the actor's read lock,
 * which whatever closes handles, views or the state takes too; the check runs under it as well, so nothing it
 * saw is closed before the render. Anything else — the state not loaded, the actor restarting — goes through
 * the mailbox. An answered write is already applied, so a read sent after its answer sees it.
 */
import { Effect, Option } from "effect"
import type * as Actor from "../../runtime/Actor.js"
import type { StoreError } from "../../store/DurableFs.js"
import type { QueryRequest, QueryResult } from "../../recall/RecallTypes.js"
import type * as State from "../CharacterState.js"
import type { Command, ReadLanguage } from "../Commands.js"

export const make = (deps: {
  readonly ref: Actor.ActorRef<Command>
  /** The state the mailbox works on, if loaded. */
  readonly current: () => State.CharacterState | undefined
  readonly locked: <A, E>(work: Effect.Effect<A, E>) => Effect.Effect<A, E>
  /** Counts the read as a use of the character (idle release). */
  readonly used: (state: State.CharacterState) => Effect.Effect<void>
  readonly query: (state: State.CharacterState, input: QueryRequest) => Effect.Effect<QueryResult, StoreError>
  /** Renders the dialog without syncing or lifting anything (`personaBlock`'s read-only mode). */
  readonly render: (state: State.CharacterState, lang: ReadLanguage) => Effect.Effect<string, StoreError>
  readonly personaSettled: (state: State.CharacterState) => Effect.Effect<boolean>
}) => {
  const { ref, locked, used } = deps
  /** The loaded state of a running actor. */
  const loaded = Effect.map(ref.health, (health) => {
    const state = deps.current()
    return state !== undefined && health._tag === "Running" ? state : undefined
  })

  const query = (input: QueryRequest): Effect.Effect<QueryResult, StoreError | Actor.ActorDefect> =>
    Effect.flatMap(loaded, (state) =>
      state === undefined
        ? ref.ask<QueryResult, StoreError>((reply) => ({ _tag: "QueryMemory", input, reply }))
        : Effect.zipRight(used(state), locked(deps.query(state, input)))
    )

  /** Whether the dialog can be rendered here: nothing it would do writes, nothing it reads must be opened. */
  const readOnly = (state: State.CharacterState, lang: ReadLanguage) =>
    Effect.suspend(() => {
      if (state.snapshot.value !== "idle" || state.timeIndex === undefined) return Effect.succeed(false)
      const language = lang.language
      if (Option.isSome(language) && state.exists() && !Option.contains(state.locale, language.value))
        return Effect.succeed(false)
      return deps.personaSettled(state)
    })

  const viaMailbox = (lang: ReadLanguage) =>
    ref.ask<string, StoreError>((reply) => ({ _tag: "NewDialog", lang, reply }))

  const newDialog = (lang: ReadLanguage): Effect.Effect<string, StoreError | Actor.ActorDefect> =>
    Effect.flatMap(loaded, (state) => {
      if (state === undefined) return viaMailbox(lang)
      const here = locked(
        Effect.flatMap(readOnly(state, lang), (ok) =>
          ok ? Effect.map(deps.render(state, lang), Option.some) : Effect.succeed(Option.none<string>())
        )
      )
      return Effect.zipRight(used(state), here).pipe(
        Effect.flatMap(Option.match({ onNone: () => viaMailbox(lang), onSome: Effect.succeed }))
      )
    })

  return { query, newDialog }
}
