/**
 * "Run every due maintenance job now" for one character or all of them (every character directory):
 * each character's actor drains its outbox, extracts facts past its cursor (powerful memory on) and
 * compresses a long history, then reports. Used by `kioku maintain --once` and
 * `POST /internal/maintenance/run_once`.
 */
import { Effect, Either } from "effect"
import { existsSync, readdirSync } from "node:fs"
import type { MaintenanceReport } from "../actor/Commands.js"
import { validateCharacterName } from "../domain/CharacterName.js"
import { KiokuConfig } from "../Config.js"
import { MemoryService } from "../MemoryService.js"

export const characters = (root: string): ReadonlyArray<string> =>
  existsSync(root)
    ? readdirSync(root, { withFileTypes: true })
        .filter((d) => d.isDirectory() && Either.isRight(validateCharacterName(d.name)))
        .map((d) => d.name)
    : []

export const runOnce = (character?: string) =>
  Effect.gen(function* () {
    const memory = yield* MemoryService
    const { dataDir } = yield* KiokuConfig
    const names = character === undefined ? characters(dataDir) : [character]
    const reports: Array<MaintenanceReport> = yield* Effect.forEach(names, (name) => memory.maintainNow(name), {
      concurrency: 4
    })
    return { ran: reports }
  })
