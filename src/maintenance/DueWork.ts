/**
 * Which characters the maintenance loops must visit, kept in the due-work index (store/DueIndex.ts). A
 * character's actor marks it before every journal write; a loop's visit that ends with nothing left for that
 * loop settles it for that loop once the actor keeps no work for later in memory (`deferred`) or the
 * character has been quiet for `maintenance_settle_seconds`; a character holding
 * memory is looked at again by the time-driven loops every `maintenance_recheck_seconds`. Marks already
 * covering the last visit's start are skipped, so a busy character writes the index about once per visit, not
 * per turn. The index is trusted only when the last process that held the root kept it (`RootHolder`); else,
 * when it is missing, or without the root lock (cluster mode), every character is due once (one scan) or the
 * loops list every directory as before. A failing index write switches to listing for the process's life and
 * deletes the file, so the next start rebuilds it: the index can cost a visit, never skip one.
 */
import { Clock, Context, Effect, Layer, Option } from "effect"
import { readFileSync, rmSync } from "node:fs"
import * as path from "node:path"
import { KiokuConfig } from "../Config.js"
import type { CharacterName } from "../domain/CharacterName.js"
import * as CharacterDirs from "../store/CharacterDirs.js"
import * as DueIndex from "../store/DueIndex.js"
import { RootHolder } from "../store/RootLock.js"
import { writeAtomic, type StoreError } from "../store/DurableFs.js"
import { LoopName } from "./policies.js"

/** What a character says of itself after a visit (the `DueReport` command). */
export interface DueReport {
  /** Milliseconds since its last journal write in this actor's life (infinite when none). */
  readonly quietFor: number
  /** Loops that still have work queued for it (pending outbox ops, a vector backlog). */
  readonly pending: ReadonlyArray<string>
  /** Whether it holds memory that time alone changes (facts, reflections, persona). */
  readonly timeBound: boolean
  /**
   * Whether it keeps work in memory that only time brings back (a scheduled command, a retry, an idle check,
   * turns waiting for an extraction window); such work is lost if the actor closes, so the loops look again.
   */
  readonly deferred: boolean
  readonly exists: boolean
}

/** The loops whose work comes due with time alone (promotion, sweeps, dead-letter probes). */
const TIMED: ReadonlyArray<LoopName> = ["idle_maintenance", "auto_promote", "reflection_synthesis", "archive_sweep"]

export interface DueWorkService {
  /** Whether the loops can rely on the index (else they list every directory). */
  readonly active: Effect.Effect<boolean>
  /** Before a journal write of `name`. Never fails: a failing index is given up. */
  readonly mark: (name: CharacterName) => Effect.Effect<void>
  /** The characters `loop` must visit now; `epoch` (e.g. the embedding model) makes all due when it changes. */
  readonly due: (loop: LoopName, epoch?: string) => Effect.Effect<ReadonlyArray<CharacterName>, StoreError>
  /**
   * Characters marked since the last settled visit of any loop, so possibly with journal lines past their
   * sentinel or pending ops (startup recovery warms these); none when the index is not trusted.
   */
  readonly unsettled: Effect.Effect<Option.Option<ReadonlyArray<CharacterName>>>
  /** Notes a visit beginning; its sequence goes to `visited`. */
  readonly begin: (name: CharacterName) => Effect.Effect<number>
  readonly visited: (name: CharacterName, loop: LoopName, seq: number, report: DueReport) => Effect.Effect<void>
}

export class DueWork extends Context.Tag("app/maintenance/DueWork")<DueWork, DueWorkService>() {
  /** Always lists every directory: for runtimes without a root lock of their own. */
  static readonly listing: DueWorkService = {
    active: Effect.succeed(false),
    mark: () => Effect.void,
    due: () => Effect.succeed([]),
    unsettled: Effect.succeedNone,
    begin: () => Effect.succeed(0),
    visited: () => Effect.void
  }

