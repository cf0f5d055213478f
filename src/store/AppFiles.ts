/**
 * Application files beside the memory root, in N.E.K.O.'s layout: `config/core_config.json` (the powerful
 * memory and auto-review switches, read again whenever the file changed) and `config/characters.json` (the master's
 * profile name and the known characters). Missing or undecodable files mean defaults. A character rename
 * moves its `猫娘` entry (keeping the order) and the `当前猫娘` pointer; other content is kept as it is.
 */
import { Context, Effect, Layer, Option, Schema } from "effect"
import * as path from "node:path"
import { KiokuConfig } from "../Config.js"
import { ensureDir, readText, writeAtomic, type StoreError } from "./DurableFs.js"
import { encodeJson, stampCached } from "./ViewFile.js"

const Obj = Schema.Record({ key: Schema.String, value: Schema.Unknown })
const decodeObj = Schema.decodeUnknownOption(Schema.parseJson(Obj))
const decodeProfile = Schema.decodeUnknownOption(Schema.Struct({ 档案名: Schema.String }))
const decodeObject = Schema.decodeUnknownOption(Obj)

export interface CoreSwitches {
  readonly powerful_memory_enabled: boolean
  readonly recent_memory_auto_review: boolean
}

export interface CharacterDirectory {
  readonly masterName: Option.Option<string>
  readonly characters: ReadonlyArray<string>
  /** The master's profile fields (`主人`) and each character's card (`猫娘.<name>`), for card sync. */
  readonly masterCard: Readonly<Record<string, unknown>> | undefined
  readonly cards: Readonly<Record<string, Readonly<Record<string, unknown>>>>
}

export class AppFiles extends Context.Tag("app/store/AppFiles")<
  AppFiles,
  {
    readonly core: Effect.Effect<CoreSwitches>
    readonly setCore: (patch: Partial<CoreSwitches>) => Effect.Effect<void, StoreError>
    readonly characters: Effect.Effect<CharacterDirectory>
    /** Renames a character's entry in `characters.json`; true when the file held it and was rewritten. */
    readonly renameCharacter: (oldName: string, newName: string) => Effect.Effect<boolean, StoreError>
  }
>() {
  static readonly layer = Layer.effect(
    AppFiles,
    Effect.gen(function* () {
      const settings = yield* KiokuConfig
      const coreFile = path.join(settings.configDir, "core_config.json")
      const charactersFile = path.join(settings.configDir, "characters.json")
      const readObject = (file: string) =>
        readText(file).pipe(
          Effect.map((text) => Option.flatMap(text, (t) => decodeObj(t))),
          Effect.catchAll(() => Effect.succeed(Option.none<Readonly<Record<string, unknown>>>()))
        )
      /** Decoded once per version of the file. */
      const directory = stampCached(charactersFile, Effect.map(readObject(charactersFile), directoryOf)).pipe(
        Effect.orElseSucceed(() => directoryOf(Option.none()))
      )
      const flag = (obj: Option.Option<Readonly<Record<string, unknown>>>, key: string) => {
        const v = Option.getOrUndefined(obj)?.[key]
        return typeof v === "boolean" ? v : true
      }
      const core = stampCached(coreFile, readObject(coreFile)).pipe(
        Effect.orElseSucceed(() => Option.none<Readonly<Record<string, unknown>>>()),
        Effect.map((obj) => ({
          powerful_memory_enabled: flag(obj, "powerful_memory_enabled"),
          recent_memory_auto_review: flag(obj, "recent_memory_auto_review")
        }))
      )
      const renameCharacter = (oldName: string, newName: string) =>
        Effect.gen(function* () {
          const root = Option.getOrUndefined(yield* readObject(charactersFile))
          const cats = Option.getOrUndefined(decodeObject(root?.["猫娘"]))
          if (root === undefined || cats === undefined || !(oldName in cats) || newName in cats) return false
          const renamed = Object.fromEntries(Object.entries(cats).map(([k, v]) => [k === oldName ? newName : k, v]))
          const current = root["当前猫娘"] === oldName ? { 当前猫娘: newName } : {}
          yield* writeAtomic(charactersFile, encodeJson({ ...root, 猫娘: renamed, ...current }))
          return true
        })
      return {
        core,
        renameCharacter,
        setCore: (patch) =>
          readObject(coreFile).pipe(
            Effect.flatMap((obj) =>
              Effect.zipRight(
                ensureDir(settings.configDir),
                writeAtomic(coreFile, encodeJson({ ...Option.getOrElse(obj, () => ({})), ...patch }))
              )
            )
          ),
        characters: directory
      }
    })
  )
}

/** The directory `characters.json` describes. */
const directoryOf = (obj: Option.Option<Readonly<Record<string, unknown>>>): CharacterDirectory => {
  const root = Option.getOrUndefined(obj)
  const master = Option.map(decodeProfile(root?.["主人"]), (p) => p.档案名).pipe(Option.filter((n) => n.trim() !== ""))
  const cats = Option.getOrUndefined(decodeObject(root?.["猫娘"]))
  const cards: Record<string, Readonly<Record<string, unknown>>> = {}
  for (const [n, card] of Object.entries(cats ?? {})) {
    const fields = Option.getOrUndefined(decodeObject(card))
    if (fields) cards[n] = fields
  }
  return {
    masterName: master,
    characters: cats ? Object.keys(cats) : [],
    masterCard: Option.getOrUndefined(decodeObject(root?.["主人"])),
    cards
  }
}
