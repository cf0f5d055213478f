/**
 * N.E.K.O.'s legacy flat layout (`<root>/<type>_<name>.json`, `time_indexed_<name>[.db]`) moved once into
 * per-character directories, as N.E.K.O. does at startup: for every configured character and every owner
 * decoded from a flat file name, each file moves to `<root>/<name>/<type>.json` unless that target exists
 * (an existing per-character file is never overwritten; the flat file stays and is reported). Symbolic links
 * and names that do not validate are left alone. A database moves with its `-wal`/`-shm`/`-journal`
 * sidecars, sidecars first and the database last, so an interrupted move leaves the database flat and the
 * next start retries the whole set.
 */
import { Effect, Either } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { validateCharacterName } from "../domain/CharacterName.js"
import { ensureDir, fsyncDir } from "./DurableFs.js"

/** Flat file pattern (`{name}` is the character) → file name inside the character's directory. */
export const legacyFiles: ReadonlyArray<readonly [string, string]> = [
  ["recent_{name}.json", "recent.json"],
  ["settings_{name}.json", "settings.json"],
  ["facts_{name}.json", "facts.json"],
  ["facts_archive_{name}.json", "facts_archive.json"],
  ["persona_{name}.json", "persona.json"],
  ["persona_corrections_{name}.json", "persona_corrections.json"],
  ["reflections_{name}.json", "reflections.json"],
  ["reflections_archive_{name}.json", "reflections_archive.json"],
  ["surfaced_{name}.json", "surfaced.json"],
  ["time_indexed_{name}", "time_indexed.db"],
  ["time_indexed_{name}.db", "time_indexed.db"]
]

const sidecars = ["-wal", "-shm", "-journal"] as const

const split = (pattern: string) => {
  const [prefix = "", suffix = ""] = pattern.split("{name}")
  return { prefix, suffix }
}

/** Longest suffix first, then longest prefix, so `time_indexed_A.db` is A's and `persona_corrections_A.json` too. */
const decodeOrder = [...legacyFiles]
  .map(([pattern]) => split(pattern))
  .sort((a, b) => b.suffix.length - a.suffix.length || b.prefix.length - a.prefix.length)

const lexists = (file: string): boolean => {
  try {
    fs.lstatSync(file)
    return true
  } catch {
    return false
  }
}

const isLink = (file: string): boolean => {
  try {
    return fs.lstatSync(file).isSymbolicLink()
  } catch {
    return false
  }
}

/** The character a flat root file belongs to, when its name is a legacy pattern around a valid name. */
export const ownerOf = (file: string): string | undefined => {
  if (sidecars.some((s) => file.endsWith(s))) return undefined
  for (const { prefix, suffix } of decodeOrder) {
    if (!file.startsWith(prefix) || !file.endsWith(suffix) || file.length <= prefix.length + suffix.length) continue
    const owner = file.slice(prefix.length, file.length - suffix.length)
    const valid = validateCharacterName(owner)
    if (Either.isRight(valid) && valid.right === owner) return owner
  }
  return undefined
}

/** Regular files in the memory root that follow a legacy flat pattern, with their owner. */
export const flatFiles = (root: string): ReadonlyArray<{ readonly file: string; readonly owner: string }> => {
  if (!fs.existsSync(root)) return []
  return fs
    .readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isFile())
    .flatMap((d) => {
      const owner = ownerOf(d.name)
      return owner === undefined ? [] : [{ file: d.name, owner }]
    })
    .sort((a, b) => a.file.localeCompare(b.file))
}

export interface LegacyReport {
  readonly moved: ReadonlyArray<{ readonly from: string; readonly to: string }>
  readonly kept: ReadonlyArray<{ readonly file: string; readonly reason: string }>
}

type Step = { readonly moved: boolean } | { readonly kept: string }

const moveOne = (root: string, name: string, flat: string, target: string): Step => {
  const from = path.join(root, flat)
  const to = path.join(root, name, target)
  if (!lexists(from)) return { moved: false }
  if (sidecars.some((s) => isLink(from + s))) return { kept: "a symbolic link is never moved" }
  if (lexists(to)) return { kept: `${name}/${target} exists and is never overwritten` }
  if (sidecars.some((s) => lexists(to + s))) return { kept: `${name}/${target} has stray sidecar files` }
  const done: Array<string> = []
  try {
    for (const s of sidecars) {
      if (!lexists(from + s)) continue
      fs.renameSync(from + s, to + s)
      done.push(s)
    }
    fs.renameSync(from, to)
    return { moved: true }
  } catch (e) {
    for (const s of done) fs.renameSync(to + s, from + s)
    return { kept: `move failed: ${e instanceof Error ? e.message : String(e)}` }
  }
}

/** Moves the flat files of `configured` characters and of every owner found in the root. */
export const migrate = (root: string, configured: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const owners = [...new Set([...configured, ...flatFiles(root).map((f) => f.owner)])]
    const moved: Array<{ from: string; to: string }> = []
    const kept: Array<{ file: string; reason: string }> = []
    for (const name of owners) {
      const valid = validateCharacterName(name)
      if (Either.isLeft(valid) || valid.right !== name) continue
      const present = legacyFiles.filter(([pattern]) => lexists(path.join(root, pattern.replace("{name}", name))))
      const links = present.filter(([pattern]) => isLink(path.join(root, pattern.replace("{name}", name))))
      kept.push(...links.map(([p]) => ({ file: p.replace("{name}", name), reason: "a symbolic link is never moved" })))
      if (present.length === links.length) continue
      const dir = path.join(root, name)
      if (isLink(dir) || (lexists(dir) && !fs.statSync(dir).isDirectory())) {
        kept.push(...present.map(([p]) => ({ file: p.replace("{name}", name), reason: `${name} is not a directory` })))
        continue
      }
      yield* ensureDir(dir)
      for (const [pattern, target] of present.filter((p) => !links.includes(p))) {
        const flat = pattern.replace("{name}", name)
        const step = moveOne(root, name, flat, target)
        if ("kept" in step) kept.push({ file: flat, reason: step.kept })
        else if (step.moved) moved.push({ from: flat, to: `${name}/${target}` })
      }
      yield* fsyncDir(dir)
    }
    if (moved.length > 0) yield* fsyncDir(root)
    return { moved, kept } satisfies LegacyReport
  })
