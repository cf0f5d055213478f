/**
 * The maintenance scheduler: each loop of `policies.loops` runs on its own schedule and fans out one
 * command per character (every character directory) through that character's mailbox. Idle maintenance
 * only runs when no request arrived for `idleAfter`. A failure for one character is logged and never stops
 * a loop.
 */
import { Duration, Effect, Layer } from "effect"
import { CharacterRegistry } from "../actor/CharacterRegistry.js"
import type { Command } from "../actor/Commands.js"
import { validateCharacterName } from "../domain/CharacterName.js"
import { KiokuConfig } from "../Config.js"
import { Activity } from "./Activity.js"
import { idleAfter, loops, loopSchedule, type Loop } from "./policies.js"
import { characters } from "./RunOnce.js"

const commandOf: Readonly<Record<Loop["name"], Command>> = {
  idle_maintenance: { _tag: "IdleMaintenance" },
  signal_extraction: { _tag: "SignalTick" },
  archive_sweep: { _tag: "ArchiveSweep" }
}

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
        .tell(name.right, commandOf[loop.name])
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
