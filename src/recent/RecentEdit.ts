/**
 * Memory-browser edits of `recent.json` inside a character actor (neko-compat §1.8): the snapshot the browser
 * reads (the file's text plus any pending tail, and the generation of the path it came from), and a save that
 * is applied only while that snapshot is still the current one. A save is journaled as a whole-file
 * `recent.spliced` (reason `edit`, fingerprints of every current item), checkpointed at once so no earlier
 * turn can be replayed over it, and cancels any history review in flight, as N.E.K.O.'s save does.
 */
import { Deferred, Effect, Option } from "effect"
import * as path from "node:path"
import type { StoredMessage } from "../domain/Message.js"
import { fingerprint } from "./Compression.js"
import type { RecentHost } from "./RecentHost.js"
import { commitSplice } from "./RecentEvents.js"
import type { RecentCommand, RecentSnapshot, SaveRecentOutcome } from "./RecentCommands.js"

export interface RecentEditDeps {
  readonly cancelReview: (state: RecentHost) => Effect.Effect<unknown>
}

type Save = Extract<RecentCommand, { readonly _tag: "SaveRecent" }>

const unwritable = (message: string): SaveRecentOutcome => ({ _tag: "Unwritable", message })

export const make = (deps: RecentEditDeps) => {
  const snapshot = (state: RecentHost) =>
    Effect.gen(function* () {
      const content = yield* state.recent.content
      if (Option.isNone(content)) return Option.none<RecentSnapshot>()
      return Option.some<RecentSnapshot>({
        content: content.value,
        pathKey: path.resolve(state.recent.file),
        generation: yield* state.recent.generation
      })
    })

  const replace = (state: RecentHost, items: ReadonlyArray<StoredMessage>) =>
    Effect.gen(function* () {
      let recent = yield* state.recent.read
      if (recent.pending > 0 && Option.isNone(recent.degraded)) {
        yield* state.recent.appendEvents([])
        recent = yield* state.recent.read
      }
      if (Option.isSome(recent.degraded) || recent.pending > 0)
        return unwritable("recent.json is unreadable or not writable now; it was not overwritten")
      const fingerprints = recent.items.map(fingerprint)
      if (!(yield* commitSplice(state, { reason: "edit", at: 0, fingerprints, items })))
        return unwritable("the edit could not be journaled and applied")
      yield* state.checkpoint
      yield* deps.cancelReview(state)
      const after = yield* snapshot(state)
      return Option.match(after, {
        onNone: () => unwritable("recent.json vanished after the edit"),
        onSome: (s): SaveRecentOutcome => ({ _tag: "Saved", snapshot: s })
      })
    })

  const save = (state: RecentHost, c: Save) =>
    Effect.gen(function* () {
      const current = yield* snapshot(state)
      if (Option.isNone(current) || !c.matches(current.value)) return { _tag: "Conflict" as const, current }
      return yield* replace(state, c.items)
    })

  /** Handles the browser commands; false for any other command. */
  const handle = (state: RecentHost, c: RecentCommand) =>
    Effect.gen(function* () {
      if (c._tag === "RecentFile") {
        yield* Deferred.complete(c.reply, snapshot(state))
        return true
      }
      if (c._tag === "SaveRecent") {
        yield* Deferred.complete(c.reply, save(state, c))
        return true
      }
      return false
    })

  return { handle }
}
