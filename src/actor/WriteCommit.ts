/**
 * Committing a group of consecutive writes of one mailbox batch: one journal append (fsync) for all their
 * turns, applied to recent.json and the time index at once; `/cache` callers are answered as soon as their
 * turns are durable, `/process`, `/renew` and `/settle` callers once the compression they started is over.
 */
import { Clock, Deferred, Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import type { SessionCommand } from "../../machines/session.js"
import { localIso, sqliteTimestamp } from "../domain/LocalTime.js"
import { isHuman } from "../domain/Message.js"
import type { StoreError } from "../store/DurableFs.js"
import type { ActorDefect } from "./Actor.js"
import * as State from "./CharacterState.js"
import type { WriteRequest } from "./Commands.js"
import type * as Compaction from "./Compaction.js"
import * as Locale from "./PromptLocale.js"
import type * as Reviewer from "./Reviewer.js"
import { turnsLine } from "./TurnEvent.js"

export interface Write {
  readonly request: WriteRequest
  readonly reply: Deferred.Deferred<number, StoreError | ActorDefect>
}

export const make = (deps: {
  readonly compaction: Effect.Effect.Success<ReturnType<typeof Compaction.make>>
  readonly reviewer: Effect.Effect.Success<ReturnType<typeof Reviewer.make>>
  readonly scheduleDrain: (state: State.CharacterState) => Effect.Effect<void>
}) => {
  const { compaction, reviewer, scheduleDrain } = deps
  const commit = (state: State.CharacterState, group: ReadonlyArray<Write>, actions: ReadonlyArray<SessionCommand>) =>
    Effect.gen(function* () {
      if (group.length === 0) return
      const millis = yield* Clock.currentTimeMillis
      const ts = localIso(millis)
      const events = group.flatMap(({ request }) => {
        const extract = request.messages.length > 0 || (request.kind === "settle" && Option.isSome(request.language))
        if (request.messages.length === 0 && !extract) return []
        const payload = {
          session_id: randomUUID(),
          row_ts: sqliteTimestamp(millis),
          kind: request.kind,
          messages: request.messages,
          extract,
          ...(Option.isSome(request.language) ? { language: request.language.value } : {})
        }
        return [turnsLine(randomUUID(), payload, ts)]
      })
      const appended = yield* Effect.either(state.events.append(events))
      if (appended._tag === "Left") {
        yield* Effect.logError("journal append failed").pipe(Effect.annotateLogs({ error: appended.left.message }))
        yield* Effect.forEach(group, (w) => Deferred.fail(w.reply, appended.left), { discard: true })
        return
      }
      state.unapplied.push(...events)
      yield* State.applyUnapplied(state)
      const explicit = group.flatMap((w) => Option.toArray(w.request.language))
      const lastLanguage = explicit[explicit.length - 1]
      if (lastLanguage !== undefined) yield* Locale.remember(state, lastLanguage)
      const reply = (w: Write) => Effect.asVoid(Deferred.succeed(w.reply, w.request.messages.length))
      yield* Effect.forEach(
        group.filter((w) => w.request.kind === "cache"),
        reply,
        { discard: true }
      )
      state.lastWriteAt = millis
      if (group.some((w) => w.request.messages.some(isHuman))) yield* reviewer.markDirty(state)
      for (const action of actions) {
        if (action.type === "startSettle") yield* compaction.start(state, action.params.detailed, true)
        else if (action.type === "compress") yield* compaction.start(state, action.params.detailed, false)
        else if (action.type === "offerReview") yield* compaction.whenDone(state, reviewer.offer(state))
      }
      yield* Effect.forEach(
        group.filter((w) => w.request.kind !== "cache"),
        (w) => compaction.whenDone(state, reply(w)),
        { discard: true }
      )
      if (events.length > 0) yield* compaction.scheduleIdleCheck(state)
      yield* scheduleDrain(state)
    })
  return commit
}
