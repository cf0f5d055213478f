/**
 * A supervised mailbox actor. One fiber reads a bounded queue and hands each batch of waiting commands to a
 * behaviour (after the first command arrives it lets pending I/O run once, so concurrent requests commit
 * together), which replies to each caller through the caller's `Deferred`. The whole loop runs under one
 * policy (`Supervision`, maintenance/policies.ts): any failure or defect — of a batch, of the loop itself,
 * of a reload — answers the callers of the batch in hand with `ActorDefect`, releases the state and rebuilds
 * it from disk on the restart schedule while later commands wait in the mailbox. When every restart fails the
 * actor is parked: each request is answered at once with a parked `ActorDefect`, and the state is rebuilt
 * again by the parked schedule's timer or by a request that arrives `probeAfter` after the last try. Callers
 * never hang on a crashed actor; `health` shows which of these states it is in.
 */
import { Chunk, Clock, Deferred, Duration, Effect, Exit, Fiber, Queue, Schedule, Schema, type Scope } from "effect"
import { actorSupervision, causeLine, type Supervision } from "../maintenance/policies.js"

export class ActorDefect extends Schema.TaggedError<ActorDefect>()("ActorDefect", {
  actor: Schema.String,
  message: Schema.String,
  /** Set when the actor is parked after repeated failures: the request was not tried. */
  parked: Schema.optional(Schema.Boolean)
}) {}

/** The reply of a request command: its answer, its typed failure, or the actor's defect. */
export type Reply<A, E = never> = Deferred.Deferred<A, E | ActorDefect>

export interface Envelope<C> {
  readonly command: C
  readonly fail: (error: ActorDefect) => Effect.Effect<boolean>
}

export interface Behaviour<S, C, E> {
  /** Loads the state from disk. */
  readonly init: Effect.Effect<S, E>
  /** Handles a batch; must complete the reply of every command it is given. */
  readonly handle: (state: S, batch: ReadonlyArray<Envelope<C>>) => Effect.Effect<void>
  readonly release: (state: S) => Effect.Effect<void>
}

export type Health =
  | { readonly _tag: "Running"; readonly restarts: number }
  | { readonly _tag: "Restarting"; readonly attempt: number; readonly cause: string }
  | { readonly _tag: "Parked"; readonly since: number; readonly cause: string }

export interface ActorRef<C> {
  readonly id: string
  /** Sends a command built around a fresh reply and waits for the reply. */
  readonly ask: <A, E>(build: (reply: Deferred.Deferred<A, E | ActorDefect>) => C) => Effect.Effect<A, E | ActorDefect>
  /** Enqueues a command that expects no reply (waits only for mailbox room). */
  readonly tell: (command: C) => Effect.Effect<void>
  readonly health: Effect.Effect<Health>
}

export interface ActorOptions {
  readonly capacity: number
  readonly maxBatch: number
  readonly supervision?: Supervision | undefined
}

const noop = () => Effect.succeed(false)

/** Lets Node run pending I/O callbacks (requests already on their sockets) so they join the batch. */
export const yieldToIo = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/** The parked actor's timer: a mailbox item that asks it to try rebuilding its state. */
const wake = Symbol("wake")
export type Item<C> = Envelope<C> | typeof wake
const isEnvelope = <C>(item: Item<C>): item is Envelope<C> => item !== wake

/**
 * An actor's mailbox, made before the actor when its behaviour needs to send itself commands (timers,
 * background results): the behaviour is built with `tell` and the actor then serves the same queue.
 */
export interface Mailbox<C> {
  readonly tell: (command: C) => Effect.Effect<void>
  readonly queue: Queue.Queue<Item<C>>
}

export const mailbox = <C>(capacity: number): Effect.Effect<Mailbox<C>> =>
  Effect.map(Queue.bounded<Item<C>>(capacity), (queue) => ({
    queue,
    tell: (command: C) => Queue.offer(queue, { command, fail: noop }).pipe(Effect.asVoid)
  }))

