/**
 * `kioku doctor`: a read-only health check of a memory root and its config folder. It tells whether a
 * server holds the root's lock, checks every character directory (CharacterCheck), the root's own files
 * (legacy flat files still to move, temp files, unknown entries) and `config/core_config.json` /
 * `config/characters.json`, and reports each problem with its fix. Never writes.
 */
import Database from "better-sqlite3"
import { Effect, Either, Option, Schema } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { validateCharacterName } from "../domain/CharacterName.js"
import * as LegacyLayout from "../store/LegacyLayout.js"
import { checkCharacter } from "./CharacterCheck.js"
import { collector, errorText, type Collector, type DoctorReport } from "./Findings.js"

const rootKnown = new Set([
  ".kioku.lock",
  ".kioku.lock.pid",
  ".kioku.lock.server",
  ".kioku.lock-journal",
  "idle_maintenance_state.json",
  "speaker_trust.json"
])

/** Whether another process holds the root's lock: a reader is refused while the holder's exclusive lock lasts. */
export const lockHolder = (root: string): { readonly running: boolean; readonly pid: string | null } => {
  const file = path.join(root, ".kioku.lock")
  let pid: string | null = null
  try {
    pid = fs.readFileSync(path.join(root, ".kioku.lock.pid"), "utf8").trim()
  } catch {
    pid = null
  }
  if (!fs.existsSync(file)) return { running: false, pid }
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 0 })
    try {
      db.prepare("SELECT COUNT(*) FROM sqlite_master").get()
      return { running: false, pid }
    } finally {
      db.close()
    }
  } catch (e) {
    return { running: e instanceof Error && /locked|busy/i.test(e.message), pid }
  }
}

const Obj = Schema.Record({ key: Schema.String, value: Schema.Unknown })
const decodeObjText = Schema.decodeUnknownEither(Schema.parseJson(Obj))
const decodeObj = Schema.decodeUnknownOption(Obj)

const readJsonObject = (file: string, rel: string, c: Collector) => {
  let text: string
  try {
    text = fs.readFileSync(file, "utf8")
  } catch (e) {
    if (e instanceof Error && "code" in e && e.code === "ENOENT") return Option.none()
    c.problem(rel, `cannot be read: ${errorText(e)}`, "check its permissions and owner (chmod u+rw)")
    return Option.none()
  }
  const obj = decodeObjText(text)
  if (Either.isLeft(obj)) {
    c.problem(rel, "is not a JSON object", "repair it or restore it from a backup (kioku reads it as defaults)")
    return Option.none()
  }
  return Option.some(obj.right)
}

/** Checks the config folder; returns the characters `characters.json` lists. */
export const checkConfig = (configDir: string, c: Collector): ReadonlyArray<string> => {
  const core = readJsonObject(path.join(configDir, "core_config.json"), "config/core_config.json", c)
  for (const key of ["powerful_memory_enabled", "recent_memory_auto_review"]) {
    const v = Option.getOrUndefined(core)?.[key]
    if (v !== undefined && typeof v !== "boolean") {
      c.problem("config/core_config.json", `${key} is not true/false`, `set "${key}" to true or false`)
    }
  }
  const chars = readJsonObject(path.join(configDir, "characters.json"), "config/characters.json", c)
  if (Option.isNone(chars)) return []
  const cats = decodeObj(chars.value["猫娘"])
  if (Option.isNone(cats)) {
    c.problem("config/characters.json", "has no 猫娘 object", 'add "猫娘": {} with one entry per character')
    return []
  }
  const names = Object.keys(cats.value)
  for (const n of names) {
    const v = validateCharacterName(n)
    if (Either.isLeft(v) || v.right !== n) {
      c.problem("config/characters.json", `character name ${JSON.stringify(n)} is invalid`, "rename it in N.E.K.O.")
    }
  }
  const current = chars.value["当前猫娘"]
  if (typeof current === "string" && current !== "" && !names.includes(current)) {
    c.problem("config/characters.json", `当前猫娘 ${JSON.stringify(current)} is not in 猫娘`, "pick a listed character")
  }
  return names
}

