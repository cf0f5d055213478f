/**
 * The actor side of the recent-memory lifecycle: every compression and review decision is a transition of
 * `machines/recent.ts` on the character's `recentLife` snapshot, and this module carries out the typed actions
 * it emits — starting a compression or a review (Compaction.ts, Reviewer.ts), parking a caller on a
 * compression generation and answering it when that generation is over, committing a result the machine
 * accepts, the hard cap, the retry timer (`compressionBackoff`, jittered, or the self-heal interval after a dead letter) and
 * the idle check. Results of a slice that was replaced by a reload (another `epoch`) are dropped.
 */
import { Clock, Deferred, Duration, Effect, Fiber, FiberHandle, Option, type Scope } from "effect"
import { transition } from "xstate"
import { recentMachine, type RecentEvent } from "../../machines/recent.js"
import { decodeRecentCommand } from "../../machines/recentActions.js"
import { compressionBackoff, nthDelay } from "../maintenance/policies.js"
import type { Tunables } from "../Tunables.js"
import type { RecentHost } from "./RecentHost.js"
import type { RecentCommand } from "./RecentCommands.js"
import type * as Compaction from "./Compaction.js"
import type * as Reviewer from "./Reviewer.js"

type Built<F extends (...args: never) => Effect.Effect<unknown, unknown, unknown>> = Effect.Effect.Success<
  ReturnType<F>
>

export interface RecentLifecycleDeps {
  readonly tunables: Tunables
  readonly compaction: Built<typeof Compaction.make>
  readonly reviewer: Built<typeof Reviewer.make>
  /** Sends a command to this actor from a forked fiber, after a delay. */
  readonly later: (command: RecentCommand, delayMillis: number) => Effect.Effect<void>
  /** Enqueues a command for this actor (from the idle timer). */
  readonly tell: (command: RecentCommand) => Effect.Effect<void>
}

