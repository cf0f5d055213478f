/**
 * A mailbox actor: one fiber reads a bounded queue and hands each batch of waiting commands to a behaviour
 * (after the first command arrives it lets pending I/O run once, so concurrent requests commit together),
 * which replies to each caller through the caller's `Deferred`. A defect while handling a batch fails the
 * callers of that batch still waiting with `ActorDefect`, then the behaviour's state is rebuilt from disk
 * (retried on the restart schedule); callers never hang on a crashed actor.
 */
import { Cause, Chunk, Deferred, Effect, Exit, Queue, Schedule, Schema, type Scope } from "effect"

export class ActorDefect extends Schema.TaggedError<ActorDefect>()("ActorDefect", {
  actor: Schema.String,
  message: Schema.String
}) {}

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

export interface ActorRef<C> {
  readonly id: string
  /** Sends a command built around a fresh reply and waits for the reply. */
  readonly ask: <A, E>(build: (reply: Deferred.Deferred<A, E | ActorDefect>) => C) => Effect.Effect<A, E | ActorDefect>
  /** Enqueues a command that expects no reply (waits only for mailbox room). */
  readonly tell: (command: C) => Effect.Effect<void>
}

export interface ActorOptions {
  readonly capacity: number
  readonly maxBatch: number
  readonly restart?: Schedule.Schedule<unknown, unknown> | undefined
}

export const defaultRestart: Schedule.Schedule<unknown, unknown> = Schedule.exponential("100 millis", 2).pipe(
  Schedule.either(Schedule.spaced("10 seconds")),
  Schedule.intersect(Schedule.recurs(5))
)

const noop = () => Effect.succeed(false)

/** Lets Node run pending I/O callbacks (requests already on their sockets) so they join the batch. */
export const yieldToIo = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

export const make = <S, C, E>(
  id: string,
  behaviour: Behaviour<S, C, E>,
  options: ActorOptions
): Effect.Effect<ActorRef<C>, E, Scope.Scope> =>
  Effect.gen(function* () {
    const mailbox = yield* Queue.bounded<Envelope<C>>(options.capacity)
    let state: S | undefined = yield* behaviour.init
    const restart = options.restart ?? defaultRestart

    const reload = Effect.gen(function* () {
      if (state !== undefined) yield* behaviour.release(state)
      state = undefined
      const next = yield* Effect.either(Effect.retry(behaviour.init, restart))
      if (next._tag === "Right") state = next.right
      else yield* Effect.logError("actor state could not be reloaded").pipe(Effect.annotateLogs({ actor: id }))
    })

    const step = Effect.gen(function* () {
      const first = yield* Queue.take(mailbox)
      yield* yieldToIo
      const rest = Chunk.toReadonlyArray(yield* Queue.takeUpTo(mailbox, options.maxBatch - 1))
      const batch = [first, ...rest]
      if (state === undefined) yield* reload
      const current = state
      if (current === undefined) {
        const error = new ActorDefect({ actor: id, message: "actor state unavailable" })
        yield* Effect.forEach(batch, (env) => env.fail(error), { discard: true })
        return
      }
      const exit = yield* Effect.exit(behaviour.handle(current, batch))
      if (Exit.isFailure(exit) && !Cause.isInterruptedOnly(exit.cause)) {
        const message = Cause.pretty(exit.cause).split("\n")[0] ?? "defect"
        yield* Effect.logError("actor defect; restarting from disk").pipe(Effect.annotateLogs({ actor: id, message }))
        const error = new ActorDefect({ actor: id, message })
        yield* Effect.forEach(batch, (env) => env.fail(error), { discard: true })
        yield* reload
      }
    })

    yield* Effect.addFinalizer(() =>
      Effect.gen(function* () {
        const left = yield* Queue.takeAll(mailbox)
        const error = new ActorDefect({ actor: id, message: "actor stopped" })
        yield* Effect.forEach(left, (env) => env.fail(error), { discard: true })
        yield* Queue.shutdown(mailbox)
        if (state !== undefined) yield* behaviour.release(state)
      })
    )
    // The registry builds actors inside an uninterruptible region; the loop must stay interruptible, or
    // closing the actor's scope (idle eviction) would wait for it forever and the actor would live on.
    yield* Effect.forever(step).pipe(Effect.annotateLogs({ actor: id }), Effect.interruptible, Effect.forkScoped)

    return {
      id,
      ask: <A, Err>(build: (reply: Deferred.Deferred<A, Err | ActorDefect>) => C) =>
        Effect.gen(function* () {
          const reply = yield* Deferred.make<A, Err | ActorDefect>()
          yield* Queue.offer(mailbox, { command: build(reply), fail: (e) => Deferred.fail(reply, e) })
          return yield* Deferred.await(reply)
        }),
      tell: (command: C) => Queue.offer(mailbox, { command, fail: noop }).pipe(Effect.asVoid)
    }
  })
