/**
 * The read-only commands of a character actor that need no feature of their own: `/get_recent_history`,
 * `/last_conversation_gap` and the actor's status (for `/api/memory/live_actors`, tests and the library).
 */
import { Deferred, Effect } from "effect"
import { renderRecentHistory } from "../dialog/Render.js"
import * as State from "./CharacterState.js"
import type { Command } from "./Commands.js"
import type { makeReads } from "./Reads.js"

export interface ReadDeps {
  readonly name: string
  readonly reads: ReturnType<typeof makeReads>
  readonly compressing: (state: State.CharacterState) => boolean
}

export const make = (deps: ReadDeps) => {
  const { reads } = deps
  /** Handles the read commands; false for any other command. */
  const handle = (state: State.CharacterState, c: Command) =>
    Effect.gen(function* () {
      if (c._tag === "RecentHistory") {
        const work = Effect.gen(function* () {
          const { directory, speakers } = yield* reads.speakers
          const recent = yield* state.recent.read
          const known = state.exists() || directory.characters.includes(deps.name)
          return renderRecentHistory(recent.items, speakers, reads.resolveLanguage(state, c.lang), known)
        })
        yield* Deferred.complete(c.reply, work)
        return true
      }
      if (c._tag === "Gap") {
        yield* Deferred.complete(
          c.reply,
          Effect.map(reads.gapSeconds(state), (g) => g ?? -1)
        )
        return true
      }
      if (c._tag === "Status") {
        const view = yield* state.recent.read
        yield* Deferred.succeed(c.reply, {
          exists: state.exists(),
          session: String(state.snapshot.value),
          recent: String(state.recentLife.snapshot.value),
          recentDegraded: view.degraded,
          recentPending: view.pending,
          unappliedEvents: state.unapplied.length,
          pendingOps: state.outbox.pending().length,
          compressing: deps.compressing(state),
          items: view.items.length,
          handlesOpen: State.handlesOpen(state),
          viewsHeld: State.viewsHeld(state)
        })
        return true
      }
      return false
    })
  return { handle }
}