const checkRootFiles = (root: string, c: Collector, running: boolean) => {
  for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
    if (entry.isDirectory() || rootKnown.has(entry.name)) continue
    const owner = LegacyLayout.ownerOf(entry.name)
    const target = LegacyLayout.legacyFiles.find(([p]) => p.replace("{name}", owner ?? "\0") === entry.name)?.[1]
    if (owner !== undefined && target !== undefined) {
      if (fs.existsSync(path.join(root, owner, target))) {
        c.problem(
          entry.name,
          `legacy flat file; ${owner}/${target} exists too and wins`,
          `compare the two and delete ${entry.name}`
        )
      } else {
        c.problem(entry.name, "legacy flat file not yet moved", `start kioku once (it moves it to ${owner}/${target})`)
      }
    } else if (/\.[0-9a-f]{8}\.tmp$/.test(entry.name)) {
      c.problem(
        entry.name,
        "temp file of an interrupted write",
        running ? "delete it once kioku is stopped" : "delete it"
      )
    } else {
      c.note(entry.name, "unknown file in the memory root", "move it out if it is not yours")
    }
  }
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return e instanceof Error && "code" in e && e.code === "EPERM"
  }
}

/** The built-in embedding model's build lock (`<model dir>.lock`, holding the builder's pid). */
const checkModelLock = (lock: string, c: Collector) => {
  let text: string
  try {
    text = fs.readFileSync(lock, "utf8").trim()
  } catch {
    return
  }
  const pid = Number(text)
  if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
    c.note(lock, `an embedding model build is running (pid ${pid})`, "none: wait for it")
  } else {
    c.note(lock, "stale embedding-model build lock", "none needed: the next build removes it (or delete it)")
  }
}

export const diagnose = (options: {
  readonly dataDir: string
  readonly configDir: string
  readonly maxPerShard: number
  /** `<model dir>.lock` of the built-in embedding model. */
  readonly modelLock?: string | undefined
}) =>
  Effect.gen(function* () {
    const root = path.resolve(options.dataDir)
    const c = collector()
    const server = lockHolder(root)
    if (server.running) {
      c.note(
        ".kioku.lock",
        `a kioku server (pid ${server.pid ?? "unknown"}) holds the memory root`,
        "none: files are read as they are now"
      )
    } else if (server.pid !== null) {
      c.note(".kioku.lock.pid", `names pid ${server.pid}, but no server holds the lock`, "none needed (stale pid file)")
    }
    checkConfig(path.resolve(options.configDir), c)
    if (options.modelLock !== undefined) checkModelLock(options.modelLock, c)
    const characters: Array<DoctorReport["characters"][number]> = []
    if (!fs.existsSync(root)) {
      c.problem(root, "the memory root does not exist", "check --data-dir (kioku creates it on first start)")
    } else {
      checkRootFiles(root, c, server.running)
      for (const entry of fs.readdirSync(root, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
        if (!entry.isDirectory()) continue
        const v = validateCharacterName(entry.name)
        if (entry.name.startsWith("#import-")) {
          c.problem(
            `${entry.name}/`,
            "leftover of an interrupted import-neko",
            "delete it (nothing was imported from it)"
          )
          continue
        }
        if (Either.isLeft(v) || v.right !== entry.name) {
          c.note(`${entry.name}/`, "not a valid character name; kioku ignores it", "rename it or move it out")
          continue
        }
        characters.push(yield* checkCharacter(root, entry.name, c, options.maxPerShard))
      }
    }
    const report: DoctorReport = {
      memory_root: root,
      config_dir: path.resolve(options.configDir),
      server,
      characters,
      problems: c.problems,
      notes: c.notes
    }
    return report
  })

export const format = (r: DoctorReport): string => {
  const lines = [
    `memory root ${r.memory_root} (${r.characters.length} characters)${r.server.running ? `, served by pid ${r.server.pid ?? "?"}` : ", no server running"}`,
    ...r.characters.map(
      (ch) =>
        `  ${ch.name}: ${ch.files_checked} files checked, ${ch.events_past_sentinel} events to replay, ${ch.outbox_pending} outbox ops pending`
    ),
    ...r.problems.map((p) => `problem ${p.file}: ${p.problem} — fix: ${p.fix}`),
    ...r.notes.map((p) => `note    ${p.file}: ${p.problem} — ${p.fix}`),
    r.problems.length === 0 ? "healthy" : `${r.problems.length} problem${r.problems.length === 1 ? "" : "s"} found`
  ]
  return lines.join("\n")
}
