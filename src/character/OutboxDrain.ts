/**
 * Running a character's pending outbox ops (at least once): `extract_facts` goes to fact intake, other types
 * to the `OutboxHandlers` port; a failure records an attempt, and the op is tried again once the delay of
 * `outboxRetry` has passed (a later drain skips it until then; a drain is scheduled for that moment) or
 * dead-lettered when the policy gives up. `maintainNow` drains every pending op regardless of its delay.
 * A drain due now is handed to the actor's background lane directly (`wake`: no trip through the mailbox, which
 * cost a turn about a tenth of its runtime steps); a retry later is a `DrainOutbox` the actor sends itself. Drains
 * of one character start at most once per `outbox_drain_interval_ms`: a turn within that time of the last drain
 * waits for the rest of it (a `DrainOutbox` sent later), so a character under steady ingest drains its turns in
 * groups — a drain's fixed work (the post-turn checks, the completion record) was about a third of a turn's runtime
 * steps when every turn had its own.
 */
import { Clock, Duration, Effect } from "effect"
import type { CharacterName } from "../domain/CharacterName.js"
import { localIso } from "../domain/LocalTime.js"
import { afterFailure, outboxRetry } from "../maintenance/policies.js"
import type { OutboxOp } from "../store/Outbox.js"
import type { Tunables } from "../Tunables.js"
import * as State from "./CharacterState.js"
import type { Command } from "./Commands.js"
import { OutboxHandlers, type HandlerFailed } from "../runtime/OutboxHandlers.js"
import { EXTRACT_FACTS } from "./CharacterState.js"

export const make = (deps: {
  readonly name: CharacterName
  readonly tunables: Tunables
  /** Runs `extract_facts` ops; answers the ids of those that failed. */
  readonly extract: (
    state: State.CharacterState,
    ops: ReadonlyArray<OutboxOp>
  ) => Effect.Effect<ReadonlyArray<string>, HandlerFailed>
  readonly later: (command: Command, delayMillis?: number) => Effect.Effect<void>
  /** Queues a drain of `state` on the background lane now. */
  readonly wake: (state: State.CharacterState) => Effect.Effect<void>
  /** Post-turn work after the `extract_facts` ops ran (the surfaced-feedback check); failures are logged. */
  readonly afterTurns: (state: State.CharacterState, ops: ReadonlyArray<OutboxOp>) => Effect.Effect<unknown, unknown>
}) =>
  Effect.gen(function* () {
    const handlers = yield* OutboxHandlers
    const retry = outboxRetry(deps.tunables)
    /** When each failed op may run again (epoch ms); ops not listed are due. */
    const notBefore = new Map<string, number>()
    const dueAt = (now: number) => (op: OutboxOp) => (notBefore.get(op.opId) ?? 0) <= now
    /** When the last drain started (epoch ms). */
    let lastDrainAt = Number.NEGATIVE_INFINITY

    /** Runs every pending op that is due (every one with `force`) once; returns how many completed. */
    const drain = (state: State.CharacterState, force = false) =>
      Effect.gen(function* () {
        state.drainScheduled = false
        const now = yield* Clock.currentTimeMillis
        lastDrainAt = now
        const done: Array<string> = []
        const failed = (op: OutboxOp) =>
          Effect.gen(function* () {
            const dead = yield* state.outbox.fail(op.opId, localIso(yield* Clock.currentTimeMillis))
            yield* Effect.logWarning(dead ? "outbox op dead-lettered" : "outbox op failed").pipe(
              Effect.annotateLogs({ op: op.type, attempts: op.attempts + 1 })
            )
            const next = yield* afterFailure(retry, op.attempts + 1)
            if (dead || next._tag === "DeadLetter") return notBefore.delete(op.opId)
            const delay = Duration.toMillis(next.delay)
            notBefore.set(op.opId, now + delay)
            yield* deps.later({ _tag: "DrainOutbox" }, delay)
          })
        const pending = state.outbox.pending().filter((op) => force || dueAt(now)(op))
        const extract = pending.filter((op) => op.type === EXTRACT_FACTS)
        if (extract.length > 0) {
          const result = yield* Effect.either(deps.extract(state, extract))
          const lost = new Set(result._tag === "Right" ? result.right : extract.map((op) => op.opId))
          done.push(...extract.filter((op) => !lost.has(op.opId)).map((op) => op.opId))
          yield* Effect.forEach(
            extract.filter((op) => lost.has(op.opId)),
            failed,
            { discard: true }
          )
          yield* Effect.ignoreLogged(deps.afterTurns(state, extract))
        }
        for (const op of pending.filter((o) => o.type !== EXTRACT_FACTS)) {
          const result = yield* Effect.either(handlers.run(deps.name, op))
          if (result._tag === "Right") done.push(op.opId)
          else yield* failed(op)
        }
        if (done.length > 0) {
          for (const id of done) notBefore.delete(id)
          yield* state.outbox.complete(done, localIso(yield* Clock.currentTimeMillis))
          yield* Effect.logDebug("outbox ops done").pipe(Effect.annotateLogs({ count: done.length }))
        }
        return done.length
      }).pipe(
        Effect.catchAll((e) =>
          Effect.logError("outbox drain failed").pipe(Effect.annotateLogs({ error: e.message }), Effect.as(0))
        )
      )

    /**
     * Schedules a drain when some pending op is due (failed ones have their own timer): now, or once
     * `outbox_drain_interval_ms` has passed since the last drain began.
     */
    const scheduleDrain = (state: State.CharacterState) =>
      Effect.gen(function* () {
        if (state.drainScheduled) return
        const now = yield* Clock.currentTimeMillis
        if (!state.outbox.pending().some(dueAt(now))) return
        state.drainScheduled = true
        const wait = lastDrainAt + deps.tunables.outbox_drain_interval_ms - now
        yield* wait > 0 ? deps.later({ _tag: "DrainOutbox" }, wait) : deps.wake(state)
      })

    return { drain, scheduleDrain }
  })
