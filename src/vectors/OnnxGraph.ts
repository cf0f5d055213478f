/**
 * The ONNX graph of a word-vector model (IR 8, opset 17): a masked mean of word vectors. `input_ids[B,S]` and
 * `attention_mask[B,S]` (int64) in; each position weighs `attention_mask × keep[id]`, where `keep` is 0 for
 * the padding and unknown rows and 1 for words (or a word's weight, for a weighted mean), so padding and
 * unknown words never bias the mean; the weighted sum is divided by the weight sum (at least 1e-9: a text of
 * unknown words gives the zero vector) and L2-normalised into `sentence_embedding[B,D]`.
 */
import { Either } from "effect"
import { encodeModel, FLOAT, floatTensor, int64Tensor, INT64, node, valueInfo } from "./OnnxProto.js"

export interface MeanPoolModel {
  /** Row-major `[vocab, dim]` word vectors; row `i` is token id `i`. */
  readonly table: Float32Array
  /** Per token id: its weight, 0 for padding and unknown rows. */
  readonly keep: Float32Array
  readonly dim: number
}

/** The serialised `model.onnx` of a masked-mean word-vector model. */
export const encodeMeanPoolModel = (model: MeanPoolModel): Either.Either<Uint8Array, string> => {
  const vocab = model.keep.length
  if (model.table.length !== vocab * model.dim) return Either.left("table size does not match vocab × dim")
  return encodeModel(
    {
      name: "kioku_mean_pool",
      input: [
        valueInfo("input_ids", INT64, ["batch", "sequence"]),
        valueInfo("attention_mask", INT64, ["batch", "sequence"])
      ],
      output: [valueInfo("sentence_embedding", FLOAT, ["batch", model.dim])],
      initializer: [
        floatTensor("embeddings", [vocab, model.dim], model.table),
        floatTensor("keep", [vocab], model.keep),
        int64Tensor("axis_seq", [1], [1]),
        int64Tensor("axis_last", [1], [-1]),
        floatTensor("epsilon", [], [1e-9])
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
    },
    17
  )
}
