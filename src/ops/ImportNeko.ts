/**
 * `kioku import-neko <app dir>`: validates a N.E.K.O. memory root (`<app>/memory`, per-character directories
 * or the legacy flat layout) and its `<app>/config`, then copies it into kioku's memory root. Every character
 * is first staged (copied, legacy flat files renamed to their per-character names) in a directory kioku
 * never reads as a character, checked with the same read-only checks as `kioku doctor`, fsynced, and only
 * then renamed into place, so a character is imported whole or not at all. An existing character is refused
 * unless `force`, which moves the old directory to `<data-dir>/../kioku-replaced/` first. `characters.json`
 * gains the entries it lacks (a differing card is replaced only with `force`); `core_config.json` is copied
 * when there is none. N.E.K.O. must be stopped while it runs.
 */
import { Clock, Effect, Either, Option, Schema } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { validateCharacterName } from "../domain/CharacterName.js"
import { ensureDir, fsyncDir, fsyncFile, readText, StoreError, writeAtomic } from "../store/DurableFs.js"
import * as LegacyLayout from "../store/LegacyLayout.js"
import * as RootLock from "../store/RootLock.js"
import { encodeJson } from "../store/ViewFile.js"
import { checkCharacter } from "./CharacterCheck.js"
import { checkConfig } from "./Doctor.js"
import { collector, type Finding } from "./Findings.js"

export class ImportRefused extends Schema.TaggedError<ImportRefused>()("ImportRefused", {
  message: Schema.String,
  problems: Schema.Array(Schema.Struct({ file: Schema.String, problem: Schema.String, fix: Schema.String }))
}) {}

export interface ImportOptions {
  readonly appDir: string
  readonly dataDir: string
  readonly configDir: string
  readonly dryRun: boolean
  readonly force: boolean
  readonly maxPerShard: number
  /** Called before each character is staged and checked: how many are done, of how many, which one is next. */
  readonly step?: ((done: number, total: number, label: string) => Effect.Effect<void>) | undefined
}

export interface ImportReport {
  readonly source: string
  readonly characters: ReadonlyArray<{ readonly name: string; readonly files: number; readonly replaced: boolean }>
  readonly config: ReadonlyArray<string>
  readonly notes: ReadonlyArray<Finding>
  readonly dryRun: boolean
}

const sqliteShm = /\.db-shm$/

/** Copies `from` into `to` (created), fsyncing every file and directory; returns how many files it copied. */
const copyTree = (from: string, to: string): Effect.Effect<number, StoreError> =>
  Effect.gen(function* () {
    yield* ensureDir(to)
    let n = 0
    for (const e of fs.readdirSync(from, { withFileTypes: true })) {
      const src = path.join(from, e.name)
      const dst = path.join(to, e.name)
      if (e.isDirectory()) n += yield* copyTree(src, dst)
      else if (e.isFile() && !sqliteShm.test(e.name)) {
        yield* Effect.try({
          try: () => fs.copyFileSync(src, dst, fs.constants.COPYFILE_EXCL),
          catch: (err) => new StoreError({ op: "copy", file: src, message: String(err) })
        })
        yield* fsyncFile(dst)
        n++
      }
    }
    yield* fsyncDir(to)
    return n
  })

/** Stages one character (a directory, or the flat files of the legacy layout) under `staging/<name>`. */
const stage = (sourceRoot: string, name: string, staging: string) =>
  Effect.gen(function* () {
    const target = path.join(staging, name)
    const dir = path.join(sourceRoot, name)
    let files = fs.existsSync(dir) && fs.lstatSync(dir).isDirectory() ? yield* copyTree(dir, target) : 0
    yield* ensureDir(target)
    for (const [pattern, file] of LegacyLayout.legacyFiles) {
      const flat = path.join(sourceRoot, pattern.replace("{name}", name))
      if (!fs.existsSync(flat) || fs.existsSync(path.join(target, file))) continue
      for (const suffix of ["", "-wal"]) {
        if (!fs.existsSync(flat + suffix)) continue
        yield* Effect.try({
          try: () => fs.copyFileSync(flat + suffix, path.join(target, file + suffix)),
          catch: (err) => new StoreError({ op: "copy", file: flat, message: String(err) })
        })
        yield* fsyncFile(path.join(target, file + suffix))
      }
      files++
    }
    yield* fsyncDir(target)
    return files
  })

const Obj = Schema.Record({ key: Schema.String, value: Schema.Unknown })
const decodeObj = Schema.decodeUnknownOption(Schema.parseJson(Obj))
const asObj = Schema.decodeUnknownOption(Obj)
const readObj = (file: string) => readText(file).pipe(Effect.map((t) => Option.flatMap(t, (text) => decodeObj(text))))

