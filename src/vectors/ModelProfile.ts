/**
 * A model directory: `model.onnx`, `tokenizer.json` (Hugging Face format, read by @huggingface/tokenizers),
 * `profile.json` (`{id, dim, pooling: "cls"|"mean", normalize, matryoshka?, languages?}`) and an optional
 * `tokenizer_config.json` (special tokens, `model_max_length`). The profile says how the model's output is
 * pooled and normalised, to which Matryoshka dimension it may be truncated, and which languages it embeds
 * (`textLanguage` of a text; absent or null: all); the model id of neko-compat §4.17 is `<profile id>-<dim>d-fp32`.
 */
import { Effect, Option, Schema } from "effect"
import { existsSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { textLanguage, type TextLanguage } from "../domain/TextLanguage.js"
import { EmbedError } from "./Embedder.js"

export const MODEL_FILE = "model.onnx"
export const TOKENIZER_FILE = "tokenizer.json"
export const TOKENIZER_CONFIG_FILE = "tokenizer_config.json"
export const PROFILE_FILE = "profile.json"

const PositiveInt = Schema.Int.pipe(Schema.positive())
const Language = Schema.Literal("en", "ja", "zh", "ko", "es", "pt", "ru", "other") satisfies Schema.Schema<TextLanguage>

export const ModelProfile = Schema.Struct({
  id: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9._-]+$/)),
  dim: PositiveInt,
  pooling: Schema.Literal("cls", "mean"),
  normalize: Schema.Boolean,
  matryoshka: Schema.optionalWith(Schema.NullOr(PositiveInt), { default: () => null }),
  languages: Schema.optionalWith(Schema.NullOr(Schema.Array(Language)), { default: () => null })
})
export type ModelProfile = typeof ModelProfile.Type

/** Whether a model of `profile` embeds `text`: not blank, and in one of its languages (any, when unrestricted). */
export const servesText =
  (profile: ModelProfile) =>
  (text: string): boolean =>
    text.trim() !== "" && (profile.languages === null || profile.languages.includes(textLanguage(text)))

const JsonObject = Schema.Record({ key: Schema.String, value: Schema.Unknown })
const decodeProfile = Schema.decodeUnknown(Schema.parseJson(ModelProfile))
const decodeObject = Schema.decodeUnknown(Schema.parseJson(JsonObject))

export interface ModelDir {
  readonly dir: string
  readonly profile: ModelProfile
  /** The parsed `tokenizer.json` and `tokenizer_config.json` (empty when absent), as the tokenizer takes them. */
  readonly tokenizerJson: Readonly<Record<string, unknown>>
  readonly tokenizerConfig: Readonly<Record<string, unknown>>
}

/**
 * The dimension vectors come out with: the full one, or for a Matryoshka model the profile's dimension unless
 * `requested` (the `vectors_embedding_dim` tunable, "auto" by default) names another one up to the full one.
 */
export const outputDim = (profile: ModelProfile, requested: string): number => {
  if (profile.matryoshka === null) return profile.dim
  const asked = Number(requested)
  return Number.isInteger(asked) && asked > 0 && asked <= profile.dim
    ? asked
    : Math.min(profile.matryoshka, profile.dim)
}

export const modelIdOf = (profile: ModelProfile, dim: number) => `${profile.id}-${dim}d-fp32`

/** True when `dir` holds the three required files. */
export const isComplete = (dir: string): boolean =>
  [MODEL_FILE, TOKENIZER_FILE, PROFILE_FILE].every((f) => existsSync(path.join(dir, f)))

/** True when `dir` is complete and its `profile.json` is `profile` (a built-in model of this version). */
export const isCurrent = (dir: string, profile: ModelProfile): boolean => {
  if (!isComplete(dir)) return false
  try {
    const found = Schema.decodeUnknownOption(Schema.parseJson(ModelProfile))(
      readFileSync(path.join(dir, PROFILE_FILE), "utf8")
    )
    return Option.isSome(found) && JSON.stringify(found.value) === JSON.stringify(profile)
  } catch {
    return false
  }
}

const readText = (file: string) =>
  Effect.try({
    try: () => readFileSync(file, "utf8"),
    catch: (e) => new EmbedError({ message: `cannot read ${file}: ${e instanceof Error ? e.message : String(e)}` })
  })

const invalid = (file: string) => (e: { readonly message: string }) =>
  new EmbedError({ message: `${file} is invalid: ${e.message}` })

/** Reads and checks a model directory (the ONNX file itself is only opened by the session). */
export const readModelDir = (dir: string): Effect.Effect<ModelDir, EmbedError> =>
  Effect.gen(function* () {
    if (!isComplete(dir)) {
      return yield* new EmbedError({ message: `${dir} needs ${MODEL_FILE}, ${TOKENIZER_FILE} and ${PROFILE_FILE}` })
    }
    const profileFile = path.join(dir, PROFILE_FILE)
    const profile = yield* readText(profileFile).pipe(
      Effect.flatMap(decodeProfile),
      Effect.mapError((e) => (e instanceof EmbedError ? e : invalid(profileFile)(e)))
    )
    const tokenizerFile = path.join(dir, TOKENIZER_FILE)
    const tokenizerJson = yield* readText(tokenizerFile).pipe(
      Effect.flatMap(decodeObject),
      Effect.mapError((e) => (e instanceof EmbedError ? e : invalid(tokenizerFile)(e)))
    )
    const configFile = path.join(dir, TOKENIZER_CONFIG_FILE)
    const tokenizerConfig = existsSync(configFile)
      ? yield* readText(configFile).pipe(
          Effect.flatMap(decodeObject),
          Effect.mapError((e) => (e instanceof EmbedError ? e : invalid(configFile)(e)))
        )
      : {}
    return { dir, profile, tokenizerJson, tokenizerConfig }
  })

/** A string-valued entry of the tokenizer config (`pad_token` may also be an AddedToken-like object). */
export const configToken = (config: Readonly<Record<string, unknown>>, key: string): Option.Option<string> => {
  const value = config[key]
  if (typeof value === "string") return Option.some(value)
  if (typeof value === "object" && value !== null && "content" in value && typeof value.content === "string") {
    return Option.some(value.content)
  }
  return Option.none()
}
