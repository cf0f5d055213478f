/**
 * Startup recovery, run before the runtime leaves limited mode: every character directory that has a
 * journal or an outbox gets its actor loaded, which replays journal events past the sentinel (awaited) and
 * schedules the outbox replay (not awaited).
 */
import { Effect, Either, Ref } from "effect"
import { existsSync, readdirSync } from "node:fs"
import * as path from "node:path"
import { CharacterRegistry } from "./actor/CharacterRegistry.js"
import { Placement } from "./actor/Placement.js"
import { validateCharacterName } from "./domain/CharacterName.js"
import { KiokuConfig } from "./Config.js"
import { RuntimeStatus } from "./RuntimeStatus.js"

const characterDirs = (root: string): ReadonlyArray<string> => {
  if (!existsSync(root)) return []
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
}

export const recover = Effect.gen(function* () {
  const settings = yield* KiokuConfig
  const registry = yield* CharacterRegistry
  const status = yield* RuntimeStatus
  const placement = yield* Placement
  yield* Ref.set(status, { _tag: "initializing" })
  const started = yield* Effect.clockWith((c) => c.currentTimeMillis)
  let loaded = 0
  yield* Effect.forEach(
    characterDirs(settings.dataDir),
    (dir) => {
      const name = validateCharacterName(dir)
      const full = path.join(settings.dataDir, dir)
      const hasJournal = existsSync(path.join(full, "events.ndjson")) || existsSync(path.join(full, "outbox.ndjson"))
      if (Either.isLeft(name) || name.right !== dir || !hasJournal || !placement.owns(name.right)) return Effect.void
      loaded++
      return registry
        .warm(name.right)
        .pipe(
          Effect.catchAll((e) =>
            Effect.logError("character recovery failed").pipe(Effect.annotateLogs({ character: dir, error: e.message }))
          )
        )
    },
    { concurrency: 4, discard: true }
  )
  const elapsed = (yield* Effect.clockWith((c) => c.currentTimeMillis)) - started
  yield* Effect.logInfo("startup recovery done").pipe(Effect.annotateLogs({ characters: loaded, ms: elapsed }))
  yield* Ref.set(status, { _tag: "ready" })
})
