/**
 * The maintenance scheduler: each loop of `policies.loops` runs on its own schedule and fans out one
 * command per character (every character directory) through that character's mailbox, one character at a
 * time (each answers when its job is done), so background work never floods the process. Idle maintenance
 * only runs when no request arrived for `idleAfter`. A failure for one character is logged and never stops
 * a loop.
 */
import { Duration, Effect, Layer, type Deferred } from "effect"
import type { ActorDefect } from "../actor/Actor.js"
import type { StoreError } from "../store/DurableFs.js"
import { CharacterRegistry } from "../actor/CharacterRegistry.js"
import type { Command } from "../actor/Commands.js"
import { validateCharacterName } from "../domain/CharacterName.js"
import { KiokuConfig } from "../Config.js"
import { Activity } from "./Activity.js"
import { idleAfter, loops, loopSchedule, type Loop } from "./policies.js"
import { characters } from "./RunOnce.js"

const commandOf = (name: Loop["name"], reply: Deferred.Deferred<void, StoreError | ActorDefect>): Command =>
  name === "idle_maintenance"
    ? { _tag: "IdleMaintenance", reply }
    : name === "signal_extraction"
      ? { _tag: "SignalTick", reply }
      : name === "auto_promote"
        ? { _tag: "EvaluateReflections", reply }
        : name === "reflection_synthesis"
          ? { _tag: "Synthesize", done: reply }
          : name === "rebuttal"
            ? { _tag: "RebuttalTick", reply }
            : { _tag: "ArchiveSweep", reply }

export const fanOut = (loop: Loop) =>
  Effect.gen(function* () {
    const registry = yield* CharacterRegistry
    const activity = yield* Activity
    const { dataDir } = yield* KiokuConfig
    if (loop.name === "idle_maintenance" && (yield* activity.idleFor) < Duration.toMillis(idleAfter)) return
    for (const dir of characters(dataDir)) {
      const name = validateCharacterName(dir)
      if (name._tag === "Left") continue
      yield* registry
        .ask<void, StoreError>(name.right, (reply) => commandOf(loop.name, reply))
        .pipe(
          Effect.catchAll((e) =>
            Effect.logWarning("maintenance fan-out failed").pipe(
              Effect.annotateLogs({ loop: loop.name, error: e.message })
            )
          )
        )
    }
  })

/** Starts every loop; they stop with the layer's scope. */
export const MaintenanceLive = Layer.scopedDiscard(
  Effect.forEach(
    loops,
    (loop) =>
      Effect.sleep(loop.first).pipe(
        Effect.zipRight(Effect.repeat(fanOut(loop), loopSchedule(loop))),
        Effect.forkScoped
      ),
    { discard: true }
  )
)
