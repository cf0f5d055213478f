/**
 * Browser sessions behind the auth token: a session id is 32 random bytes (base64url), kept only in this
 * process's memory with its expiry (sign-in time plus the TTL, read from Effect's Clock), so a restart signs
 * every browser out and an id means nothing to any other server. At most `MAX_SESSIONS` live at once; a new
 * one beyond that replaces the one that expires first. The token itself is never stored or sent back.
 */
import { Clock, Context, Effect, Layer, Ref } from "effect"
import { createHash, randomBytes, timingSafeEqual } from "node:crypto"

export const MAX_SESSIONS = 256

export interface SessionStore {
  /** A new session id, valid for the TTL from now. */
  readonly create: Effect.Effect<string>
  /** True when `id` names a session that has not expired (an expired one is dropped). */
  readonly valid: (id: string) => Effect.Effect<boolean>
  readonly revoke: (id: string) => Effect.Effect<void>
  readonly ttlSeconds: number
}

export class Sessions extends Context.Tag("app/http/Sessions")<Sessions, SessionStore>() {
  static readonly layer = (ttlSeconds: number) => Layer.effect(Sessions, make(ttlSeconds))
}

/** Compares two secrets in time independent of where they differ (SHA-256 digests have equal length). */
export const secretsMatch = (given: string, expected: string): boolean =>
  timingSafeEqual(createHash("sha256").update(given).digest(), createHash("sha256").update(expected).digest())

const make = (ttlSeconds: number) =>
  Effect.gen(function* () {
    const live = yield* Ref.make<ReadonlyMap<string, number>>(new Map())
    const ttlMillis = ttlSeconds * 1000
    const create = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const id = randomBytes(32).toString("base64url")
      yield* Ref.update(live, (sessions) => {
        const kept = [...sessions].filter(([, expires]) => expires > now).sort((a, b) => b[1] - a[1])
        return new Map([...kept.slice(0, MAX_SESSIONS - 1), [id, now + ttlMillis]])
      })
      return id
    })
    const valid = (id: string) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const expires = (yield* Ref.get(live)).get(id)
        if (expires === undefined) return false
        if (expires > now) return true
        yield* revoke(id)
        return false
      })
    const revoke = (id: string) => Ref.update(live, (sessions) => new Map([...sessions].filter(([key]) => key !== id)))
    return { create, valid, revoke, ttlSeconds } satisfies SessionStore
  })
