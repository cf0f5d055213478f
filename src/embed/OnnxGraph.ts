/**
 * Encodes the default embedding model as an ONNX `ModelProto` (IR 8, opset 17) with protobufjs, from a
 * subset of onnx.proto whose field numbers match the official schema. The graph is a masked mean of word
 * vectors: `input_ids[B,S]` and `attention_mask[B,S]` (int64) in; each position weighs
 * `attention_mask × keep[id]`, where `keep` is 0 for the padding and unknown rows and 1 for words, so
 * padding and unknown words never bias the mean; the weighted sum is divided by the weight sum (at least
 * 1e-9: a text of unknown words gives the zero vector) and L2-normalised into `sentence_embedding[B,D]`.
 */
import { Either } from "effect"
import protobuf from "protobufjs/light.js"

const FLOAT = 1
const INT64 = 7
const ATTR_FLOAT = 1
const ATTR_INT = 2

const onnxSubset = {
  nested: {
    ModelProto: {
      fields: {
        ir_version: { id: 1, type: "int64" },
        producer_name: { id: 2, type: "string" },
        producer_version: { id: 3, type: "string" },
        graph: { id: 7, type: "GraphProto" },
        opset_import: { id: 8, type: "OperatorSetIdProto", rule: "repeated" }
      }
    },
    OperatorSetIdProto: { fields: { domain: { id: 1, type: "string" }, version: { id: 2, type: "int64" } } },
    GraphProto: {
      fields: {
        node: { id: 1, type: "NodeProto", rule: "repeated" },
        name: { id: 2, type: "string" },
        initializer: { id: 5, type: "TensorProto", rule: "repeated" },
        input: { id: 11, type: "ValueInfoProto", rule: "repeated" },
        output: { id: 12, type: "ValueInfoProto", rule: "repeated" }
      }
    },
    NodeProto: {
      fields: {
        input: { id: 1, type: "string", rule: "repeated" },
        output: { id: 2, type: "string", rule: "repeated" },
        name: { id: 3, type: "string" },
        op_type: { id: 4, type: "string" },
        attribute: { id: 5, type: "AttributeProto", rule: "repeated" }
      }
    },
    AttributeProto: {
      fields: {
        name: { id: 1, type: "string" },
        f: { id: 2, type: "float" },
        i: { id: 3, type: "int64" },
        type: { id: 20, type: "int32" }
      }
    },
    TensorProto: {
      fields: {
        dims: { id: 1, type: "int64", rule: "repeated" },
        data_type: { id: 2, type: "int32" },
        name: { id: 8, type: "string" },
        raw_data: { id: 9, type: "bytes" }
      }
    },
    ValueInfoProto: { fields: { name: { id: 1, type: "string" }, type: { id: 2, type: "TypeProto" } } },
    TypeProto: { fields: { tensor_type: { id: 1, type: "TensorTypeProto" } } },
    TensorTypeProto: { fields: { elem_type: { id: 1, type: "int32" }, shape: { id: 2, type: "TensorShapeProto" } } },
    TensorShapeProto: { fields: { dim: { id: 1, type: "Dimension", rule: "repeated" } } },
    Dimension: { fields: { dim_value: { id: 1, type: "int64" }, dim_param: { id: 2, type: "string" } } }
  }
}

type Dim = number | string

const valueInfo = (name: string, elemType: number, dims: ReadonlyArray<Dim>) => ({
  name,
  type: {
    tensor_type: {
      elem_type: elemType,
      shape: { dim: dims.map((d) => (typeof d === "number" ? { dim_value: d } : { dim_param: d })) }
    }
  }
})

const tensor = (name: string, dataType: number, dims: ReadonlyArray<number>, bytes: Uint8Array) => ({
  name,
  data_type: dataType,
  dims: [...dims],
  raw_data: bytes
})