export const make = (deps: RecentLifecycleDeps): Effect.Effect<RecentLifecycle, never, Scope.Scope> =>
  Effect.gen(function* () {
    const { compaction, reviewer } = deps
    const t = deps.tunables
    const idleTimer = yield* FiberHandle.make<void, never>()
    const idleCheck = (onlyIfMissing: boolean) =>
      FiberHandle.run(
        idleTimer,
        Effect.sleep(t.idle_check_interval_seconds * 1000).pipe(Effect.zipRight(deps.tell({ _tag: "IdleCheck" }))),
        { onlyIfMissing }
      ).pipe(Effect.asVoid)

    /** Runs one event through the machine, then interprets its actions; `caller` is the event's continuation. */
    const send = (
      state: RecentHost,
      event: RecentEvent,
      caller: Effect.Effect<void> = Effect.void,
      pending?: Compaction.Pending
    ): Effect.Effect<ReadonlyArray<string>> =>
      Effect.gen(function* () {
        const life = state.recentLife
        const [next, actions] = transition(recentMachine, life.snapshot, event)
        life.snapshot = next
        const commands = actions.flatMap((a) => Option.toArray(decodeRecentCommand(a)))
        for (const c of commands) {
          switch (c.type) {
            case "startCompression":
              if (pending !== undefined) yield* compaction.run(state, pending, c.params.detailed, c.params.generation)
              break
            case "waitFor":
              life.waiters.push({ generation: c.params.generation, done: caller })
              break
            case "answer":
            case "commitCompression":
              yield* caller
              break
            case "release": {
              const due = life.waiters.filter((w) => w.generation <= c.params.generation)
              life.waiters = life.waiters.filter((w) => w.generation > c.params.generation)
              yield* Effect.forEach(due, (w) => w.done, { discard: true })
              break
            }
            case "resumeQueue": {
              const p = yield* compaction.pending(state)
              yield* send(state, { type: "queue.resumed", key: p?.key ?? null, now: yield* now }, Effect.void, p)
              break
            }
            case "hardCap":
              yield* compaction.hardCap(state)
              break
            case "retryLater": {
              if (c.params.deadLettered)
                yield* Effect.logWarning("recent compression dead-lettered for this snapshot").pipe(
                  Effect.annotateLogs({ attempts: c.params.attempts })
                )
              const selfHeal = t.memory_dead_letter_self_heal_seconds * 1000
              const delay = c.params.deadLettered
                ? selfHeal
                : Option.match(yield* nthDelay(compressionBackoff(t).backoff, c.params.attempts), {
                    onNone: () => selfHeal,
                    onSome: Duration.toMillis
                  })
              yield* deps.later({ _tag: "CompressRetry", detailed: c.params.detailed }, delay)
              break
            }
            case "checkReview":
              yield* send(state, { type: "review.checked", gate: yield* reviewer.gate(state) })
              break
            case "startReview":
              life.reviewFiber = yield* reviewer.start(state, c.params.generation)
              break
            case "cancelReview": {
              const fiber = life.reviewFiber
              life.reviewFiber = undefined
              if (fiber !== undefined) yield* Fiber.interrupt(fiber)
              break
            }
            case "commitReview":
              life.reviewFiber = undefined
              yield* caller
              break
            case "scheduleIdleCheck":
              yield* idleCheck(false)
              break
            case "compressIdle":
              yield* request(state, true, false)
              yield* send(state, { type: "review.wanted" })
              break
          }
        }
        return commands.map((c) => c.type)
      })

    const now = Clock.currentTimeMillis

    /**
     * Asks for a compression of what is over the threshold now. `own`: the caller must see a compression of
     * its own (queued behind one in flight); otherwise it joins the one in flight. `done` runs when the
     * compression it waits for is over (at once when there is none). True when a compression started now.
     */
    const request = (
      state: RecentHost,
      detailed: boolean,
      own: boolean,
      done: Effect.Effect<void> = Effect.void
    ): Effect.Effect<boolean> =>
      Effect.gen(function* () {
        const p = yield* compaction.pending(state)
        const event: RecentEvent = { type: "compress.requested", detailed, own, key: p?.key ?? null, now: yield* now }
        return (yield* send(state, event, done, p)).includes("startCompression")
      })

    const fresh = (state: RecentHost, epoch: string) => epoch === state.recentLife.epoch

    /** Handles the lifecycle's commands; false for any other command. */
    const handle = (state: RecentHost, c: RecentCommand) =>
      Effect.gen(function* () {
        switch (c._tag) {
          case "Splice":
            if (fresh(state, c.epoch))
              yield* send(
                state,
                { type: "compression.succeeded", generation: c.generation },
                compaction.splice(state, c.fingerprints, c.memo, c.anchor)
              )
            return true
          case "CompressionFailed":
            if (fresh(state, c.epoch))
              yield* send(state, {
                type: "compression.failed",
                generation: c.generation,
                key: c.key,
                detailed: c.detailed,
                now: yield* now
              })
            return true
          case "CompressRetry":
            yield* request(state, c.detailed, false)
            return true
          case "IdleCheck":
            yield* send(state, { type: "idle.checked", idleForMs: (yield* now) - state.lastWriteAt })
            return true
          case "ReviewDone":
          case "ReviewFailed":
            if (fresh(state, c.epoch))
              yield* send(
                state,
                { type: "review.finished", generation: c.generation },
                c._tag === "ReviewDone" ? reviewer.onDone(state, c) : reviewer.onFailed(state, c)
              )
            return true
          case "CancelCorrection":
            yield* Deferred.succeed(c.reply, (yield* cancelReview(state)) ? "cancelled" : "no_task")
            return true
          default:
            return false
        }
      })

    /** Cancels a review in flight; whether there was one. */
    const cancelReview = (state: RecentHost) =>
      Effect.map(send(state, { type: "review.cancelled" }), (done) => done.includes("cancelReview"))

    /** Turns were written: an idle check is due unless one is already scheduled. */
    const written = () => idleCheck(true)

    const value = (state: RecentHost) => String(state.recentLife.snapshot.value)

    /** The state is being released: callers still waiting for a compression are answered now. */
    const abandon = (state: RecentHost) =>
      Effect.suspend(() => {
        const waiting = state.recentLife.waiters
        state.recentLife.waiters = []
        return Effect.forEach(waiting, (w) => w.done, { discard: true })
      })

    return {
      send,
      request,
      handle,
      cancelReview,
      written,
      abandon,
      compressing: (state: RecentHost) => value(state) === "compressing",
      busy: (state: RecentHost) => value(state) === "compressing" || value(state) === "reviewing",
      idleCheckArmed: () => Option.isSome(FiberHandle.unsafeGet(idleTimer))
    }
  })

export interface RecentLifecycle {
  readonly send: (
    state: RecentHost,
    event: RecentEvent,
    caller?: Effect.Effect<void>,
    pending?: Compaction.Pending
  ) => Effect.Effect<ReadonlyArray<string>>
  readonly request: (
    state: RecentHost,
    detailed: boolean,
    own: boolean,
    done?: Effect.Effect<void>
  ) => Effect.Effect<boolean>
  readonly handle: (state: RecentHost, c: RecentCommand) => Effect.Effect<boolean>
  readonly cancelReview: (state: RecentHost) => Effect.Effect<boolean>
  readonly written: () => Effect.Effect<void>
  readonly abandon: (state: RecentHost) => Effect.Effect<void>
  readonly compressing: (state: RecentHost) => boolean
  readonly busy: (state: RecentHost) => boolean
  /** Whether an idle check is scheduled and has not been sent yet. */
  readonly idleCheckArmed: () => boolean
}
