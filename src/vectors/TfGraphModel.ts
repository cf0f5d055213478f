/**
 * Reads a TensorFlow.js graph model from disk: `model.json` (the frozen graph's nodes with their attributes,
 * and the weights manifest) and its binary weight shards, concatenated in manifest order and cut into one
 * tensor per weight (float32 or int32, unquantised; anything else is refused). Control inputs (`^name`) are
 * dropped: a frozen inference graph orders nothing through them.
 */
import { Effect, Schema } from "effect"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { EmbedError } from "./Embedder.js"

const AttrValue = Schema.Struct({
  i: Schema.optional(Schema.String),
  f: Schema.optional(Schema.Number),
  b: Schema.optional(Schema.Boolean),
  s: Schema.optional(Schema.Union(Schema.String, Schema.Array(Schema.Number))),
  type: Schema.optional(Schema.Number),
  list: Schema.optional(Schema.Struct({ i: Schema.optional(Schema.Array(Schema.String)) }))
})
export type AttrValue = typeof AttrValue.Type

const GraphNode = Schema.Struct({
  name: Schema.String,
  op: Schema.String,
  input: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
  attr: Schema.optionalWith(Schema.Record({ key: Schema.String, value: AttrValue }), { default: () => ({}) })
})

const Weight = Schema.Struct({
  name: Schema.String,
  shape: Schema.Array(Schema.Int),
  dtype: Schema.String,
  quantization: Schema.optional(Schema.Unknown)
})

const ModelJson = Schema.Struct({
  modelTopology: Schema.Struct({ node: Schema.Array(GraphNode) }),
  weightsManifest: Schema.Array(Schema.Struct({ paths: Schema.Array(Schema.String), weights: Schema.Array(Weight) }))
})

export interface TfNode {
  readonly name: string
  readonly op: string
  /** Data inputs, `name` or `name:k` for output k. */
  readonly inputs: ReadonlyArray<string>
  readonly attr: Readonly<Record<string, AttrValue>>
}

export interface TfTensor {
  readonly dtype: "float32" | "int32"
  readonly shape: ReadonlyArray<number>
  readonly data: Float32Array | Int32Array
}

export interface TfGraph {
  readonly nodes: ReadonlyArray<TfNode>
  readonly weights: ReadonlyMap<string, TfTensor>
}

const failure = (what: string) => (e: unknown) =>
  new EmbedError({ message: `${what}: ${e instanceof Error ? e.message : String(e)}` })

const sizeOf = (shape: ReadonlyArray<number>) => shape.reduce((a, b) => a * b, 1)

/** The graph and weights of `<dir>/model.json`. */
export const readGraphModel = (dir: string): Effect.Effect<TfGraph, EmbedError> =>
  Effect.gen(function* () {
    const file = path.join(dir, "model.json")
    const text = yield* Effect.try({ try: () => readFileSync(file, "utf8"), catch: failure(`cannot read ${file}`) })
    const model = yield* Schema.decodeUnknown(Schema.parseJson(ModelJson))(text).pipe(
      Effect.mapError(failure(`${file} is not a TensorFlow.js graph model`))
    )
    const weights = new Map<string, TfTensor>()
    for (const group of model.weightsManifest) {
      const bytes = yield* Effect.try({
        try: () => Buffer.concat(group.paths.map((p) => readFileSync(path.join(dir, p)))),
        catch: failure("cannot read the weight shards")
      })
      let offset = 0
      for (const w of group.weights) {
        if (w.quantization !== undefined || (w.dtype !== "float32" && w.dtype !== "int32")) {
          return yield* new EmbedError({
            message: `weight ${w.name}: ${w.dtype} or quantised weights are not supported`
          })
        }
        const length = sizeOf(w.shape)
        if (offset + length * 4 > bytes.length) {
          return yield* new EmbedError({ message: `weight ${w.name} runs past the end of its shards` })
        }
        const copy = bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length * 4)
        const data = w.dtype === "float32" ? new Float32Array(copy) : new Int32Array(copy)
        weights.set(w.name, { dtype: w.dtype, shape: w.shape, data })
        offset += length * 4
      }
      if (offset !== bytes.length) {
        return yield* new EmbedError({
          message: `the weight shards hold ${bytes.length} bytes, the manifest ${offset}`
        })
      }
    }
    const nodes = model.modelTopology.node.map((n) => ({
      name: n.name,
      op: n.op,
      inputs: n.input.filter((i) => !i.startsWith("^")),
      attr: n.attr
    }))
    return { nodes, weights }
  })
