/**
 * Committing a group of consecutive writes of one mailbox batch, as the session machine's actions for each
 * write say: the writes it asked to persist (`persistTurns`) share one journal append (fsync), applied to
 * recent.json and the time index at once; `/cache` callers are answered as soon as their turns are durable
 * (a write the machine did not persist, an empty `/cache`, at once); `compress` and `startSettle` ask the
 * recent lifecycle for a compression and answer `/process`, `/renew` and `/settle` only when the
 * compression each asked for is over (a settle also reports `settle.done` to the session machine then);
 * `offerReview` asks the lifecycle for a review.
 */
import { Clock, Deferred, Effect, Option } from "effect"
import { randomUUID } from "node:crypto"
import type { SessionCommand } from "../../machines/session.js"
import { localIso, sqliteTimestamp } from "../domain/LocalTime.js"
import { isHuman } from "../domain/Message.js"
import type { StoreError } from "../store/DurableFs.js"
import type { ActorDefect } from "../runtime/Actor.js"
import * as State from "./CharacterState.js"
import type { WriteRequest } from "./Commands.js"
import * as Locale from "./locale/PromptLocale.js"
import type { RecentLifecycle } from "../recent/RecentLifecycle.js"
import type * as Reviewer from "../recent/Reviewer.js"
import { turnsLine } from "../recent/RecentEvents.js"

export interface Write {
  readonly request: WriteRequest
  readonly reply: Deferred.Deferred<number, StoreError | ActorDefect>
  /** What the session machine emitted for this write. */
  readonly actions: ReadonlyArray<SessionCommand>
}

export const make = (deps: {
  readonly recent: RecentLifecycle
  readonly reviewer: Effect.Effect.Success<ReturnType<typeof Reviewer.make>>
  readonly scheduleDrain: (state: State.CharacterState) => Effect.Effect<void>
  /** Reports a finished settle to the session machine (through the mailbox). */
  readonly settleDone: Effect.Effect<void>
}) => {
  const { recent, reviewer, scheduleDrain } = deps
  const reply = (w: Write) => Effect.asVoid(Deferred.succeed(w.reply, w.request.messages.length))

  const commit = (state: State.CharacterState, writes: ReadonlyArray<Write>) =>
    Effect.gen(function* () {
      if (writes.length === 0) return
      const group = writes.filter((w) => w.actions.some((a) => a.type === "persistTurns"))
      yield* Effect.forEach(
        writes.filter((w) => !group.includes(w)),
        reply,
        { discard: true }
      )
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
      if (events.length > 0) yield* state.beforeJournal
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
      state.lastWriteAt = millis
      if (group.some((w) => w.request.messages.some(isHuman))) yield* reviewer.markDirty(state)
      for (const w of group) {
        let answered = false
        for (const action of w.actions) {
          if (action.type === "startSettle") {
            answered = true
            yield* recent.request(state, action.params.detailed, true, Effect.zipRight(reply(w), deps.settleDone))
          } else if (action.type === "compress") {
            answered = true
            yield* recent.request(state, action.params.detailed, false, reply(w))
          } else if (action.type === "offerReview") {
            yield* recent.send(state, { type: "review.wanted" })
          }
        }
        if (!answered) yield* reply(w)
      }
      if (events.length > 0) yield* recent.written()
      yield* scheduleDrain(state)
    })
  return commit
}
