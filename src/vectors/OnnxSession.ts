/**
 * One loaded embedding model: an onnxruntime-node CPU session over `model.onnx` and its tokenizer. A batch is
 * tokenised, padded to its longest text (`input_ids`, `attention_mask`, and zero `token_type_ids` when the
 * model takes them), run, pooled as the profile says when the output is per token (`[B,S,D]`: the first
 * token for "cls", the masked mean for "mean"; a `[B,D]` output is already pooled), normalised when the
 * profile says so, truncated to the Matryoshka dimension and L2-normalised again. onnxruntime-node is
 * imported on first load, so a server that never embeds never loads the native library. A session runs on one
 * thread: embedding is background work beside the server's own, and on a loaded 2-core machine one thread
 * was twice as fast as two (docs/benchmarks.md).
 */
import { Effect, Either } from "effect"
import * as path from "node:path"
import type { InferenceSession, Tensor } from "onnxruntime-node"
import { EmbedError } from "./Embedder.js"
import { MODEL_FILE, modelIdOf, outputDim, type ModelDir, type ModelProfile } from "./ModelProfile.js"
import * as TextTokenizer from "./TextTokenizer.js"

export interface LoadedModel {
  readonly modelId: string
  readonly profile: ModelProfile
  readonly dim: number
  readonly run: (texts: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Float32Array>, EmbedError>
  readonly release: Effect.Effect<void>
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e))

/** Scales `v` in place to unit length (a zero vector stays zero). */
export const l2normalize = (v: Float32Array): Float32Array => {
  let sum = 0
  for (const x of v) sum += x * x
  const norm = Math.sqrt(sum)
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) / norm
  return v
}

/** Row `b` of a `[B,S,D]` output pooled over the positions whose mask is 1. */
export const poolRow = (
  data: Float32Array,
  mask: ReadonlyArray<number>,
  b: number,
  seq: number,
  dim: number,
  pooling: ModelProfile["pooling"]
): Float32Array => {
  const out = new Float32Array(dim)
  const base = b * seq * dim
  if (pooling === "cls") {
    out.set(data.subarray(base, base + dim))
    return out
  }
  let count = 0
  for (let s = 0; s < seq; s++) {
    if (mask[b * seq + s] !== 1) continue
    count++
    for (let d = 0; d < dim; d++) out[d] = (out[d] ?? 0) + (data[base + s * dim + d] ?? 0)
  }
  if (count > 0) for (let d = 0; d < dim; d++) out[d] = (out[d] ?? 0) / count
  return out
}

/** The final vector: optional profile normalisation, truncation to `dim`, then L2 normalisation. */
export const finish = (pooled: Float32Array, profile: ModelProfile, dim: number): Float32Array => {
  const base = profile.normalize ? l2normalize(pooled) : pooled
  return l2normalize(Float32Array.from(base.subarray(0, dim)))
}

export const load = (
  dir: ModelDir,
  options: { readonly maxLength: number; readonly requestedDim: string }
): Effect.Effect<LoadedModel, EmbedError> =>
  Effect.gen(function* () {
    const tokenizer = TextTokenizer.make(dir.tokenizerJson, dir.tokenizerConfig)
    if (Either.isLeft(tokenizer)) return yield* new EmbedError({ message: tokenizer.left })
    const ort = yield* Effect.tryPromise({
      try: () => import("onnxruntime-node"),
      catch: (e) => new EmbedError({ message: `onnxruntime-node unavailable: ${message(e)}` })
    })
    const session: InferenceSession = yield* Effect.tryPromise({
      try: () =>
        ort.InferenceSession.create(path.join(dir.dir, MODEL_FILE), {
          executionProviders: ["cpu"],
          intraOpNumThreads: 1,
          interOpNumThreads: 1,
          logSeverityLevel: 4
        }),
      catch: (e) => new EmbedError({ message: `cannot load ${MODEL_FILE}: ${message(e)}` })
    })
    const profile = dir.profile
    const dim = outputDim(profile, options.requestedDim)
    const configured = Number(dir.tokenizerConfig["model_max_length"])
    const maxLength =
      Number.isInteger(configured) && configured > 0 ? Math.min(configured, options.maxLength) : options.maxLength
    const outputName = session.outputNames.includes("sentence_embedding")
      ? "sentence_embedding"
      : (session.outputNames[0] ?? "")
    const unknown = session.inputNames.filter((n) => !["input_ids", "attention_mask", "token_type_ids"].includes(n))
    if (unknown.length > 0 || !session.inputNames.includes("input_ids")) {
      yield* Effect.ignore(Effect.tryPromise(() => session.release()))
      return yield* new EmbedError({ message: `unsupported model inputs: ${session.inputNames.join(", ")}` })
    }

    const runBatch = async (texts: ReadonlyArray<string>): Promise<ReadonlyArray<Float32Array>> => {
      const encoded = texts.map((t) => tokenizer.right.encode(t, maxLength))
      const seq = Math.max(1, ...encoded.map((ids) => ids.length))
      const ids = new BigInt64Array(texts.length * seq).fill(BigInt(tokenizer.right.padId))
      const mask = new Array<number>(texts.length * seq).fill(0)
      encoded.forEach((row, b) =>
        row.forEach((id, s) => {
          ids[b * seq + s] = BigInt(id)
          mask[b * seq + s] = 1
        })
      )
      const shape = [texts.length, seq]
      const feeds: Record<string, Tensor> = {}
      for (const name of session.inputNames) {
        const data =
          name === "input_ids"
            ? ids
            : name === "attention_mask"
              ? BigInt64Array.from(mask, (m) => BigInt(m))
              : new BigInt64Array(ids.length)
        feeds[name] = new ort.Tensor("int64", data, shape)
      }
      const output = (await session.run(feeds))[outputName]
      if (output === undefined || output.type !== "float32" || !(output.data instanceof Float32Array)) {
        throw new Error(`output ${outputName} is not float32`)
      }
      const dims = output.dims
      const width = dims[dims.length - 1] ?? 0
      if (dims[0] !== texts.length || width !== profile.dim || (dims.length !== 2 && dims.length !== 3)) {
        throw new Error(`output shape [${dims.join(", ")}] does not fit ${texts.length} texts × ${profile.dim}`)
      }
      const data = output.data
      const vectors = encoded.map((_, b) =>
        finish(
          dims.length === 2
            ? Float32Array.from(data.subarray(b * width, (b + 1) * width))
            : poolRow(data, mask, b, seq, width, profile.pooling),
          profile,
          dim
        )
      )
      if (vectors.some((v) => v.some((x) => !Number.isFinite(x)))) throw new Error("non-finite embedding")
      return vectors
    }

    return {
      modelId: modelIdOf(profile, dim),
      profile,
      dim,
      run: (texts) =>
        texts.length === 0
          ? Effect.succeed([])
          : Effect.tryPromise({
              try: () => runBatch(texts),
              catch: (e) => new EmbedError({ message: `inference failed: ${message(e)}` })
            }),
      release: Effect.ignore(Effect.tryPromise(() => session.release()))
    }
  })
