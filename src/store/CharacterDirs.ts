/**
 * Character directories under the memory root, for the memory browser and renames: which characters have a
 * `recent.json`, and moving one character's directory to a new name (made durable with an fsync of the root).
 * Callers stop the characters' actors first; nothing here touches a live character.
 */
import { Effect, Either } from "effect"
import { existsSync, lstatSync, readdirSync, renameSync } from "node:fs"
import * as path from "node:path"
import { validateCharacterName } from "../domain/CharacterName.js"
import { fsyncDir, StoreError } from "./DurableFs.js"

/** Names of the character directories (real directories with a valid name) holding a `recent.json`, sorted. */
export const withRecentFile = (root: string) =>
  Effect.try({
    try: () =>
      existsSync(root)
        ? readdirSync(root, { withFileTypes: true })
            .filter((d) => d.isDirectory() && Either.isRight(validateCharacterName(d.name)))
            .filter((d) => existsSync(path.join(root, d.name, "recent.json")))
            .map((d) => d.name)
            .sort()
        : [],
    catch: (e) => new StoreError({ op: "list", file: root, message: e instanceof Error ? e.message : String(e) })
  })

export const exists = (root: string, name: string): boolean => {
  try {
    return lstatSync(path.join(root, name)).isDirectory()
  } catch {
    return false
  }
}

export const renameDir = (root: string, from: string, to: string) =>
  Effect.try({
    try: () => renameSync(path.join(root, from), path.join(root, to)),
    catch: (e) =>
      new StoreError({ op: "rename", file: path.join(root, from), message: e instanceof Error ? e.message : String(e) })
  }).pipe(Effect.zipRight(fsyncDir(root)))
