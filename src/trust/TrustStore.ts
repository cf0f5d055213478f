/**
 * The one holder of `<memory root>/speaker_trust.json`, shared by every character (trust is a property of
 * the person). The pool is read once and kept in memory; a missing file is a fresh pool (written on the
 * first change). A file that cannot be read or is not JSON closes the pool: snapshots are unloaded (every
 * read abstains) and every write is vetoed (`persisted: false`), so the file is never overwritten with an
 * empty pool; each later access reads the file again, so a repaired file is picked up without a restart.
 * Writes run one at a time (a semaphore): the mutator edits a clone, the clone is written atomically, and
 * only a write that landed is published. Timestamps are UTC ISO with microseconds, strictly increasing.
 * When several processes share the root (cluster runners, `Placement.sharedLock`), a write holds the shared
 * lock and starts from the file as it is on disk, and a snapshot reads the file again once its stamp changed,
 * so no runner overwrites another's change or keeps answering from an old pool.
 */
import { Clock, Effect, Either, Option, Ref } from "effect"
import * as path from "node:path"
import { KiokuConfig } from "../Config.js"
import { ensureDir, readText, sameStamp, stampOf, writeAtomic, type FileStamp } from "../store/DurableFs.js"
import { Placement } from "../runtime/Placement.js"
import { encodeJson } from "../store/ViewFile.js"
import type { Change } from "./IdentityGraph.js"
import { clonePool, emptyPool, type Pool } from "./Pool.js"
import { decodePoolText } from "./PoolFile.js"
import type { TrustSnapshot } from "./TrustSnapshot.js"

export const POOL_FILE = "speaker_trust.json"

/** Edits a draft; `Left` refuses the change (nothing is written). */
export type Mutator<A, E> = (draft: Pool, now: string) => Either.Either<Change<A>, E>

export interface Written<A> {
  readonly persisted: boolean
  /** Undefined when the write was vetoed (the pool is not loaded). */
  readonly value: A | undefined
}

const pad = (n: number, width: number) => String(n).padStart(width, "0")
const isoMicros = (micros: number) =>
  new Date(Math.floor(micros / 1000)).toISOString().replace(/Z$/, `${pad(micros % 1000, 3)}+00:00`)

export class TrustStore extends Effect.Service<TrustStore>()("app/trust/TrustStore", {
  effect: Effect.gen(function* () {
    const { dataDir } = yield* KiokuConfig
    const file = path.join(dataDir, POOL_FILE)
    const lastMicros = yield* Ref.make(0)
    const now = Effect.gen(function* () {
      const micros = (yield* Clock.currentTimeMillis) * 1000
      return isoMicros(yield* Ref.updateAndGet(lastMicros, (last) => Math.max(micros, last + 1)))
    })
    const shared = (yield* Placement).sharedLock
    /** The stamp of the file the pool in memory was read from or written to (shared roots only). */
    let seen: Option.Option<FileStamp> = Option.none()
    const stampNow = Effect.orElseSucceed(stampOf(file), () => Option.none<FileStamp>())
    const load: Effect.Effect<TrustSnapshot> = Effect.gen(function* () {
      const stamp = yield* now
      if (Option.isSome(shared)) seen = yield* stampNow
      const text = yield* Effect.either(readText(file))
      if (Either.isLeft(text)) {
        yield* Effect.logError("speaker trust pool unreadable; trust is read-only until it loads").pipe(
          Effect.annotateLogs({ file, error: text.left.message })
        )
        return { pool: emptyPool(stamp), loaded: false }
      }
      if (Option.isNone(text.right)) return { pool: emptyPool(stamp), loaded: true }
      const pool = decodePoolText(text.right.value, stamp)
      if (Either.isLeft(pool)) {
        yield* Effect.logError("speaker trust pool is not JSON; trust is read-only until it loads").pipe(
          Effect.annotateLogs({ file, error: pool.left })
        )
        return { pool: emptyPool(stamp), loaded: false }
      }
      return { pool: pool.right, loaded: true }
    })
    const state = yield* Ref.make(yield* load)
    const lock = yield* Effect.makeSemaphore(1)
    /** Whether another process rewrote the file since this one read or wrote it. */
    const changedOnDisk = Option.isNone(shared)
      ? Effect.succeed(false)
      : Effect.map(stampNow, (stamp) => !sameStamp(seen, stamp))
    const current = Effect.flatMap(Ref.get(state), (snap) =>
      Effect.flatMap(changedOnDisk, (changed) =>
        snap.loaded && !changed ? Effect.succeed(snap) : Effect.tap(load, (again) => Ref.set(state, again))
      )
    )

    /** The pool as of now, one consistent value for a whole request (retries the load while closed). */
    const snapshot: Effect.Effect<TrustSnapshot> = Effect.flatMap(Ref.get(state), (snap) =>
      Effect.flatMap(changedOnDisk, (changed) =>
        snap.loaded && !changed ? Effect.succeed(snap) : lock.withPermits(1)(current)
      )
    )
    /** Around a write: the lock other processes take for the same file, when there are any (else a veto). */
    const exclusive = <A, E>(work: Effect.Effect<Written<A>, E>): Effect.Effect<Written<A>, E> =>
      Option.match(shared, {
        onNone: () => work,
        onSome: (take) =>
          Effect.scoped(
            Effect.matchEffect(take("speaker-trust"), {
              onFailure: (e) =>
                Effect.logWarning("speaker trust pool lock not taken; the change is dropped").pipe(
                  Effect.annotateLogs({ file, error: e.message }),
                  Effect.as({ persisted: false, value: undefined })
                ),
              onSuccess: () => work
            })
          )
      })

    /** Runs one mutator as the only writer; an unchanged draft writes nothing and counts as persisted. */
    const write = <A, E = never>(mutator: Mutator<A, E>): Effect.Effect<Written<A>, E> =>
      lock.withPermits(1)(
        exclusive(
          Effect.gen(function* () {
            const snap = yield* current
            if (!snap.loaded) return { persisted: false, value: undefined }
            const draft = clonePool(snap.pool)
            const stamp = yield* now
            const change = mutator(draft, stamp)
            if (Either.isLeft(change)) return yield* Effect.fail(change.left)
            if (!change.right.dirty) return { persisted: true, value: change.right.value }
            draft.updated_at = stamp
            const landed = yield* ensureDir(dataDir).pipe(
              Effect.zipRight(writeAtomic(file, encodeJson(draft))),
              Effect.as(true),
              Effect.catchAll((e) =>
                Effect.logWarning("speaker trust pool write failed; the change is dropped").pipe(
                  Effect.annotateLogs({ file, error: e.message }),
                  Effect.as(false)
                )
              )
            )
            if (landed) yield* Ref.set(state, { pool: draft, loaded: true })
            if (landed && Option.isSome(shared)) seen = yield* stampNow
            return { persisted: landed, value: change.right.value }
          })
        )
      )

    return { file, snapshot, write } as const
  })
}) {}
