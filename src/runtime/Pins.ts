/**
 * One reference held on each live entry of a registry's `RcMap` between requests (a pin), so a request on a
 * pinned key uses the held value without taking a reference of its own: no scope, no finalizer, no map
 * semaphore (a quarter of the CPU of a mailbox read over HTTP). The first request on a key takes its reference
 * in a scope of its own and keeps it as the key's pin when none is held. A pin is released `ttlMillis` after
 * the key's last request ended (the registry's idle time to live: the map itself closes an entry as soon as no
 * reference is left) unless another request comes first, or at once by `release`, which also stops its timer.
 * The timers run on the runtime `make` was called in, not on the request that armed them: a timer forked from
 * a request would keep that request's context (its HTTP request and body) alive until it expires.
 */
import { Clock, Effect, Exit, Fiber, Runtime, Scope } from "effect"

export interface Pins<K, A> {
  /** The pinned value of `key`, if one is held. */
  readonly peek: (key: K) => A | undefined
  /** Runs `use` with a reference taken for it, kept as the key's pin when none is held. */
  readonly acquire: <B, E, E2>(
    key: K,
    get: Effect.Effect<A, E, Scope.Scope>,
    use: (value: A) => Effect.Effect<B, E2>
  ) => Effect.Effect<B, E | E2>
  /** The key's last request ended at `now`: its pin is released `ttlMillis` later unless it is used again. */
  readonly idleFrom: (key: K, now: number) => Effect.Effect<void>
  /** Releases the key's pin now. */
  readonly release: (key: K) => Effect.Effect<void>
}

/** Pins whose timers stop when the scope closes. */
export const make = <K, A>(options: {
  readonly ttlMillis: number
  /** Whether no request is using the key. */
  readonly idle: (key: K) => boolean
}): Effect.Effect<Pins<K, A>, never, Scope.Scope> =>
  Effect.gen(function* () {
    const runtime = yield* Effect.runtime<never>()
    const pins = new Map<K, { readonly value: A; readonly scope: Scope.CloseableScope }>()
    const expiry = new Map<K, number>()
    const timers = new Map<K, Fiber.RuntimeFiber<void>>()
    yield* Effect.addFinalizer(() => Effect.suspend(() => Fiber.interruptAll([...timers.values()])))

    const unpin = (key: K): Effect.Effect<void> =>
      Effect.suspend(() => {
        const pin = pins.get(key)
        expiry.delete(key)
        if (pin === undefined) return Effect.void
        pins.delete(key)
        return Scope.close(pin.scope, Exit.void)
      })

    /** One timer per idle pinned key: sleeps until its expiry, which a later request moves on. */
    const watch = (key: K): Effect.Effect<void> =>
      Effect.gen(function* () {
        while (true) {
          const at = expiry.get(key)
          if (at === undefined || !pins.has(key) || !options.idle(key)) return void timers.delete(key)
          const now = yield* Clock.currentTimeMillis
          if (now < at) {
            yield* Effect.sleep(at - now)
            continue
          }
          timers.delete(key)
          return yield* unpin(key)
        }
      })

    return {
      peek: (key) => pins.get(key)?.value,
      acquire: (key, get, use) =>
        Effect.suspend(() => {
          let kept = false
          return Effect.acquireUseRelease(
            Scope.make(),
            (scope) =>
              Effect.flatMap(Scope.extend(get, scope), (value) => {
                if (!pins.has(key)) {
                  pins.set(key, { value, scope })
                  kept = true
                }
                return use(value)
              }),
            (scope, exit) => (kept ? Effect.void : Scope.close(scope, exit))
          )
        }),
      idleFrom: (key, now) =>
        Effect.sync(() => {
          if (!pins.has(key)) return
          expiry.set(key, now + options.ttlMillis)
          if (timers.has(key)) return
          const timer = Runtime.runFork(runtime)(watch(key))
          // A timer that finished at once (no time to live) has released the pin itself.
          if (timer.unsafePoll() === null) timers.set(key, timer)
        }),
      release: (key) =>
        Effect.suspend(() => {
          const timer = timers.get(key)
          timers.delete(key)
          return Effect.zipRight(timer === undefined ? Effect.void : Fiber.interruptFork(timer), unpin(key))
        })
    }
  })
