/**
 * Handover between successive actors of one key. An `RcMap` forgets an idle entry the moment it starts
 * closing it, so a request arriving during that close would build a second actor while the first still
 * releases its files. `guard` makes each new build wait until the previous one of its key has fully closed.
 */
import { Deferred, Effect, type Scope } from "effect"

export interface Handover<K> {
  /** Runs `build` once the previous build of `key` has closed; this build's closing is awaited by the next. */
  readonly guard: <A, E, R>(key: K, build: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R | Scope.Scope>
}

export const make = <K>(): Handover<K> => {
  const closing = new Map<K, Deferred.Deferred<void>>()
  return {
    guard: (key, build) =>
      Effect.gen(function* () {
        const previous = closing.get(key)
        if (previous !== undefined) yield* Deferred.await(previous)
        const closed = yield* Deferred.make<void>()
        closing.set(key, closed)
        // Added before `build`'s own finalizers, so it runs after all of them.
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => {
            if (closing.get(key) === closed) closing.delete(key)
          }).pipe(Effect.zipRight(Deferred.succeed(closed, undefined)))
        )
        return yield* build
      })
  }
}
