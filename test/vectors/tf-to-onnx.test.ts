import { assert, describe, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { writeFileSync } from "node:fs"
import * as path from "node:path"
import { encodeModel, FLOAT, node, valueInfo } from "../../src/vectors/OnnxProto.js"
import type { TfGraph, TfNode, TfTensor } from "../../src/vectors/TfGraphModel.js"
import { translate } from "../../src/vectors/TfToOnnx.js"
import { tempDir } from "./fixtures.js"

const f32 = (shape: ReadonlyArray<number>, values: ReadonlyArray<number>): TfTensor => ({
  dtype: "float32",
  shape,
  data: Float32Array.from(values)
})
const i32 = (shape: ReadonlyArray<number>, values: ReadonlyArray<number>): TfTensor => ({
  dtype: "int32",
  shape,
  data: Int32Array.from(values)
})
const op = (name: string, kind: string, inputs: ReadonlyArray<string>, attr: TfNode["attr"] = {}): TfNode => ({
  name,
  op: kind,
  inputs,
  attr
})

const constants: Record<string, TfTensor> = {
  perm: i32([2], [1, 0]),
  begin: i32([2], [1, 0]),
  end: i32([2], [0, 0]),
  strides: i32([2], [1, 1]),
  axis1: i32([1], [1]),
  axis0: i32([], [0]),
  points: i32([2, 2], [0, 1, 1, 2]),
  values: f32([2], [7, 8]),
  zero: f32([], [0]),
  ones: f32([1, 2, 3], [1, 1, 1, 1, 1, 1]),
  flat: i32([1], [-1])
}

/** y = [x[:,1] * rowsum(x), x · 1ᵀ (batched, adjoint), a scattered [2,3]], flattened and concatenated. */
const graph: TfGraph = {
  weights: new Map(Object.entries(constants)),
  nodes: [
    op("out", "ConcatV2", ["m", "bm_flat", "sp_flat", "axis0"], { N: { i: "3" } }),
    op("x", "Placeholder", []),
    ...Object.keys(constants).map((name) => op(name, "Const", [])),
    op("t", "Transpose", ["x", "perm"]),
    op("r", "StridedSlice", ["t", "begin", "end", "strides"], {
      begin_mask: { i: "2" },
      end_mask: { i: "2" },
      shrink_axis_mask: { i: "1" },
      ellipsis_mask: { i: "0" },
      new_axis_mask: { i: "0" }
    }),
    op("s", "Sum", ["x", "axis1"], { keep_dims: { b: false } }),
    op("m", "Mul", ["r", "s"]),
    op("sh", "Shape", ["x"]),
    op("sp", "SparseToDense", ["points", "sh", "values", "zero"]),
    op("xe", "ExpandDims", ["x", "axis0"]),
    op("bm", "BatchMatMul", ["xe", "ones"], { adj_x: { b: false }, adj_y: { b: true } }),
    op("bm_flat", "Reshape", ["bm", "flat"]),
    op("sp_flat", "Reshape", ["sp", "flat"])
  ]
}

const placeholders = { x: [node("Identity", ["input"], "x")] }

describe("TF graph → ONNX translation", () => {
  it.effect("computes in onnxruntime what the TF graph computes", () =>
    Effect.gen(function* () {
      const translated = translate(graph, "out", placeholders)
      assert.isTrue(Either.isRight(translated), Either.isLeft(translated) ? translated.left : "")
      if (Either.isLeft(translated)) return
      const onnx = encodeModel(
        {
          name: "t",
          input: [valueInfo("input", FLOAT, [2, 3])],
          output: [valueInfo("y", FLOAT, [12])],
          initializer: translated.right.initializers,
          node: [...translated.right.nodes, node("Identity", ["out"], "y")]
        },
        18
      )
      const file = path.join(tempDir(), "t.onnx")
      writeFileSync(file, Either.getOrThrow(onnx))
      const ort = yield* Effect.promise(() => import("onnxruntime-node"))
      const session = yield* Effect.promise(() => ort.InferenceSession.create(file))
      const input = new ort.Tensor("float32", Float32Array.from([1, 2, 3, 4, 5, 6]), [2, 3])
      const out = yield* Effect.promise(() => session.run({ input }))
      assert.deepStrictEqual([...(out["y"]?.data ?? [])], [12, 75, 6, 6, 15, 15, 0, 7, 0, 0, 0, 8])
      yield* Effect.promise(() => session.release())
    })
  )

  it("refuses an operation outside its table, or a form it does not cover, by name", () => {
    const unknown = translate({ ...graph, nodes: [...graph.nodes, op("e", "Erf", ["x"])] }, "e", placeholders)
    assert.deepStrictEqual(unknown, Either.left("cannot translate the graph: operation Erf (e) is not supported"))
    const strided = translate(
      {
        ...graph,
        nodes: [
          ...graph.nodes,
          op("bad", "StridedSlice", ["t", "begin", "end", "strides"], { ellipsis_mask: { i: "1" } })
        ]
      },
      "bad",
      placeholders
    )
    assert.deepStrictEqual(strided, Either.left("cannot translate the graph: bad: ellipsis or new axis"))
    const missing = translate(graph, "out", {})
    assert.deepStrictEqual(missing, Either.left("cannot translate the graph: no input for placeholder x"))
  })
})