export const make = <S, C, E>(
  id: string,
  behaviour: Behaviour<S, C, E>,
  options: ActorOptions & { readonly mailbox?: Mailbox<C> }
): Effect.Effect<ActorRef<C>, E | ActorDefect, Scope.Scope> =>
  Effect.gen(function* () {
    const supervision = options.supervision ?? actorSupervision
    const scope = yield* Effect.scope
    const box = options.mailbox ?? (yield* mailbox<C>(options.capacity))
    const inbox = box.queue
    const defect = (message: string, parked?: boolean) =>
      new ActorDefect({ actor: id, message, ...(parked ? { parked } : {}) })
    let state: S | undefined = yield* behaviour.init.pipe(
      Effect.catchAllDefect((d) => Effect.fail(defect(`state could not be loaded: ${String(d)}`)))
    )
    let health: Health = { _tag: "Running", restarts: 0 }
    let restarts = 0
    /** The batch being handled, answered if the loop crashes; a request that woke a parked actor. */
    let inFlight: ReadonlyArray<Envelope<C>> = []
    let carried: Envelope<C> | undefined
    const failEach = (batch: ReadonlyArray<Envelope<C>>, error: ActorDefect) =>
      Effect.forEach(batch, (env) => env.fail(error), { discard: true })

    /** Serves batches with `current` until something fails or dies. */
    const serve = (current: S) =>
      Effect.gen(function* () {
        while (true) {
          const first = carried ?? (yield* Queue.take(inbox))
          carried = undefined
          if (!isEnvelope(first)) continue
          yield* yieldToIo
          const rest = Chunk.toReadonlyArray(yield* Queue.takeUpTo(inbox, options.maxBatch - 1)).filter(isEnvelope)
          inFlight = [first, ...rest]
          yield* behaviour.handle(current, inFlight)
          inFlight = []
        }
      })

    const release = Effect.suspend(() => {
      const held = state
      state = undefined
      return held === undefined
        ? Effect.void
        : behaviour
            .release(held)
            .pipe(
              Effect.catchAllCause((cause) =>
                Effect.logError("actor state release failed").pipe(Effect.annotateLogs({ cause: causeLine(cause) }))
              )
            )
    })

    const loaded = (next: S) =>
      Effect.sync(() => {
        state = next
        restarts++
        health = { _tag: "Running", restarts }
      })

    /** Rebuilds the state on the restart schedule; the last cause when every try failed. */
    const restart = (cause: string) =>
      Effect.suspend(() => {
        let attempt = 1
        health = { _tag: "Restarting", attempt, cause }
        return Effect.sandbox(behaviour.init).pipe(
          Effect.tapError((failure) =>
            Effect.logWarning("actor restart failed").pipe(
              Effect.annotateLogs({ attempt, cause: causeLine(failure) }),
              Effect.zipRight(Effect.sync(() => (health = { _tag: "Restarting", attempt: ++attempt, cause })))
            )
          ),
          Effect.retry(supervision.restart),
          Effect.flatMap(loaded),
          Effect.as(undefined),
          Effect.catchAll((failure) => Effect.succeed(causeLine(failure)))
        )
      })

    const wakeAfter = (driver: Schedule.ScheduleDriver<unknown, unknown>) =>
      driver.next(undefined).pipe(Effect.zipRight(Queue.offer(inbox, wake)), Effect.ignore, Effect.forkIn(scope))

    /** Answers every request with a parked defect until a timer or a late enough request rebuilds the state. */
    const park = (first: string) =>
      Effect.gen(function* () {
        let cause = first
        let lastTry = yield* Clock.currentTimeMillis
        health = { _tag: "Parked", since: lastTry, cause }
        yield* Effect.logError("actor parked after repeated failures").pipe(Effect.annotateLogs({ cause }))
        const driver = yield* Schedule.driver(supervision.parked)
        let timer = yield* wakeAfter(driver)
        while (true) {
          const item = yield* Queue.take(inbox)
          const now = yield* Clock.currentTimeMillis
          if (!isEnvelope(item) || now - lastTry >= Duration.toMillis(supervision.probeAfter)) {
            lastTry = now
            const exit = yield* Effect.exit(behaviour.init)
            if (Exit.isSuccess(exit)) {
              yield* Fiber.interrupt(timer)
              yield* loaded(exit.value)
              yield* Effect.logInfo("parked actor restarted")
              if (isEnvelope(item)) carried = item
              return
            }
            cause = causeLine(exit.cause)
            health = { _tag: "Parked", since: health._tag === "Parked" ? health.since : now, cause }
            if (!isEnvelope(item)) timer = yield* wakeAfter(driver)
          }
          if (isEnvelope(item)) yield* item.fail(defect(`actor parked after repeated failures: ${cause}`, true))
        }
      })

    const supervised: Effect.Effect<void> = Effect.gen(function* () {
      while (true) {
        const current = state
        const exit = yield* Effect.exit(current === undefined ? Effect.dieMessage("no state") : serve(current))
        if (Exit.isSuccess(exit)) return
        const cause = causeLine(exit.cause)
        yield* Effect.logError("actor crashed; restarting from disk").pipe(Effect.annotateLogs({ cause }))
        const batch = inFlight
        inFlight = []
        yield* failEach(batch, defect(cause))
        yield* release
        const failed = yield* restart(cause)
        if (failed !== undefined) yield* park(failed)
      }
    })

    yield* Effect.addFinalizer(() =>
      Effect.gen(function* () {
        const left = [...(carried ? [carried] : []), ...inFlight, ...(yield* Queue.takeAll(inbox))]
        yield* failEach(left.filter(isEnvelope), defect("actor stopped"))
        yield* Queue.shutdown(inbox)
        yield* release
      })
    )
    // The registry builds actors inside an uninterruptible region; the loop must stay interruptible, or
    // closing the actor's scope (idle eviction) would wait for it forever and the actor would live on.
    yield* supervised.pipe(Effect.annotateLogs({ actor: id }), Effect.interruptible, Effect.forkScoped)

    return {
      id,
      ask: <A, Err>(build: (reply: Deferred.Deferred<A, Err | ActorDefect>) => C) =>
        Effect.gen(function* () {
          const reply = yield* Deferred.make<A, Err | ActorDefect>()
          yield* Queue.offer(inbox, { command: build(reply), fail: (e) => Deferred.fail(reply, e) })
          return yield* Deferred.await(reply)
        }),
      tell: box.tell,
      health: Effect.sync(() => health)
    }
  })
