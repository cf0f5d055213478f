/**
 * Translates a frozen TensorFlow graph (as TfGraphModel reads it) into ONNX nodes of opset 18, one TF
 * operation at a time, for the operations an inference graph of a transformer sentence encoder uses. Every
 * integer tensor becomes int64, the type ONNX shape and index operators take (TF computes the same values in
 * int32). Attributes ONNX wants as constants (axes, permutations, slice bounds) must come from `Const` nodes;
 * an operation outside the table, or a form of one it does not cover (a strided slice with an ellipsis, a
 * convolution wider than 1×1), fails the translation with its name rather than producing a wrong graph.
 * Only the nodes the output depends on are translated, in dependency order; placeholders are replaced by
 * ONNX nodes the caller supplies.
 */
import { Either } from "effect"
import { BOOL, FLOAT, floatTensor, int64Tensor, INT64, node, type Initializer, type Node } from "./OnnxProto.js"
import type { TfGraph, TfNode, TfTensor } from "./TfGraphModel.js"

const INT64_MAX = 9223372036854775807n

class Untranslatable extends Error {}
const fail = (message: string): never => {
  throw new Untranslatable(message)
}

/** The ONNX element type of a TF dtype enum (DT_FLOAT 1, DT_INT32 3, DT_INT64 9, DT_BOOL 10). */
const onnxType = (tfType: number | undefined): number =>
  tfType === 1 ? FLOAT : tfType === 3 || tfType === 9 ? INT64 : tfType === 10 ? BOOL : fail(`dtype ${tfType}`)

const tensorName = (input: string) => input.replace(/:0$/, "")
const producer = (input: string) => input.replace(/:\d+$/, "")

const reduce: Readonly<Record<string, string>> = {
  Sum: "ReduceSum",
  Mean: "ReduceMean",
  Max: "ReduceMax",
  Prod: "ReduceProd"
}
const binary: Readonly<Record<string, string>> = {
  Add: "Add",
  AddV2: "Add",
  BiasAdd: "Add",
  Sub: "Sub",
  Mul: "Mul",
  RealDiv: "Div",
  Maximum: "Max",
  Minimum: "Min",
  Less: "Less",
  Greater: "Greater"
}
const unary: Readonly<Record<string, string>> = {
  Sin: "Sin",
  Cos: "Cos",
  Relu: "Relu",
  Tanh: "Tanh",
  Sqrt: "Sqrt",
  Exp: "Exp",
  LogicalNot: "Not",
  Identity: "Identity",
  Shape: "Shape"
}

export interface Translated {
  readonly nodes: ReadonlyArray<Node>
  readonly initializers: ReadonlyArray<Initializer>
}

const bigints = (values: ReadonlyArray<number | bigint>): Array<bigint> => values.map((v) => BigInt(v))

