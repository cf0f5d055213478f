/**
 * Per-key admission for the character registry: counts the requests using a key's actor, and lets an
 * exclusive section (a rename) close the door on a key — requests arriving meanwhile wait at the door —
 * and wait until the requests already inside are done. Closing the door is scoped: it reopens when the
 * section ends. Only one section holds a key's door at a time.
 */
import { Deferred, Duration, Effect, Option, type Scope } from "effect"

export interface Admission<K> {
  /** Runs `effect` as a request on `key`, once the key's door is open. */
  readonly admit: <A, E, R>(key: K, effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** Enters `key` at once when its door is open (true); a request that entered this way must `leave`. */
  readonly tryEnter: (key: K) => boolean
  readonly leave: (key: K) => Effect.Effect<void>
  /** Closes the door on `key` and waits at most `timeout` for the requests inside; false when they stayed. */
  readonly close: (key: K, timeout: Duration.DurationInput) => Effect.Effect<boolean, never, Scope.Scope>
}

export const make = <K>(): Admission<K> => {
  const inside = new Map<K, number>()
  const doors = new Map<K, Deferred.Deferred<void>>()
  const drained = new Map<K, Deferred.Deferred<void>>()
  const atDoor = (key: K) =>
    Effect.gen(function* () {
      for (let door = doors.get(key); door !== undefined; door = doors.get(key)) yield* Deferred.await(door)
    })
  const enterNow = (key: K) => inside.set(key, (inside.get(key) ?? 0) + 1)
  const enter = (key: K) => Effect.sync(() => enterNow(key))
  const leave = (key: K) =>
    Effect.suspend(() => {
      const left = (inside.get(key) ?? 1) - 1
      if (left > 0) {
        inside.set(key, left)
        return Effect.void
      }
      inside.delete(key)
      const waiting = drained.get(key)
      drained.delete(key)
      return waiting === undefined ? Effect.void : Deferred.succeed(waiting, undefined)
    })
  return {
    admit: (key, effect) =>
      Effect.zipRight(
        atDoor(key),
        Effect.acquireUseRelease(
          enter(key),
          () => effect,
          () => leave(key)
        )
      ),
    tryEnter: (key) => {
      if (doors.has(key)) return false
      enterNow(key)
      return true
    },
    leave,
    close: (key, timeout) =>
      Effect.gen(function* () {
        yield* atDoor(key)
        const door = yield* Deferred.make<void>()
        doors.set(key, door)
        yield* Effect.addFinalizer(() =>
          Effect.sync(() => doors.delete(key)).pipe(Effect.zipRight(Deferred.succeed(door, undefined)))
        )
        if ((inside.get(key) ?? 0) === 0) return true
        const done = drained.get(key) ?? (yield* Deferred.make<void>())
        drained.set(key, done)
        return Option.isSome(yield* Deferred.await(done).pipe(Effect.timeoutOption(timeout)))
      })
  }
}
