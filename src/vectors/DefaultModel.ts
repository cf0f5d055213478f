/**
 * The built-in embedding models and their build. `use-lite-en-v1` (Universal Sentence Encoder lite translated
 * to ONNX, UseLiteModel.ts) is the default; `wink-sg100d-50k` (mean of word vectors, WinkModel.ts) stays
 * selectable. The `vectors_model_profile_id` tunable picks one by id; N.E.K.O.'s own profile id
 * (`local-text-retrieval-v1`, the tunable's default) and any id kioku does not build mean the default.
 * `build` writes `model.onnx`, `tokenizer.json`, `tokenizer_config.json` and `profile.json` into a temp
 * directory and renames it into place, so a model directory is complete or absent (the lock holder removes
 * temp directories of dead builds); a directory whose profile is not the built-in's current one is rebuilt. A
 * `<dir>.lock` file (holding the builder's pid) makes a second builder wait for the first and reuse its
 * result. The server runs `build` in a child process (`kioku build-embeddings`, see BuildProcess.ts): the
 * word-vector build takes ~1.2 GB, and neither build's transient memory belongs in the server.
 */
import { Clock, Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import type { KiokuSettings } from "../Config.js"
import { fsyncDir } from "../store/DurableFs.js"
import { EmbedError } from "./Embedder.js"
import {
  isCurrent,
  MODEL_FILE,
  PROFILE_FILE,
  TOKENIZER_CONFIG_FILE,
  TOKENIZER_FILE,
  type ModelProfile
} from "./ModelProfile.js"
import * as UseLiteModel from "./UseLiteModel.js"
import * as WinkModel from "./WinkModel.js"

export interface ModelFiles {
  readonly onnx: Uint8Array
  readonly tokenizerJson: object
  readonly tokenizerConfig: object
}

export interface BuiltinModel {
  readonly profile: ModelProfile
  readonly files: Effect.Effect<ModelFiles, EmbedError>
}

export const useLite: BuiltinModel = { profile: UseLiteModel.USE_LITE_PROFILE, files: UseLiteModel.modelFiles }
export const wink: BuiltinModel = { profile: WinkModel.WINK_PROFILE, files: WinkModel.modelFiles() }
export const builtins: ReadonlyArray<BuiltinModel> = [useLite, wink]
export const DEFAULT_PROFILE = useLite.profile

/** The built-in model a `vectors_model_profile_id` names; the default for N.E.K.O.'s id or an unknown one. */
export const builtinFor = (profileId: string): BuiltinModel =>
  builtins.find((m) => m.profile.id === profileId) ?? useLite

/** Where a built-in model lives: `<embedding_cache_dir or <data-dir>/../embedding_models>/<profile id>`. */
export const defaultModelDir = (
  settings: KiokuSettings,
  model = builtinFor(settings.tunables.vectors_model_profile_id)
) =>
  path.join(
    settings.tunables.embedding_cache_dir !== ""
      ? path.resolve(settings.tunables.embedding_cache_dir)
      : path.join(path.dirname(settings.dataDir), "embedding_models"),
    model.profile.id
  )

const failure = (what: string) => (e: unknown) =>
  new EmbedError({ message: `${what}: ${e instanceof Error ? e.message : String(e)}` })

const writeFileSynced = (file: string, data: string | Uint8Array) => {
  const fd = fs.openSync(file, "w")
  try {
    fs.writeFileSync(fd, data)
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return typeof e === "object" && e !== null && "code" in e && e.code === "EPERM"
  }
}

/**
 * Takes `<dir>.lock`; `false` while another builder holds it. A lock is stale (and removed) when its pid is
 * not running, when it names no pid a minute after it was made, or after 30 minutes (a recycled pid).
 */
const tryLock = (lock: string, now: number) =>
  Effect.try({
    try: () => {
      try {
        fs.writeFileSync(lock, String(process.pid), { flag: "wx" })
        return true
      } catch (e) {
        if (!(typeof e === "object" && e !== null && "code" in e && e.code === "EEXIST")) throw e
        const age = now - fs.statSync(lock).mtimeMs
        const holder = Number(fs.readFileSync(lock, "utf8").trim())
        const named = Number.isInteger(holder) && holder > 0
        const stale = named ? !isAlive(holder) || age > 30 * 60_000 : age > 60_000
        if (stale) fs.rmSync(lock, { force: true })
        return false
      }
    },
    catch: failure(`cannot take ${lock}`)
  })

/**
 * Builds `model` into `dir` unless its current version is there; waits for a concurrent builder (up to 15
 * minutes) and reuses its result.
 */
/** The steps of a build, for a progress display: the index of the step starting, of `BUILD_STEPS`. */
export const BUILD_STEPS = 3

export const build = (
  dir: string,
  model: BuiltinModel = useLite,
  step: (done: number, label: string) => Effect.Effect<void> = () => Effect.void
): Effect.Effect<"built" | "reused", EmbedError> =>
  Effect.gen(function* () {
    yield* step(0, "waiting for the model lock")
    const current = () => isCurrent(dir, model.profile)
    if (current()) return "reused" as const
    const lock = `${dir}.lock`
    yield* Effect.try({ try: () => fs.mkdirSync(path.dirname(dir), { recursive: true }), catch: failure("mkdir") })
    let waited = 0
    while (!(yield* tryLock(lock, yield* Clock.currentTimeMillis))) {
      if (current()) return "reused" as const
      if (waited >= 15 * 60 * 2) return yield* new EmbedError({ message: `gave up waiting for ${lock}` })
      waited++
      yield* Effect.sleep("500 millis")
    }
    const release = Effect.sync(() => fs.rmSync(lock, { force: true }))
    return yield* Effect.gen(function* () {
      if (current()) return "reused" as const
      yield* step(1, `converting ${model.profile.id}`)
      const files = yield* model.files
      yield* step(2, `writing ${dir}`)
      const tmp = `${dir}.tmp-${process.pid}`
      yield* Effect.try({
        try: () => {
          const leftovers = fs.readdirSync(path.dirname(dir)).filter((f) => f.startsWith(`${path.basename(dir)}.tmp-`))
          for (const f of leftovers) fs.rmSync(path.join(path.dirname(dir), f), { recursive: true, force: true })
          fs.mkdirSync(tmp)
          writeFileSynced(path.join(tmp, MODEL_FILE), files.onnx)
          writeFileSynced(path.join(tmp, TOKENIZER_FILE), JSON.stringify(files.tokenizerJson))
          writeFileSynced(path.join(tmp, TOKENIZER_CONFIG_FILE), JSON.stringify(files.tokenizerConfig, null, 2))
          writeFileSynced(path.join(tmp, PROFILE_FILE), JSON.stringify(model.profile, null, 2))
          fs.rmSync(dir, { recursive: true, force: true })
          fs.renameSync(tmp, dir)
        },
        catch: failure(`cannot write ${dir}`)
      }).pipe(Effect.tapError(() => Effect.sync(() => fs.rmSync(tmp, { recursive: true, force: true }))))
      yield* fsyncDir(path.dirname(dir)).pipe(Effect.mapError(failure("fsync")))
      return "built" as const
    }).pipe(Effect.ensuring(release))
  })
