/**
 * The maintenance scheduler: each enabled loop of `policies.loops` runs on its own schedule and fans out one
 * command per character with due work (the due-work index, DueWork.ts; every character directory when it
 * cannot be trusted, and in cluster mode) through that character's mailbox, one character at a time (each
 * answers when its job is done), so background work never floods the process; after the visit the character
 * reports what is left (`DueReport`) and one the pass had to load is closed again. Idle maintenance
 * only runs when no request arrived for `idleAfter`; the vector backfill only while the embedder has a model
 * (asking also starts loading it). A failure for one character is logged; a pass that fails or dies as a
 * whole is retried on the loop's restart backoff (`runLoop`), so nothing ends a loop.
 */
import { Deferred, Duration, Effect, Layer, Option } from "effect"
import type { ActorDefect } from "../runtime/Actor.js"
import * as CharacterDirs from "../store/CharacterDirs.js"
import type { StoreError } from "../store/DurableFs.js"
import { CharacterRegistry } from "../character/CharacterRegistry.js"
import type { Command } from "../character/Commands.js"
import { Placement } from "../runtime/Placement.js"
import { Embedder } from "../vectors/Embedder.js"
import { KiokuConfig } from "../Config.js"
import { Recovered } from "../RuntimeStatus.js"
import { Activity } from "./Activity.js"
import { idleAfter, loops, runLoop, type Loop } from "./policies.js"
import { DueWork, type DueReport } from "./DueWork.js"

type Reply = Deferred.Deferred<void, StoreError | ActorDefect>

/** The command a loop sends each character; `None` for a loop whose actor command is not wired yet. */
export const commandOf = (name: Loop["name"]): Option.Option<(reply: Reply) => Command> => {
  switch (name) {
    case "idle_maintenance":
      return Option.some((reply) => ({ _tag: "IdleMaintenance", reply }))
    case "signal_extraction":
      return Option.some((reply) => ({ _tag: "SignalTick", reply }))
    case "auto_promote":
      return Option.some((reply) => ({ _tag: "EvaluateReflections", reply }))
    case "reflection_synthesis":
      return Option.some((reply) => ({ _tag: "Synthesize", done: reply }))
    case "rebuttal":
      return Option.some((reply) => ({ _tag: "RebuttalTick", reply }))
    case "archive_sweep":
      return Option.some((reply) => ({ _tag: "ArchiveSweep", reply }))
    case "vector_backfill":
      return Option.some((reply) => ({ _tag: "VectorBackfill", reply }))
  }
}

/** Whether a loop should visit the characters now: idle maintenance waits for idleness, backfill for vectors. */
const due = (loop: Loop) =>
  Effect.gen(function* () {
    if (loop.name === "idle_maintenance") {
      const { tunables } = yield* KiokuConfig
      return (yield* (yield* Activity).idleFor) >= Duration.toMillis(idleAfter(tunables))
    }
    if (loop.name === "vector_backfill") return Option.isSome(yield* (yield* Embedder).modelId)
    return true
  })

export const fanOut = (loop: Loop, command: (reply: Reply) => Command) =>
  Effect.gen(function* () {
    const registry = yield* CharacterRegistry
    const placement = yield* Placement
    const dueWork = yield* DueWork
    const { dataDir } = yield* KiokuConfig
    if (!(yield* due(loop))) return
    const indexed = Option.isNone(placement.maintain) && (yield* dueWork.active)
    const epoch = loop.name === "vector_backfill" ? Option.getOrUndefined(yield* (yield* Embedder).modelId) : undefined
    const names = indexed ? yield* dueWork.due(loop.name, epoch) : yield* CharacterDirs.list(dataDir)
    const liveAtStart = new Set(yield* registry.active)
    for (const name of names) {
      if (!placement.owns(name)) continue
      const live = liveAtStart.has(name)
      const seq = yield* dueWork.begin(name)
      const report = registry
        .ask<DueReport, StoreError>(name, (reply) => ({ _tag: "DueReport", reply }))
        .pipe(Effect.tap((r) => (indexed ? dueWork.visited(name, loop.name, seq, r) : Effect.void)))
      // A character the pass loaded only for this visit is closed again once its background work is over,
      // so live actors follow the characters in use, not every character on disk — unless this loop's work
      // is not done (a vector backlog): its own follow-up tick carries on while it stays open.
      const visit = registry.ask<void, StoreError>(name, command).pipe(
        Effect.zipRight(
          live
            ? Effect.asVoid(report)
            : registry
                .ask<void, StoreError>(name, (reply) => ({ _tag: "AwaitBackground", reply }))
                .pipe(
                  Effect.zipRight(report),
                  Effect.flatMap((r) => (r.pending.includes(loop.name) ? Effect.void : registry.close(name)))
                )
        )
      )
      const tick = Option.match(placement.maintain, {
        onNone: () => visit,
        onSome: (maintain) => maintain(name, loop.name)
      })
      yield* tick.pipe(
        Effect.catchAll((e) =>
          Effect.logWarning("maintenance fan-out failed").pipe(
            Effect.annotateLogs({ loop: loop.name, error: e.message })
          )
        )
      )
    }
  })

/**
 * Once startup recovery is done (`Recovered`), starts every loop that has a command and, after
 * `vectors_warmup_delay_seconds`, the embedding warm-up (asking for the model id starts loading it); all of
 * them stop with the layer's scope.
 */
export const MaintenanceLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const recovered = yield* Recovered
    const { tunables } = yield* KiokuConfig
    const embedder = yield* Embedder
    const started = Effect.gen(function* () {
      yield* Deferred.await(recovered)
      const enabled = loops(tunables).filter((loop) => loop.enabled)
      yield* Effect.forEach(
        enabled.flatMap((loop) => Option.toArray(Option.map(commandOf(loop.name), (command) => ({ loop, command })))),
        ({ loop, command }) => Effect.forkScoped(runLoop(loop, fanOut(loop, command))),
        { discard: true }
      )
      yield* Effect.sleep(Duration.seconds(tunables.vectors_warmup_delay_seconds)).pipe(
        Effect.zipRight(embedder.modelId),
        Effect.forkScoped
      )
    })
    yield* Effect.forkScoped(started)
  })
)
