/**
 * Writes ONNX `ModelProto` files with protobufjs from a subset of onnx.proto whose field numbers match the
 * official schema: graphs of nodes with int, float and int-list attributes, raw-data initializers and typed
 * inputs and outputs. Integer tensors are int64 (the type ONNX shape and index operators take).
 */
import { Either } from "effect"
import protobuf from "protobufjs/light.js"

export const FLOAT = 1
export const INT64 = 7
export const BOOL = 9
const ATTR_FLOAT = 1
const ATTR_INT = 2
const ATTR_INTS = 7

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
        ints: { id: 8, type: "int64", rule: "repeated" },
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

/** A node attribute: an int, a float or a list of ints. */
export type Attr =
  | { readonly name: string; readonly i: number }
  | { readonly name: string; readonly f: number }
  | { readonly name: string; readonly ints: ReadonlyArray<number> }

export interface Node {
  readonly op_type: string
  readonly name: string
  readonly input: ReadonlyArray<string>
  readonly output: ReadonlyArray<string>
  readonly attribute: ReadonlyArray<Record<string, unknown>>
}

export interface Initializer {
  readonly name: string
  readonly data_type: number
  readonly dims: ReadonlyArray<number>
  readonly raw_data: Uint8Array
}

export const valueInfo = (name: string, elemType: number, dims: ReadonlyArray<number | string>) => ({
  name,
  type: {
    tensor_type: {
      elem_type: elemType,
      shape: { dim: dims.map((d) => (typeof d === "number" ? { dim_value: d } : { dim_param: d })) }
    }
  }
})

const attribute = (a: Attr) =>
  "ints" in a
    ? { name: a.name, ints: [...a.ints], type: ATTR_INTS }
    : "f" in a
      ? { name: a.name, f: a.f, type: ATTR_FLOAT }
      : { name: a.name, i: a.i, type: ATTR_INT }

/** A node with one output named `outputs[0]` (and more when given). */
export const node = (
  op: string,
  inputs: ReadonlyArray<string>,
  outputs: string | ReadonlyArray<string>,
  attrs: ReadonlyArray<Attr> = []
): Node => {
  const out = typeof outputs === "string" ? [outputs] : outputs
  return { op_type: op, name: out[0] ?? op, input: inputs, output: out, attribute: attrs.map(attribute) }
}

export const floatTensor = (name: string, dims: ReadonlyArray<number>, values: ArrayLike<number>): Initializer => {
  const raw = new Uint8Array(values.length * 4)
  const view = new DataView(raw.buffer)
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i] ?? 0, true)
  return { name, data_type: FLOAT, dims, raw_data: raw }
}

export const int64Tensor = (
  name: string,
  dims: ReadonlyArray<number>,
  values: ArrayLike<number> | ReadonlyArray<bigint>
): Initializer => {
  const raw = new Uint8Array(values.length * 8)
  const view = new DataView(raw.buffer)
  for (let i = 0; i < values.length; i++) view.setBigInt64(i * 8, BigInt(values[i] ?? 0), true)
  return { name, data_type: INT64, dims, raw_data: raw }
}

export interface Graph {
  readonly name: string
  readonly input: ReadonlyArray<ReturnType<typeof valueInfo>>
  readonly output: ReadonlyArray<ReturnType<typeof valueInfo>>
  readonly initializer: ReadonlyArray<Initializer>
  readonly node: ReadonlyArray<Node>
}

/** The serialised model (IR 8) of `graph` at the default-domain `opset`. */
export const encodeModel = (graph: Graph, opset: number): Either.Either<Uint8Array, string> =>
  Either.try({
    try: () => {
      const Model = protobuf.Root.fromJSON(onnxSubset).lookupType("ModelProto")
      const message = {
        ir_version: 8,
        producer_name: "kioku",
        producer_version: "1",
        opset_import: [{ domain: "", version: opset }],
        graph
      }
      const invalid = Model.verify(message)
      if (invalid !== null) throw new Error(invalid)
      return Model.encode(Model.fromObject(message)).finish()
    },
    catch: (e) => `ModelProto: ${e instanceof Error ? e.message : String(e)}`
  })
