/**
 * The parts a character actor is made of, wired to one another: the recent-history lifecycle (compaction and
 * review), the memory commands, fact intake, scoped memory, recall with its vector seam, the outbox drain, the
 * maintenance commands, and the read lock that a query and whatever closes what a query reads hold.
 */
import { Effect, Option, type Scope } from "effect"
import type { CharacterName } from "../../domain/CharacterName.js"
import type { AppFiles } from "../../store/AppFiles.js"
import type { Tunables } from "../../Tunables.js"
import type { Speakers } from "../../domain/Speakers.js"
import type { EmbedderService } from "../../vectors/Embedder.js"
import type * as State from "../CharacterState.js"
import type { Command } from "../Commands.js"
import type { makeReads } from "../Reads.js"
import * as Compaction from "../../recent/Compaction.js"
import * as RecentLifecycle from "../../recent/RecentLifecycle.js"
import * as Reviewer from "../../recent/Reviewer.js"
import * as RecentEdit from "../../recent/RecentEdit.js"
import * as FactIntake from "../../facts/FactIntake.js"
import * as OutboxDrain from "../OutboxDrain.js"
import * as MemoryCommands from "../MemoryCommands.js"
import * as ScopedHandler from "../scoped/ScopedHandler.js"
import * as MaintenanceCommands from "../MaintenanceCommands.js"
import * as RecallVectors from "../../recall/RecallVectors.js"
import * as Recall from "../../recall/Recall.js"

export const make = (deps: {
  readonly name: CharacterName
  readonly tunables: Tunables
  readonly scope: Scope.Scope
  readonly files: typeof AppFiles.Service
  readonly embedder: EmbedderService
  readonly reads: ReturnType<typeof makeReads>
  readonly speakers: Effect.Effect<Speakers>
  readonly later: (command: Command, delayMillis?: number) => Effect.Effect<void>
  /** How many delayed commands not yet sent hold work the state does not show (Later.ts). */
  readonly waiting: () => number
  readonly tell: (command: Command) => Effect.Effect<void>
  /** Queues an outbox drain on the background lane now (OutboxDrain's `wake`). */
  readonly wakeDrain: (state: State.CharacterState) => Effect.Effect<void>
}) =>
  Effect.gen(function* () {
    const { name, scope, files, embedder, later } = deps
    const t = deps.tunables
    const speakerNames = deps.speakers
    const { contentLanguage, resolveLanguage } = deps.reads
    /** What compaction and the history review both take. */
    const derived = {
      tunables: t,
      scope,
      speakers: speakerNames,
      language: contentLanguage,
      later: (c: Command) => later(c)
    }
    const compaction = yield* Compaction.make(derived)
    const reviewer = yield* Reviewer.make(derived)

    const recent = yield* RecentLifecycle.make({
      tunables: t,
      compaction,
      reviewer,
      later,
      tell: deps.tell
    })
    const recentEdit = RecentEdit.make({ cancelReview: recent.cancelReview })

    const memory = yield* MemoryCommands.make({
      name,
      tunables: t,
      speakers: speakerNames,
      language: (state) => resolveLanguage(state, { language: Option.none(), renderLanguage: Option.none() })
    })
    const intake = yield* FactIntake.make<State.CharacterState>({
      tunables: t,
      scope,
      speakers: speakerNames,
      language: contentLanguage,
      later,
      afterFacts: memory.signals.mapFacts
    })
    const scoped = ScopedHandler.make({
      tunables: t,
      speakers: speakerNames,
      count: memory.count,
      trackMentions: memory.trackMentions,
      dedup: intake.dedup
    })
    const recallVectors = yield* RecallVectors.make(t.recall_turn_tier && t.recall_turn_vector_weight > 0)
    const recall = yield* Recall.make({ tunables: t, speakers: speakerNames, vectors: recallVectors.seam })
    const outbox = yield* OutboxDrain.make({
      name,
      tunables: t,
      extract: intake.onExtractOps,
      later,
      wake: deps.wakeDrain,
      afterTurns: memory.afterTurns
    })
    const { drain, scheduleDrain } = outbox
    /** Held by a query and by whatever closes what a query reads (handles, views, the state). */
    const readLock = yield* Effect.makeSemaphore(1)
    const locked = readLock.withPermits(1)
    const maintenance = MaintenanceCommands.make({
      name,
      tunables: t,
      files,
      embedder,
      intake,
      memory,
      recent,
      drain,
      later,
      vectorsSettled: (state) => locked(recall.offerPack(state)),
      deferred: (state) =>
        deps.waiting() > 0 ||
        recent.busy(state) ||
        recent.idleCheckArmed() ||
        reviewer.waiting() ||
        state.drainScheduled ||
        state.intake.turnsSince > 0 ||
        state.intake.windowFailures > 0 ||
        memory.rebuttalFailing()
    })
    return {
      reviewer,
      recent,
      recentEdit,
      memory,
      intake,
      scoped,
      recallVectors,
      recall,
      drain,
      scheduleDrain,
      maintenance,
      locked
    }
  })
