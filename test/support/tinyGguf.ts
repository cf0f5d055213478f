/**
 * Writes a tiny random-weight llama-architecture model as a GGUF v3 file for the in-process model tier's tests
 * (CI cannot download weights). Layout: header (magic, version, tensor and KV counts), KV metadata (architecture
 * hyperparameters, a SentencePiece-style vocabulary with byte fallback and ChatML control tokens, a ChatML chat
 * template), tensor infos, then F32 tensor data aligned to 32 bytes. Weights come from a seeded generator, so the
 * same options give the same bytes. About half a megabyte with the defaults.
 */
import { writeFileSync } from "node:fs"

export interface TinyModelOptions {
  readonly embedding?: number
  readonly layers?: number
  readonly feedForward?: number
  readonly heads?: number
  readonly contextLength?: number
  readonly seed?: number
  /** Leaves one tensor out, so llama.cpp refuses the file at load (the "model that fails to load" case). */
  readonly omitTensor?: string
}

const chatMlTemplate =
  "{% for message in messages %}{{'<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n'}}" +
  "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"

const alignment = 32

type Value =
  | { readonly t: "u32"; readonly v: number }
  | { readonly t: "f32"; readonly v: number }
  | { readonly t: "bool"; readonly v: boolean }
  | { readonly t: "str"; readonly v: string }
  | { readonly t: "strs"; readonly v: ReadonlyArray<string> }
  | { readonly t: "f32s"; readonly v: ReadonlyArray<number> }
  | { readonly t: "i32s"; readonly v: ReadonlyArray<number> }

/** GGUF metadata value types. */
const T = { u32: 4, i32: 5, f32: 6, bool: 7, str: 8, arr: 9 } as const

class Out {
  private chunks: Array<Buffer> = []
  size = 0
  push(b: Buffer) {
    this.chunks.push(b)
    this.size += b.length
  }
  u32(n: number) {
    const b = Buffer.alloc(4)
    b.writeUInt32LE(n)
    this.push(b)
  }
  i32(n: number) {
    const b = Buffer.alloc(4)
    b.writeInt32LE(n)
    this.push(b)
  }
  u64(n: number) {
    const b = Buffer.alloc(8)
    b.writeBigUInt64LE(BigInt(n))
    this.push(b)
  }
  f32(n: number) {
    const b = Buffer.alloc(4)
    b.writeFloatLE(n)
    this.push(b)
  }
  str(s: string) {
    const b = Buffer.from(s, "utf8")
    this.u64(b.length)
    this.push(b)
  }
  pad() {
    const rest = this.size % alignment
    if (rest !== 0) this.push(Buffer.alloc(alignment - rest))
  }
  bytes() {
    return Buffer.concat(this.chunks)
  }
}

const writeValue = (out: Out, value: Value) => {
  switch (value.t) {
    case "u32":
      out.u32(T.u32)
      return out.u32(value.v)
    case "f32":
      out.u32(T.f32)
      return out.f32(value.v)
    case "bool":
      out.u32(T.bool)
      return out.push(Buffer.from([value.v ? 1 : 0]))
    case "str":
      out.u32(T.str)
      return out.str(value.v)
    case "strs":
      out.u32(T.arr)
      out.u32(T.str)
      out.u64(value.v.length)
      return value.v.forEach((s) => out.str(s))
    case "f32s":
      out.u32(T.arr)
      out.u32(T.f32)
      out.u64(value.v.length)
      return value.v.forEach((n) => out.f32(n))
    case "i32s":
      out.u32(T.arr)
      out.u32(T.i32)
      out.u64(value.v.length)
      return value.v.forEach((n) => out.i32(n))
  }
}

/** Token types of llama.cpp's vocabulary: normal, unknown, control, byte. */
const NORMAL = 1
const UNKNOWN = 2
const CONTROL = 3
const BYTE = 6

