/**
 * Startup recovery (neko-compat §4.14), run while the runtime is in limited mode: the legacy flat layout
 * moves into per-character directories and flat reflection archives into shards (file migrations, before
 * any actor owns the directories); then every character (a directory or a `characters.json` entry) gets its
 * actor loaded, which reconciles the journal past the sentinel (awaited) and spawns the outbox replay (not
 * awaited), and its persona ensured (character-card sync, legacy `settings.json` import, the one-time
 * evidence migration). With a trusted due-work index (DueWork.ts) only the configured characters and those
 * with due work are loaded: a character marked settled has no journal line past its sentinel and no pending
 * op, since every journal write marks it due first; of the others (every directory without a trusted index)
 * only those whose journal's last event is not the sentinel's or whose outbox holds an open op
 * (store/JournalTail.ts) are loaded.
 * Only then is the runtime ready and `Recovered` completed, which starts the maintenance loops and the
 * embedding warm-up.
 */
import { Clock, Deferred, Effect, Option, Ref } from "effect"
import * as path from "node:path"
import { CharacterRegistry } from "./character/CharacterRegistry.js"
import { Placement } from "./runtime/Placement.js"
import type { PersonaFile } from "./persona/Persona.js"
import { KiokuConfig } from "./Config.js"
import { Recovered, RuntimeStatus } from "./RuntimeStatus.js"
import { AppFiles } from "./store/AppFiles.js"
import type { StoreError } from "./store/DurableFs.js"
import * as CharacterDirs from "./store/CharacterDirs.js"
import * as JournalTail from "./store/JournalTail.js"
import * as FlatArchive from "./store/FlatArchive.js"
import * as LegacyLayout from "./store/LegacyLayout.js"
import { DueWork } from "./maintenance/DueWork.js"

const migrateFiles = (root: string, configured: ReadonlyArray<string>, maxPerShard: number) =>
  Effect.gen(function* () {
    const legacy = yield* LegacyLayout.migrate(root, configured)
    if (legacy.moved.length > 0 || legacy.kept.length > 0) {
      yield* Effect.logInfo("legacy flat layout migrated").pipe(
        Effect.annotateLogs({ moved: legacy.moved.length, kept: legacy.kept.length })
      )
    }
    for (const k of legacy.kept) {
      yield* Effect.logWarning("legacy flat file left in place").pipe(Effect.annotateLogs({ ...k }))
    }
    const now = yield* Clock.currentTimeMillis
    for (const name of yield* CharacterDirs.list(root)) {
      yield* FlatArchive.migrate(path.join(root, name), { maxPerShard, now })
    }
  })

export const recover = Effect.gen(function* () {
  const settings = yield* KiokuConfig
  const registry = yield* CharacterRegistry
  const status = yield* RuntimeStatus
  const files = yield* AppFiles
  const placement = yield* Placement
  yield* Ref.set(status, { _tag: "initializing" })
  const started = yield* Clock.currentTimeMillis
  const configured = (yield* files.characters).characters
  yield* migrateFiles(settings.dataDir, configured, settings.tunables.archive_file_max_entries).pipe(
    Effect.catchAll((e) =>
      Effect.logError("startup file migration failed").pipe(Effect.annotateLogs({ error: e.message }))
    )
  )
  // In cluster mode a runner recovers only the characters whose shard it owns.
  const dirs = yield* CharacterDirs.list(settings.dataDir).pipe(
    Effect.catchAll((e) =>
      Effect.logError("character directories unreadable").pipe(Effect.annotateLogs({ error: e.message }), Effect.as([]))
    )
  )
  // Of the characters the due-work index calls unsettled (every directory without a trusted index), only those
  // with journal events to replay or outbox ops to drain are loaded; time-driven work waits for the
  // maintenance passes, for which they stay due.
  const unsettled = yield* (yield* DueWork).unsettled
  const listed = Option.getOrElse(unsettled, () => dirs).filter((name) =>
    JournalTail.recoveryDue(path.join(settings.dataDir, name))
  )
  const names = [...new Set([...listed, ...configured.flatMap(CharacterDirs.characterOf)])].filter((n) =>
    placement.owns(n)
  )
  yield* Effect.forEach(
    names,
    (name) =>
      registry.warm(name).pipe(
        Effect.zipRight(registry.ask<PersonaFile, StoreError>(name, (reply) => ({ _tag: "GetPersona", reply }))),
        Effect.catchAll((e) =>
          Effect.logError("character recovery failed").pipe(Effect.annotateLogs({ character: name, error: e.message }))
        )
      ),
    { concurrency: 4, discard: true }
  )
  const elapsed = (yield* Clock.currentTimeMillis) - started
  yield* Effect.logInfo("startup recovery done").pipe(Effect.annotateLogs({ characters: names.length, ms: elapsed }))
  yield* Ref.set(status, { _tag: "ready" })
  yield* Deferred.succeed(yield* Recovered, undefined)
})