  static readonly layer = Layer.scoped(
    DueWork,
    Effect.gen(function* () {
      const { dataDir, tunables } = yield* KiokuConfig
      const holder = yield* Effect.serviceOption(RootHolder)
      if (Option.isNone(holder)) return DueWork.listing
      const names = yield* CharacterDirs.list(dataDir)
      const opened = yield* Effect.either(DueIndex.open(dataDir, LoopName.literals))
      if (opened._tag === "Left") {
        yield* Effect.logError("due-work index unavailable; maintenance lists every directory").pipe(
          Effect.annotateLogs({ error: opened.left.message })
        )
        return DueWork.listing
      }
      const { index, fresh } = opened.right
      yield* Effect.addFinalizer(() => Effect.sync(() => index.close()))
      const holderFile = path.join(dataDir, DueIndex.HOLDER_FILE)
      const trusted = !fresh && recorded(holderFile) === holder.value.previous
      let broken = false
      const guard = <A>(op: string, f: () => A, fallback: A): Effect.Effect<A> =>
        Effect.suspend(() => {
          if (broken) return Effect.succeed(fallback)
          try {
            return Effect.succeed(f())
          } catch (e) {
            broken = true
            return Effect.logError("due-work index failed; maintenance lists every directory until restart").pipe(
              Effect.annotateLogs({ op, error: e instanceof Error ? e.message : String(e) }),
              Effect.zipRight(Effect.sync(() => forget(dataDir))),
              Effect.as(fallback)
            )
          }
        })
      const ok = yield* guard(
        "reconcile",
        () => {
          index.reconcile(names, !trusted)
          return true
        },
        false
      )
      if (ok)
        yield* writeAtomic(holderFile, holder.value.current).pipe(
          Effect.catchAll((e) =>
            Effect.logWarning("due-work holder not recorded; the next start rebuilds the index").pipe(
              Effect.annotateLogs({ error: e.message })
            )
          )
        )
      if (!trusted)
        yield* Effect.logInfo("due-work index rebuilt").pipe(Effect.annotateLogs({ characters: names.length }))
      /** The latest visit start, the latest mark and the latest change (ms) of each character in this process. */
      const started = new Map<string, number>()
      const marked = new Map<string, number>()
      const changedAt = new Map<string, number>()
      const settleMs = tunables.maintenance_settle_seconds * 1000
      const recheckMs = tunables.maintenance_recheck_seconds * 1000
      const service: DueWorkService = {
        active: Effect.sync(() => !broken),
        mark: (name) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) => {
            changedAt.set(name, now)
            const last = marked.get(name)
            if (last !== undefined && last > (started.get(name) ?? -1)) return Effect.void
            return guard("mark", () => void marked.set(name, index.mark(name)), undefined)
          }),
        due: (loop, epoch) =>
          Effect.gen(function* () {
            if (broken) return yield* CharacterDirs.list(dataDir)
            const now = yield* Clock.currentTimeMillis
            const due = yield* guard(
              "due",
              () => {
                if (epoch !== undefined) index.epoch(loop, epoch)
                index.fire(TIMED, now)
                return index.dueFor(loop).flatMap(CharacterDirs.characterOf)
              },
              undefined
            )
            return due ?? (yield* CharacterDirs.list(dataDir))
          }),
        unsettled: Effect.suspend(() =>
          trusted && ok && !broken
            ? Effect.map(
                guard("unsettled", () => index.unsettled().flatMap(CharacterDirs.characterOf), undefined),
                Option.fromNullable
              )
            : Effect.succeedNone
        ),
        begin: (name) =>
          Effect.sync(() => {
            const seq = broken ? 0 : index.next()
            started.set(name, seq)
            return seq
          }),
        visited: (name, loop, seq, report) =>
          Effect.gen(function* () {
            const now = yield* Clock.currentTimeMillis
            const quietFor = Math.min(report.quietFor, now - (changedAt.get(name) ?? Number.NEGATIVE_INFINITY))
            const settled = (quietFor >= settleMs || !report.deferred) && !report.pending.includes(loop)
            const timer = report.timeBound ? now + recheckMs : null
            yield* guard(
              "visited",
              () => (report.exists ? index.visited(name, loop, seq, settled, timer) : index.remove(name)),
              undefined
            )
          })
      }
      return service
    })
  )
}

const forget = (root: string) => {
  const file = path.join(root, DueIndex.FILE)
  for (const f of [file, `${file}-wal`, `${file}-shm`, path.join(root, DueIndex.HOLDER_FILE)])
    rmSync(f, { force: true })
}

const recorded = (file: string): string | undefined => {
  try {
    return readFileSync(file, "utf8")
  } catch {
    return undefined
  }
}