/** <unk>, <s>, </s>, ChatML's two markers, the 256 byte-fallback tokens, then "▁" and every printable ASCII character. */
const vocabulary = () => {
  const tokens: Array<string> = ["<unk>", "<s>", "</s>", "<|im_start|>", "<|im_end|>"]
  const types: Array<number> = [UNKNOWN, CONTROL, CONTROL, CONTROL, CONTROL]
  for (let b = 0; b < 256; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, "0")}>`)
    types.push(BYTE)
  }
  tokens.push("\u2581")
  types.push(NORMAL)
  for (let c = 0x21; c <= 0x7e; c++) {
    tokens.push(String.fromCharCode(c))
    types.push(NORMAL)
  }
  return { tokens, types, scores: tokens.map((_, i) => -i) }
}

/** mulberry32 */
const generator = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Writes the model to `file` and returns its size in bytes. */
export const writeTinyGguf = (file: string, options: TinyModelOptions = {}): number => {
  const embd = options.embedding ?? 64
  const layers = options.layers ?? 2
  const ff = options.feedForward ?? 128
  const heads = options.heads ?? 4
  const vocab = vocabulary()
  const nVocab = vocab.tokens.length
  const random = generator(options.seed ?? 7)

  const kv: Array<readonly [string, Value]> = [
    ["general.architecture", { t: "str", v: "llama" }],
    ["general.name", { t: "str", v: "kioku-tiny-random" }],
    ["general.file_type", { t: "u32", v: 0 }],
    ["general.alignment", { t: "u32", v: alignment }],
    ["llama.context_length", { t: "u32", v: options.contextLength ?? 4096 }],
    ["llama.embedding_length", { t: "u32", v: embd }],
    ["llama.block_count", { t: "u32", v: layers }],
    ["llama.feed_forward_length", { t: "u32", v: ff }],
    ["llama.attention.head_count", { t: "u32", v: heads }],
    ["llama.attention.head_count_kv", { t: "u32", v: heads }],
    ["llama.attention.layer_norm_rms_epsilon", { t: "f32", v: 1e-5 }],
    ["llama.rope.dimension_count", { t: "u32", v: embd / heads }],
    ["llama.rope.freq_base", { t: "f32", v: 10000 }],
    ["llama.vocab_size", { t: "u32", v: nVocab }],
    ["tokenizer.ggml.model", { t: "str", v: "llama" }],
    ["tokenizer.ggml.tokens", { t: "strs", v: vocab.tokens }],
    ["tokenizer.ggml.scores", { t: "f32s", v: vocab.scores }],
    ["tokenizer.ggml.token_type", { t: "i32s", v: vocab.types }],
    ["tokenizer.ggml.unknown_token_id", { t: "u32", v: 0 }],
    ["tokenizer.ggml.bos_token_id", { t: "u32", v: 1 }],
    ["tokenizer.ggml.eos_token_id", { t: "u32", v: 4 }],
    ["tokenizer.ggml.add_bos_token", { t: "bool", v: false }],
    ["tokenizer.ggml.add_eos_token", { t: "bool", v: false }],
    ["tokenizer.chat_template", { t: "str", v: chatMlTemplate }]
  ]

  const shapes: Array<readonly [string, ReadonlyArray<number>, "norm" | "weight"]> = [
    ["token_embd.weight", [embd, nVocab], "weight"],
    ["output_norm.weight", [embd], "norm"],
    ["output.weight", [embd, nVocab], "weight"]
  ]
  for (let i = 0; i < layers; i++) {
    shapes.push(
      [`blk.${i}.attn_norm.weight`, [embd], "norm"],
      [`blk.${i}.attn_q.weight`, [embd, embd], "weight"],
      [`blk.${i}.attn_k.weight`, [embd, embd], "weight"],
      [`blk.${i}.attn_v.weight`, [embd, embd], "weight"],
      [`blk.${i}.attn_output.weight`, [embd, embd], "weight"],
      [`blk.${i}.ffn_norm.weight`, [embd], "norm"],
      [`blk.${i}.ffn_gate.weight`, [embd, ff], "weight"],
      [`blk.${i}.ffn_down.weight`, [ff, embd], "weight"],
      [`blk.${i}.ffn_up.weight`, [embd, ff], "weight"]
    )
  }
  const tensors = shapes.filter(([name]) => name !== options.omitTensor)

  const out = new Out()
  out.push(Buffer.from("GGUF", "ascii"))
  out.u32(3)
  out.u64(tensors.length)
  out.u64(kv.length)
  for (const [key, value] of kv) {
    out.str(key)
    writeValue(out, value)
  }
  const data = new Out()
  for (const [name, dims, kind] of tensors) {
    const count = dims.reduce((a, b) => a * b, 1)
    const values = new Float32Array(count)
    for (let j = 0; j < count; j++) values[j] = kind === "norm" ? 1 : (random() * 2 - 1) * 0.5
    data.pad()
    out.str(name)
    out.u32(dims.length)
    dims.forEach((d) => out.u64(d))
    out.u32(0) // F32
    out.u64(data.size)
    data.push(Buffer.from(values.buffer))
  }
  out.pad()
  const bytes = Buffer.concat([out.bytes(), data.bytes()])
  writeFileSync(file, bytes)
  return bytes.length
}
