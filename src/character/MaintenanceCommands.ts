/**
 * The maintenance commands of a character actor, sent by the scheduler's loops or by `maintainNow`: the
 * extraction tick, idle maintenance (retry of failed outbox ops, compression, dedup arbitration, corrections,
 * review), the vector backfill (memories, and raw turns while the turn tier uses vectors; again after
 * `embedding_active_poll_seconds` while entries still lack a vector; once none lacks one, the recall index's
 * packed vectors are offered), the archive and evidence sweep, and
 * `MaintainNow`, which runs every due job at once and reports; its backfill first waits for the embedding model
 * and then runs until every memory and turn has a vector; `DueReport`, what the due-work index needs to know
 * after a visit. All of them run on the character's background lane (Lane.ts).
 */
import { Clock, Deferred, Effect } from "effect"
import { existsSync } from "node:fs"
import * as path from "node:path"
import type { CharacterName } from "../domain/CharacterName.js"
import { Embedder, type EmbedderService } from "../vectors/Embedder.js"
import type { AppFiles } from "../store/AppFiles.js"
import type { Tunables } from "../Tunables.js"
import * as State from "./CharacterState.js"
import type { Command } from "./Commands.js"
import type * as FactIntake from "../facts/FactIntake.js"
import type * as MemoryCommands from "./MemoryCommands.js"
import type { RecentLifecycle } from "../recent/RecentLifecycle.js"
import * as TurnVectors from "../vectors/TurnVectors.js"
import * as VectorBackfill from "../vectors/VectorBackfill.js"

type Built<F extends (...args: never) => Effect.Effect<unknown, unknown, unknown>> = Effect.Effect.Success<
  ReturnType<F>
>