/** The nodes computing `output` from the graph's placeholders, which `placeholders` computes from ONNX inputs. */
export const translate = (
  graph: TfGraph,
  output: string,
  placeholders: Readonly<Record<string, ReadonlyArray<Node>>>
): Either.Either<Translated, string> =>
  Either.try({
    try: () => {
      const byName = new Map(graph.nodes.map((n) => [n.name, n]))
      const order: Array<TfNode> = []
      const state = new Map<string, "visiting" | "done">()
      const visit = (name: string) => {
        if (state.get(name) === "done") return
        if (state.get(name) === "visiting") fail(`cycle at ${name}`)
        const n = byName.get(name) ?? fail(`no node ${name}`)
        state.set(name, "visiting")
        for (const input of n.inputs) visit(producer(input))
        state.set(name, "done")
        order.push(n)
      }
      visit(producer(output))
      const extra: Array<Initializer> = []
      const nodes: Array<Node> = []
      const used = new Set<string>()
      const weightOf = (name: string): TfTensor => {
        const n = byName.get(producer(name))
        return (n?.op === "Const" ? graph.weights.get(n.name) : undefined) ?? fail(`${name} is not a constant`)
      }
      const constant = (name: string): ReadonlyArray<number> => Array.from(weightOf(name).data)
      const scalar = (name: string): number => constant(name)[0] ?? fail(`${name} is empty`)
      const ints = (n: TfNode, key: string) => (n.attr[key]?.list?.i ?? []).map(Number)
      const int = (n: TfNode, key: string) => Number(n.attr[key]?.i ?? "0")
      const flag = (n: TfNode, key: string) => n.attr[key]?.b === true
      const vector = (base: string, values: ReadonlyArray<number | bigint>) => {
        const name = `${base}/onnx_const_${extra.length}`
        extra.push(int64Tensor(name, [values.length], bigints(values)))
        return name
      }
      const rankOf = (name: string): number => {
        const n = byName.get(producer(name)) ?? fail(`no node ${name}`)
        if (n.op === "Const") return weightOf(name).shape.length
        if (n.op === "Transpose") return constant(n.inputs[1] ?? "").length
        return fail(`rank of ${name} unknown`)
      }
      const emit = (...more: ReadonlyArray<Node>) => {
        for (const m of more) for (const i of m.input) used.add(i)
        nodes.push(...more)
      }
      const swapLast = (n: TfNode, x: string, side: string) => {
        const rank = rankOf(x)
        const perm = Array.from({ length: rank }, (_, i) => (i < rank - 2 ? i : 2 * rank - 3 - i))
        const out = `${n.name}/onnx_swap_${side}`
        emit(node("Transpose", [x], out, [{ name: "perm", ints: perm }]))
        return out
      }
      for (const n of order) {
        const x = (k: number) => tensorName(n.inputs[k] ?? fail(`${n.name} lacks input ${k}`))
        const out = n.name
        const tmp = (suffix: string) => `${n.name}/onnx_${suffix}`
        const op = n.op
        if (op === "Const") continue
        if (op === "Placeholder") {
          emit(...(placeholders[n.name] ?? fail(`no input for placeholder ${n.name}`)))
        } else if (op in binary) {
          if (op === "BiasAdd" && n.attr["data_format"] !== undefined && attrString(n, "data_format") !== "NHWC") {
            fail(`${n.name}: only NHWC bias`)
          }
          emit(node(binary[op] ?? op, [x(0), x(1)], out))
        } else if (op in unary) {
          emit(node(unary[op] ?? op, [x(0)], out))
        } else if (op === "Rsqrt") {
          emit(node("Sqrt", [x(0)], tmp("sqrt")), node("Reciprocal", [tmp("sqrt")], out))
        } else if (op === "Square") {
          emit(node("Mul", [x(0), x(0)], out))
        } else if (op === "Softmax") {
          emit(node("Softmax", [x(0)], out, [{ name: "axis", i: -1 }]))
        } else if (op === "Cast") {
          emit(node("Cast", [x(0)], out, [{ name: "to", i: onnxType(n.attr["DstT"]?.type) }]))
        } else if (op === "Reshape") {
          emit(node("Reshape", [x(0), x(1)], out))
        } else if (op === "Transpose") {
          emit(node("Transpose", [x(0)], out, [{ name: "perm", ints: constant(x(1)) }]))
        } else if (op === "ExpandDims") {
          emit(node("Unsqueeze", [x(0), vector(out, [scalar(x(1))])], out))
        } else if (op === "Squeeze") {
          const dims = ints(n, "squeeze_dims")
          emit(node("Squeeze", dims.length > 0 ? [x(0), vector(out, dims)] : [x(0)], out))
        } else if (op === "ConcatV2") {
          const count = n.inputs.length - 1
          const parts = Array.from({ length: count }, (_, k) => x(k))
          emit(node("Concat", parts, out, [{ name: "axis", i: scalar(x(count)) }]))
        } else if (op === "Pack") {
          const axis = int(n, "axis")
          const axes = vector(out, [axis])
          const parts = n.inputs.map((_, k) => tmp(`unsqueezed_${k}`))
          emit(...n.inputs.map((_, k) => node("Unsqueeze", [x(k), axes], tmp(`unsqueezed_${k}`))))
          emit(node("Concat", parts, out, [{ name: "axis", i: axis }]))
        } else if (op === "GatherV2") {
          if (int(n, "batch_dims") !== 0) fail(`${n.name}: batch_dims`)
          emit(node("Gather", [x(0), x(1)], out, [{ name: "axis", i: scalar(x(2)) }]))
        } else if (op === "GatherNd") {
          emit(node("GatherND", [x(0), x(1)], out))
        } else if (op === "ScatterNd" || op === "SparseToDense") {
          const [indices, updates, shape, fill] =
            op === "ScatterNd" ? [x(0), x(1), x(2), zeroOf(n, extra)] : [x(0), x(2), x(1), x(3)]
          emit(node("Expand", [fill, shape], tmp("base")), node("ScatterND", [tmp("base"), indices, updates], out))
        } else if (op === "Where") {
          if (n.inputs.length !== 1) fail(`${n.name}: Where with 3 inputs`)
          emit(
            node("NonZero", [x(0)], tmp("nonzero")),
            node("Transpose", [tmp("nonzero")], out, [{ name: "perm", ints: [1, 0] }])
          )
        } else if (op === "StridedSlice") {
          if (int(n, "ellipsis_mask") !== 0 || int(n, "new_axis_mask") !== 0) fail(`${n.name}: ellipsis or new axis`)
          const [begin, end, strides] = [constant(x(1)), constant(x(2)), constant(x(3))]
          const bit = (mask: string, i: number) => ((int(n, mask) >> i) & 1) === 1
          const starts: Array<bigint> = []
          const ends: Array<bigint> = []
          const shrink: Array<number> = []
          begin.forEach((b, i) => {
            const step = strides[i] ?? 1
            if (step !== 1) fail(`${n.name}: stride ${step}`)
            if (bit("shrink_axis_mask", i)) {
              shrink.push(i)
              starts.push(BigInt(b))
              ends.push(b === -1 ? INT64_MAX : BigInt(b + 1))
            } else {
              starts.push(bit("begin_mask", i) ? 0n : BigInt(b))
              ends.push(bit("end_mask", i) ? INT64_MAX : BigInt(end[i] ?? 0))
            }
          })
          const axes = begin.map((_, i) => i)
          const sliced = shrink.length > 0 ? tmp("sliced") : out
          emit(node("Slice", [x(0), vector(out, starts), vector(out, ends), vector(out, axes)], sliced))
          if (shrink.length > 0) emit(node("Squeeze", [sliced, vector(out, shrink)], out))
        } else if (op === "Slice") {
          const [begin, size] = [constant(x(1)), constant(x(2))]
          const ends = begin.map((b, i) => ((size[i] ?? -1) === -1 ? INT64_MAX : BigInt(b + (size[i] ?? 0))))
          emit(
            node(
              "Slice",
              [
                x(0),
                vector(out, begin),
                vector(out, ends),
                vector(
                  out,
                  begin.map((_, i) => i)
                )
              ],
              out
            )
          )
        } else if (op in reduce) {
          const axes = constant(x(1))
          emit(
            node(reduce[op] ?? op, [x(0), vector(out, axes)], out, [
              { name: "keepdims", i: flag(n, "keep_dims") ? 1 : 0 }
            ])
          )
        } else if (op === "MatMul" || op === "BatchMatMul" || op === "BatchMatMulV2") {
          const [ta, tb] = op === "MatMul" ? ["transpose_a", "transpose_b"] : ["adj_x", "adj_y"]
          const a = flag(n, ta) ? swapLast(n, x(0), "a") : x(0)
          const b = flag(n, tb) ? swapLast(n, x(1), "b") : x(1)
          emit(node("MatMul", [a, b], out))
        } else if (op === "Conv2D") {
          const kernel = weightOf(x(1))
          const [kh, kw, cin, cout] = kernel.shape
          const unit = [...ints(n, "strides"), ...ints(n, "dilations")].every((s) => s === 1)
          if (
            kh !== 1 ||
            kw !== 1 ||
            !unit ||
            attrString(n, "data_format") !== "NHWC" ||
            cin === undefined ||
            cout === undefined
          ) {
            fail(`${n.name}: only 1×1 NHWC convolutions with unit strides`)
          }
          const matrix = `${x(1)}/onnx_matrix`
          extra.push(floatTensor(matrix, [cin ?? 0, cout ?? 0], kernel.data))
          emit(node("MatMul", [x(0), matrix], out))
        } else if (op === "SplitV") {
          const sizes = constant(x(1))
          const outs = sizes.map((_, k) => (k === 0 ? out : `${out}:${k}`))
          emit(node("Split", [x(0), vector(out, sizes)], outs, [{ name: "axis", i: scalar(x(2)) }]))
        } else if (op === "Range") {
          emit(node("Range", [x(0), x(1), x(2)], out))
        } else {
          fail(`operation ${op} (${n.name}) is not supported`)
        }
      }
      const constants = order
        .filter((n) => n.op === "Const" && used.has(n.name))
        .map((n) => initializerOf(n.name, weightOf(n.name)))
      return { nodes, initializers: [...constants, ...extra] }
    },
    catch: (e) => (e instanceof Error ? `cannot translate the graph: ${e.message}` : String(e))
  })

const attrString = (n: TfNode, key: string): string => {
  const s = n.attr[key]?.s
  return typeof s === "string" ? Buffer.from(s, "base64").toString("utf8") : String.fromCharCode(...(s ?? []))
}

const zeroOf = (n: TfNode, extra: Array<Initializer>): string => {
  const name = `${n.name}/onnx_zero`
  extra.push(onnxType(n.attr["T"]?.type) === FLOAT ? floatTensor(name, [], [0]) : int64Tensor(name, [], [0]))
  return name
}

const initializerOf = (name: string, t: TfTensor): Initializer =>
  t.dtype === "float32" ? floatTensor(name, t.shape, t.data) : int64Tensor(name, t.shape, t.data)
