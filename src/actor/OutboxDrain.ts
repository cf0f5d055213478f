/**
 * Running a character's pending outbox ops (at least once): `extract_facts` goes to fact intake, other types
 * to the `OutboxHandlers` port; a failure records an attempt and, at the limit, dead-letters the op.
 * A drain is scheduled by sending `DrainOutbox` to the actor itself.
 */
import { Clock, Effect } from "effect"
import type { CharacterName } from "../domain/CharacterName.js"
import { localIso } from "../domain/LocalTime.js"
import type { OutboxOp } from "../store/Outbox.js"
import * as State from "./CharacterState.js"
import type { Command } from "./Commands.js"
import { OutboxHandlers, type HandlerFailed } from "./Ports.js"
import { EXTRACT_FACTS } from "./CharacterState.js"

export const make = (deps: {
  readonly name: CharacterName
  readonly extract: (state: State.CharacterState, op: OutboxOp) => Effect.Effect<void, HandlerFailed>
  readonly later: (command: Command) => Effect.Effect<void>
}) =>
  Effect.gen(function* () {
    const handlers = yield* OutboxHandlers
    const run = (state: State.CharacterState, op: OutboxOp) =>
      op.type === EXTRACT_FACTS ? deps.extract(state, op) : handlers.run(deps.name, op)

    /** Runs every pending op once; returns how many completed. */
    const drain = (state: State.CharacterState) =>
      Effect.gen(function* () {
        state.drainScheduled = false
        const done: Array<string> = []
        for (const op of state.outbox.pending()) {
          const result = yield* Effect.either(run(state, op))
          if (result._tag === "Right") done.push(op.opId)
          else {
            const ts = localIso(yield* Clock.currentTimeMillis)
            const dead = yield* state.outbox.fail(op.opId, ts)
            yield* Effect.logWarning(dead ? "outbox op dead-lettered" : "outbox op failed").pipe(
              Effect.annotateLogs({ op: op.type, attempts: op.attempts + 1 })
            )
          }
        }
        if (done.length > 0) {
          yield* state.outbox.complete(done, localIso(yield* Clock.currentTimeMillis))
          yield* Effect.logDebug("outbox ops done").pipe(Effect.annotateLogs({ count: done.length }))
        }
        return done.length
      }).pipe(
        Effect.catchAll((e) =>
          Effect.logError("outbox drain failed").pipe(Effect.annotateLogs({ error: e.message }), Effect.as(0))
        )
      )

    const scheduleDrain = (state: State.CharacterState) =>
      state.drainScheduled || state.outbox.pending().length === 0
        ? Effect.void
        : Effect.sync(() => (state.drainScheduled = true)).pipe(Effect.zipRight(deps.later({ _tag: "DrainOutbox" })))

    return { drain, scheduleDrain }
  })