export const make = (deps: {
  readonly name: CharacterName
  readonly tunables: Tunables
  readonly files: typeof AppFiles.Service
  readonly embedder: EmbedderService
  readonly intake: FactIntake.Intake<State.CharacterState>
  readonly memory: Built<typeof MemoryCommands.make>
  readonly recent: RecentLifecycle
  readonly drain: (state: State.CharacterState, force?: boolean) => Effect.Effect<number>
  readonly later: (command: Command, delayMillis?: number) => Effect.Effect<void>
  /** After a backfill tick changed vectors and left none to make (the recall index's pack is offered). */
  readonly vectorsSettled: (state: State.CharacterState) => Effect.Effect<void>
  /** Whether the actor holds work for later that only time brings back (timers, retries, turns to extract). */
  readonly deferred: (state: State.CharacterState) => boolean
}) => {
  const { intake, memory, recent, files } = deps
  const t = deps.tunables
  const turnVectors = t.recall_turn_tier && t.recall_turn_vector_weight > 0
  let backlogPoll = false
  const backfill = (state: State.CharacterState) =>
    Effect.gen(function* () {
      const memories = yield* VectorBackfill.backfill(state, t.embedding_max_entries_per_tick)
      const turns = turnVectors
        ? yield* TurnVectors.backfillTurns(state, t.recall_turn_vectors_per_tick)
        : { ready: memories.ready, embedded: 0, more: false }
      const changed = memories.embedded + memories.imported + memories.pruned > 0
      if (memories.ready && changed && memories.pending === 0) yield* deps.vectorsSettled(state)
      return { memories, turns }
    }).pipe(Effect.provideService(Embedder, deps.embedder))

  /** One backfill tick; while entries still lack a vector, another after `embedding_active_poll_seconds`. */
  const tick = (state: State.CharacterState) =>
    Effect.gen(function* () {
      backlogPoll = false
      const { memories, turns } = yield* backfill(state)
      state.vectorBacklog = memories.ready && (memories.pending > 0 || turns.more)
      if (!memories.ready || (memories.pending === 0 && !turns.more) || backlogPoll) return
      backlogPoll = true
      yield* deps.later({ _tag: "VectorBackfill" }, t.embedding_active_poll_seconds * 1000)
    })

  /** Waits for the embedding model, then backfills memories and turns until nothing is left (or no progress). */
  const backfillAll = (state: State.CharacterState) =>
    Effect.gen(function* () {
      yield* deps.embedder.ready
      for (;;) {
        const { memories, turns } = yield* backfill(state)
        const progress = memories.embedded + memories.imported + turns.embedded > 0
        if (!memories.ready || !progress || (memories.pending === 0 && !turns.more)) return
      }
    })

  /** Handles one maintenance command; false when `c` is not one. */
  const handle = (state: State.CharacterState, c: Command) =>
    Effect.gen(function* () {
      switch (c._tag) {
        case "SignalTick":
          yield* intake.tick(state)
          if (c.reply) yield* Deferred.succeed(c.reply, undefined)
          return true
        case "IdleMaintenance":
          // Ops that failed earlier (a provider outage) are retried here, not only when the next turn arrives.
          if (state.outbox.pending().length > 0) yield* deps.drain(state)
          yield* recent.request(state, true, false)
          if ((yield* files.core).powerful_memory_enabled) yield* Effect.ignoreLogged(intake.arbitrate(state))
          yield* memory.handle(state, { _tag: "ResolveCorrections" })
          yield* recent.send(state, { type: "review.wanted" })
          if (c.reply) yield* Deferred.succeed(c.reply, undefined)
          return true
        case "VectorBackfill":
          yield* tick(state)
          if (c.reply) yield* Deferred.succeed(c.reply, undefined)
          return true
        case "ArchiveSweep":
          yield* Effect.ignoreLogged(intake.sweep(state))
          yield* memory.handle(state, { _tag: "EvidenceSweep" })
          if (c.reply) yield* Deferred.succeed(c.reply, undefined)
          return true
        case "DueReport": {
          const now = yield* Clock.currentTimeMillis
          const held = ["facts.json", "reflections.json", "persona.json"]
          yield* Deferred.succeed(c.reply, {
            quietFor: state.lastChangeAt === 0 ? Number.POSITIVE_INFINITY : now - state.lastChangeAt,
            pending: [
              ...(state.outbox.pending().length > 0 ? ["idle_maintenance"] : []),
              ...(state.vectorBacklog ? ["vector_backfill"] : [])
            ],
            timeBound: held.some((f) => existsSync(path.join(state.dir, f))),
            deferred: deps.deferred(state),
            exists: state.exists()
          })
          return true
        }
        case "MaintainNow": {
          const outboxOps = yield* deps.drain(state, true)
          const powerful = (yield* files.core).powerful_memory_enabled
          const factsAdded = powerful ? yield* Effect.orElseSucceed(intake.runWindow(state), () => 0) : 0
          const factsMerged = powerful ? yield* Effect.orElseSucceed(intake.arbitrate(state), () => 0) : 0
          const added = yield* Effect.orElseSucceed(memory.synth.synthesize(state), () => undefined)
          const scoped = yield* Effect.orElseSucceed(memory.synth.synthesizeScoped(state), () => undefined)
          const changed = yield* Effect.orElseSucceed(memory.evaluate(state), () => 0)
          const swept = yield* Effect.orElseSucceed(memory.sweep.sweep(state), () => 0)
          yield* memory.handle(state, { _tag: "RebuttalTick" })
          yield* backfillAll(state)
          yield* memory.handle(state, { _tag: "ResolveCorrections" })
          const compressed = yield* recent.request(state, true, false)
          const report = {
            character: deps.name,
            outboxOps,
            factsAdded,
            factsMerged,
            reflectionsAdded: (added === undefined ? 0 : 1) + (scoped === undefined ? 0 : 1),
            reflectionsChanged: changed,
            evidenceSwept: swept,
            compressed
          }
          state.quietWaiters.push(Effect.asVoid(Deferred.succeed(c.reply, report)))
          return true
        }
        default:
          return false
      }
    })

  return { handle }
}
