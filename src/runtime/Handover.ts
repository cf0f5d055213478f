/**
 * Handover between successive holders of one key. An `RcMap` forgets an idle entry the moment it starts
 * closing it, so a request arriving during that close would build a second actor while the first still
 * releases its files. Holders form a chain per key: each new actor build, or an exclusive `hold` (a rename
 * with the actors stopped), starts only once every earlier holder of its key has let go.
 */
import { Deferred, Duration, Effect, Option, type Scope } from "effect"

export interface Handover<K> {
  /** Runs `build` once the previous holder of `key` has let go; this build's closing is awaited by the next. */
  readonly guard: <A, E, R>(key: K, build: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R | Scope.Scope>
  /**
   * Takes `key` exclusively: joins the chain, runs `meanwhile` (e.g. asking the current holder to close),
   * then waits at most `timeout` for the previous holder to let go; later builds wait until the scope
   * closes. None when the previous holder did not let go in time.
   */
  readonly hold: (
    key: K,
    timeout: Duration.DurationInput,
    meanwhile: Effect.Effect<void>
  ) => Effect.Effect<Option.Option<void>, never, Scope.Scope>
}

export const make = <K>(): Handover<K> => {
  const closing = new Map<K, Deferred.Deferred<void>>()
  // Joins the chain at once, so a later holder always waits for this one.
  const enter = (key: K) =>
    Effect.gen(function* () {
      const previous = closing.get(key)
      const mine = yield* Deferred.make<void>()
      closing.set(key, mine)
      const wait = previous === undefined ? Effect.void : Deferred.await(previous)
      // Letting go early still hands over only after the previous holder: `mine` then stays in the chain.
      const leave = Effect.gen(function* () {
        const previousDone = previous === undefined || (yield* Deferred.isDone(previous))
        if (previousDone && closing.get(key) === mine) closing.delete(key)
        yield* Deferred.completeWith(mine, wait)
      })
      return { wait, leave }
    })
  return {
    guard: (key, build) =>
      Effect.gen(function* () {
        const { wait, leave } = yield* enter(key)
        // Added before `build`'s own finalizers, so it runs after all of them.
        yield* Effect.addFinalizer(() => leave)
        yield* wait
        return yield* build
      }),
    hold: (key, timeout, meanwhile) =>
      Effect.gen(function* () {
        const { wait, leave } = yield* enter(key)
        yield* Effect.addFinalizer(() => leave)
        yield* meanwhile
        return yield* wait.pipe(Effect.timeoutOption(timeout))
      })
  }
}
