/**
 * Character directories under the memory root, the one lister every caller uses (startup, the maintenance
 * loops, run-once, the browser, state charts): a character directory is a real directory whose name is a
 * valid character name as it stands — a name validation would change (such as "Mio ", trimmed to "Mio") is
 * not a character, so nothing is ever sent to an actor of another name. Also moving one character's
 * directory to a new name (made durable with an fsync of the root). Callers stop the characters' actors
 * first; nothing here touches a live character.
 */
import { Effect, Either } from "effect"
import { existsSync, lstatSync, readdirSync, renameSync } from "node:fs"
import * as path from "node:path"
import { type CharacterName, validateCharacterName } from "../domain/CharacterName.js"
import { fsyncDir, StoreError } from "./DurableFs.js"

const listed = (root: string, f: () => ReadonlyArray<CharacterName>) =>
  Effect.try({
    try: f,
    catch: (e) => new StoreError({ op: "list", file: root, message: e instanceof Error ? e.message : String(e) })
  })

/** A directory entry's name as a character name, when validation keeps it exactly as it is. */
export const characterOf = (entry: string): ReadonlyArray<CharacterName> => {
  const name = validateCharacterName(entry)
  return Either.isRight(name) && name.right === entry ? [name.right] : []
}

const names = (root: string): ReadonlyArray<CharacterName> =>
  existsSync(root)
    ? readdirSync(root, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .flatMap((d) => characterOf(d.name))
        .sort()
    : []

/** The character directories under `root`, sorted; none when `root` does not exist. */
export const list = (root: string) => listed(root, () => names(root))

/** The character directories holding a `recent.json`, sorted. */
export const withRecentFile = (root: string) =>
  listed(root, () => names(root).filter((name) => existsSync(path.join(root, name, "recent.json"))))

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
