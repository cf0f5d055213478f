/**
 * "Run every due maintenance job now" for one character or all of them (every character directory):
 * each character's actor drains its outbox, extracts facts past its cursor (powerful memory on) and
 * compresses a long history, then reports. Used by `kioku maintain --once` and
 * `POST /internal/maintenance/run_once`.
 */
import { Effect } from "effect"
import type { MaintenanceReport } from "../character/Commands.js"
import { KiokuConfig } from "../Config.js"
import { MemoryService } from "../MemoryService.js"
import * as CharacterDirs from "../store/CharacterDirs.js"

export const runOnce = (character?: string) =>
  Effect.gen(function* () {
    const memory = yield* MemoryService
    const { dataDir } = yield* KiokuConfig
    const names: ReadonlyArray<string> = character === undefined ? yield* CharacterDirs.list(dataDir) : [character]
    const reports: Array<MaintenanceReport> = yield* Effect.forEach(names, (name) => memory.maintainNow(name), {
      concurrency: 4
    })
    return { ran: reports }
  })