const floatBytes = (values: Float32Array): Uint8Array => {
  const out = new Uint8Array(values.length * 4)
  const view = new DataView(out.buffer)
  values.forEach((v, i) => view.setFloat32(i * 4, v, true))
  return out
}

const int64Bytes = (values: ReadonlyArray<bigint>): Uint8Array => {
  const out = new Uint8Array(values.length * 8)
  const view = new DataView(out.buffer)
  values.forEach((v, i) => view.setBigInt64(i * 8, v, true))
  return out
}

const node = (
  op: string,
  inputs: ReadonlyArray<string>,
  output: string,
  attrs: ReadonlyArray<{ readonly name: string; readonly i?: number; readonly f?: number }> = []
) => ({
  op_type: op,
  name: output,
  input: [...inputs],
  output: [output],
  attribute: attrs.map((a) =>
    a.f === undefined ? { name: a.name, i: a.i ?? 0, type: ATTR_INT } : { name: a.name, f: a.f, type: ATTR_FLOAT }
  )
})

export interface MeanPoolModel {
  /** Row-major `[vocab, dim]` word vectors; row `i` is token id `i`. */
  readonly table: Float32Array
  /** Per token id: 1 for a word, 0 for padding and unknown rows. */
  readonly keep: Float32Array
  readonly dim: number
}

/** The serialised `model.onnx` of a masked-mean word-vector model. */
export const encodeMeanPoolModel = (model: MeanPoolModel): Either.Either<Uint8Array, string> => {
  const vocab = model.keep.length
  if (model.table.length !== vocab * model.dim) return Either.left("table size does not match vocab × dim")
  const graph = {
    name: "kioku_mean_pool",
    input: [
      valueInfo("input_ids", INT64, ["batch", "sequence"]),
      valueInfo("attention_mask", INT64, ["batch", "sequence"])
    ],
    output: [valueInfo("sentence_embedding", FLOAT, ["batch", model.dim])],
    initializer: [
      tensor("embeddings", FLOAT, [vocab, model.dim], floatBytes(model.table)),
      tensor("keep", FLOAT, [vocab], floatBytes(model.keep)),
      tensor("axis_seq", INT64, [1], int64Bytes([1n])),
      tensor("axis_last", INT64, [1], int64Bytes([-1n])),
      tensor("epsilon", FLOAT, [], floatBytes(Float32Array.of(1e-9)))
    ],
    node: [
      node("Gather", ["embeddings", "input_ids"], "token_vectors", [{ name: "axis", i: 0 }]),
      node("Gather", ["keep", "input_ids"], "token_keep", [{ name: "axis", i: 0 }]),
      node("Cast", ["attention_mask"], "mask", [{ name: "to", i: FLOAT }]),
      node("Mul", ["token_keep", "mask"], "weights"),
      node("Unsqueeze", ["weights", "axis_last"], "weights_3d"),
      node("Mul", ["token_vectors", "weights_3d"], "weighted"),
      node("ReduceSum", ["weighted", "axis_seq"], "sum", [{ name: "keepdims", i: 0 }]),
      node("ReduceSum", ["weights", "axis_seq"], "count", [{ name: "keepdims", i: 1 }]),
      node("Max", ["count", "epsilon"], "count_safe"),
      node("Div", ["sum", "count_safe"], "mean"),
      node("LpNormalization", ["mean"], "sentence_embedding", [
        { name: "axis", i: -1 },
        { name: "p", i: 2 }
      ])
    ]
  }
  const message = {
    ir_version: 8,
    producer_name: "kioku",
    producer_version: "1",
    opset_import: [{ domain: "", version: 17 }],
    graph
  }
  return Either.try({
    try: () => {
      const Model = protobuf.Root.fromJSON(onnxSubset).lookupType("ModelProto")
      const invalid = Model.verify(message)
      if (invalid !== null) throw new Error(invalid)
      return Model.encode(Model.fromObject(message)).finish()
    },
    catch: (e) => `ModelProto: ${e instanceof Error ? e.message : String(e)}`
  })
}
