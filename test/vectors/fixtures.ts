/**
 * Model directories for the embedding tests: a tiny real ONNX model (4-dim word vectors built with the same
 * graph encoder as the word-vector model) and the shared built-in models, built once per source package
 * version under the OS temp directory by the real child-process build, then reused by every run (the
 * directory is named after the profile id, and a directory with another profile is rebuilt).
 */
import { Effect, Either, Option } from "effect"
import { createHash } from "node:crypto"
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { buildCommandFor, runBuild } from "../../src/vectors/BuildProcess.js"
import { DEFAULT_PROFILE, useLite, wink, type BuiltinModel } from "../../src/vectors/DefaultModel.js"
import { isCurrent } from "../../src/vectors/ModelProfile.js"
import type { OnnxEmbedderOptions } from "../../src/vectors/OnnxEmbedder.js"
import { encodeMeanPoolModel } from "../../src/vectors/OnnxGraph.js"
import { packageDir } from "../../src/vectors/UseLiteModel.js"
import { tokenizerConfig, tokenizerJsonOf, winkVersion } from "../../src/vectors/WinkModel.js"

export const tempDir = (prefix = "kioku-embed-") => mkdtempSync(path.join(tmpdir(), prefix))

/** Words of the tiny model and their vectors (ids 2…); `extraWords` get ids past the table (they break Gather). */
export const tinyModel = (
  options: {
    readonly profile?: Record<string, unknown>
    readonly extraWords?: ReadonlyArray<string>
    readonly onnx?: Uint8Array | string
  } = {}
) => {
  const words: ReadonlyArray<readonly [string, ReadonlyArray<number>]> = [
    ["cat", [1, 0, 0, 0]],
    ["kitten", [0.9, 0.1, 0, 0]],
    ["stock", [0, 0, 1, 0]],
    ["market", [0, 0, 0.8, 0.2]],
    ["tea", [0, 1, 0, 0]]
  ]
  const dim = 4
  const table = new Float32Array((words.length + 2) * dim)
  const keep = new Float32Array(words.length + 2)
  words.forEach(([, v], i) => {
    table.set(v, (i + 2) * dim)
    keep[i + 2] = 1
  })
  const dir = tempDir("kioku-tiny-")
  const onnx = options.onnx ?? Either.getOrThrow(encodeMeanPoolModel({ table, keep, dim }))
  writeFileSync(path.join(dir, "model.onnx"), onnx)
  const vocab = [...words.map(([w]) => w), ...(options.extraWords ?? [])]
  writeFileSync(path.join(dir, "tokenizer.json"), JSON.stringify(tokenizerJsonOf(vocab)))
  writeFileSync(path.join(dir, "tokenizer_config.json"), JSON.stringify(tokenizerConfig))
  writeFileSync(
    path.join(dir, "profile.json"),
    JSON.stringify(options.profile ?? { id: "tiny", dim, pooling: "mean", normalize: true, matryoshka: null })
  )
  return dir
}

export const embedderOptions = (
  modelDir: Option.Option<string>,
  defaultDir = path.join(tempDir(), DEFAULT_PROFILE.id),
  defaultProfile = DEFAULT_PROFILE
): OnnxEmbedderOptions => ({
  modelDir,
  defaultDir,
  defaultProfile,
  buildCommand: buildCommandFor(defaultProfile.id),
  batchSize: 16,
  maxLength: 1024,
  requestedDim: "auto"
})

const sharedModel = (model: BuiltinModel, version: Effect.Effect<string, { readonly message: string }>) =>
  Effect.gen(function* () {
    const root = path.join(tmpdir(), `kioku-embed-test-${model.profile.id}-${yield* version}`)
    mkdirSync(root, { recursive: true })
    const dir = path.join(root, model.profile.id)
    if (!isCurrent(dir, model.profile)) yield* runBuild(yield* buildCommandFor(model.profile.id), dir)
    return dir
  })

const converterSources = ["UseLiteModel.ts", "TfToOnnx.ts", "TfGraphModel.ts", "OnnxProto.ts"].map((f) =>
  fileURLToPath(new URL(`../../src/vectors/${f}`, import.meta.url))
)

/** The default model (USE-lite), built by the real child process once per package version and converter. */
export const sharedDefaultModel = sharedModel(
  useLite,
  Effect.map(packageDir, (p) => {
    const hash = createHash("sha256")
    for (const file of converterSources) hash.update(readFileSync(file))
    return `${p.version}-${hash.digest("hex").slice(0, 12)}`
  })
)

/** The word-vector model, built by the real child process once per package version. */
export const sharedWinkModel = sharedModel(wink, winkVersion)