/** Merges the source `characters.json` into the destination's; returns what it did. */
const mergeConfig = (sourceConfig: string, options: ImportOptions) =>
  Effect.gen(function* () {
    const done: Array<string> = []
    const coreSrc = path.join(sourceConfig, "core_config.json")
    const coreDst = path.join(options.configDir, "core_config.json")
    if (fs.existsSync(coreSrc) && !fs.existsSync(coreDst)) {
      if (!options.dryRun)
        yield* ensureDir(options.configDir).pipe(Effect.zipRight(writeAtomic(coreDst, fs.readFileSync(coreSrc))))
      done.push("core_config.json copied")
    } else if (fs.existsSync(coreSrc)) done.push("core_config.json kept (the destination has one)")
    const src = yield* readObj(path.join(sourceConfig, "characters.json"))
    if (Option.isNone(src)) return done
    const dstFile = path.join(options.configDir, "characters.json")
    const dst = Option.getOrElse(yield* readObj(dstFile), (): Readonly<Record<string, unknown>> => ({}))
    const srcCats = Option.getOrElse(asObj(src.value["猫娘"]), (): Readonly<Record<string, unknown>> => ({}))
    const dstCats: Record<string, unknown> = { ...Option.getOrElse(asObj(dst["猫娘"]), () => ({})) }
    for (const name of Object.keys(srcCats)) {
      const same = JSON.stringify(dstCats[name]) === JSON.stringify(srcCats[name])
      if (name in dstCats && (same || !options.force)) {
        done.push(
          same ? `characters.json: ${name} already listed` : `characters.json: ${name}'s card kept (use --force)`
        )
        continue
      }
      done.push(`characters.json: ${name} ${name in dstCats ? "replaced" : "added"}`)
      dstCats[name] = srcCats[name]
    }
    const merged = {
      ...src.value,
      ...dst,
      猫娘: dstCats,
      ...(dst["当前猫娘"] === undefined && src.value["当前猫娘"] !== undefined
        ? { 当前猫娘: src.value["当前猫娘"] }
        : {})
    }
    if (!options.dryRun)
      yield* ensureDir(options.configDir).pipe(Effect.zipRight(writeAtomic(dstFile, encodeJson(merged))))
    return done
  })

const rename = (from: string, to: string) =>
  Effect.try({
    try: () => fs.renameSync(from, to),
    catch: (e) => new StoreError({ op: "rename", file: from, message: String(e) })
  })

const refuse = (message: string, problems: ReadonlyArray<Finding> = []) => new ImportRefused({ message, problems })

export const importNeko = (options: ImportOptions) =>
  Effect.gen(function* () {
    const sourceRoot = path.resolve(options.appDir, "memory")
    const sourceConfig = path.resolve(options.appDir, "config")
    const dataDir = path.resolve(options.dataDir)
    if (!fs.existsSync(sourceRoot)) return yield* refuse(`${sourceRoot} does not exist (expected <app dir>/memory)`)
    if (sourceRoot === dataDir) return yield* refuse("the source is already kioku's memory root")
    const c = collector()
    checkConfig(sourceConfig, c)
    const dirs = fs
      .readdirSync(sourceRoot, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
    for (const d of dirs) {
      const v = validateCharacterName(d)
      if (Either.isLeft(v) || v.right !== d) c.problem(`${d}/`, "not a valid character name", "rename it in N.E.K.O.")
    }
    const names = [...new Set([...dirs, ...LegacyLayout.flatFiles(sourceRoot).map((f) => f.owner)])].filter((d) => {
      const v = validateCharacterName(d)
      return Either.isRight(v) && v.right === d
    })
    const staging = options.dryRun
      ? fs.mkdtempSync(path.join(os.tmpdir(), "kioku-import-"))
      : path.join(dataDir, `#import-${randomUUID().slice(0, 8)}`)
    yield* Effect.addFinalizer(() => Effect.sync(() => fs.rmSync(staging, { recursive: true, force: true })))
    if (!options.dryRun) yield* RootLock.acquire(dataDir)
    const characters: Array<{ name: string; files: number; replaced: boolean }> = []
    const sorted = names.sort()
    for (const [i, name] of sorted.entries()) {
      if (options.step) yield* options.step(i, sorted.length, name)
      const exists = fs.existsSync(path.join(dataDir, name))
      if (exists && !options.force) c.problem(name, "the destination already has this character", "use --force")
      const files = yield* stage(sourceRoot, name, staging)
      yield* checkCharacter(staging, name, c, options.maxPerShard)
      characters.push({ name, files, replaced: exists })
    }
    for (const f of fs.readdirSync(sourceRoot, { withFileTypes: true })) {
      if (f.isFile() && LegacyLayout.ownerOf(f.name) === undefined)
        c.note(f.name, "root-level file not imported", "kioku does not read it")
    }
    if (options.step) yield* options.step(sorted.length, sorted.length, "checked")
    if (c.problems.length > 0) {
      return yield* refuse(`refused: ${c.problems.length} problem(s) in ${options.appDir}`, c.problems)
    }
    if (!options.dryRun) {
      const aside = path.join(path.dirname(dataDir), "kioku-replaced", String(yield* Clock.currentTimeMillis))
      for (const ch of characters) {
        const dest = path.join(dataDir, ch.name)
        if (ch.replaced) yield* ensureDir(aside).pipe(Effect.zipRight(rename(dest, path.join(aside, ch.name))))
        yield* rename(path.join(staging, ch.name), dest)
        yield* fsyncDir(dataDir)
      }
    }
    const config = yield* mergeConfig(sourceConfig, options)
    return {
      source: path.resolve(options.appDir),
      characters,
      config,
      notes: c.notes,
      dryRun: options.dryRun
    } satisfies ImportReport
  })
