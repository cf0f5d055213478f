/**
 * The vector cache codec of neko-compat §4.17, pure: a vector is stored as little-endian IEEE float16
 * (base64 in N.E.K.O.'s in-entry `embedding` field, raw bytes in `vectors.db`), keyed by the sha256 hex of
 * the embedded text and the model id. A cached vector is valid only when the text hash and the model id
 * both match and its length equals the model's dimension. Float32 → float16 rounds to nearest, ties to even.
 */
import { Option, Schema } from "effect"
import { createHash } from "node:crypto"

/** Bits of the float16 nearest to the float32 with bit pattern `bits` (ties to even, overflow to ±inf). */
const halfBits = (bits: number): number => {
  const sign = (bits >>> 16) & 0x8000
  const exp = (bits >>> 23) & 0xff
  const mant = bits & 0x7fffff
  if (exp === 0xff) return sign | 0x7c00 | (mant === 0 ? 0 : 0x200)
  const e = exp - 112
  if (e >= 0x1f) return sign | 0x7c00
  if (e <= 0) {
    if (e < -10) return sign
    const full = mant | 0x800000
    const shift = 14 - e
    const half = full >>> shift
    const rem = full & ((1 << shift) - 1)
    const mid = 1 << (shift - 1)
    return sign | (half + (rem > mid || (rem === mid && (half & 1) === 1) ? 1 : 0))
  }
  const half = (e << 10) | (mant >>> 13)
  const rem = mant & 0x1fff
  return sign | (half + (rem > 0x1000 || (rem === 0x1000 && (half & 1) === 1) ? 1 : 0))
}

/** The float value of float16 bits. */
export const fromHalfBits = (h: number): number => {
  const sign = (h & 0x8000) === 0 ? 1 : -1
  const exp = (h >>> 10) & 0x1f
  const mant = h & 0x3ff
  if (exp === 0) return sign * mant * 2 ** -24
  if (exp === 0x1f) return mant === 0 ? sign * Infinity : NaN
  return sign * (1 + mant / 1024) * 2 ** (exp - 15)
}

/** The float16 bits of `value` (rounded through float32 first). */
export const toHalfBits = (value: number): number => {
  const view = new DataView(new ArrayBuffer(4))
  view.setFloat32(0, value)
  return halfBits(view.getUint32(0))
}

/** Little-endian float16 bytes of a vector. */
export const encodeHalf = (vector: ArrayLike<number>): Uint8Array => {
  const out = new Uint8Array(vector.length * 2)
  const view = new DataView(out.buffer)
  const scratch = new DataView(new ArrayBuffer(4))
  for (let i = 0; i < vector.length; i++) {
    scratch.setFloat32(0, vector[i] ?? 0)
    view.setUint16(i * 2, halfBits(scratch.getUint32(0)), true)
  }
  return out
}

/** Every float16 bit pattern's value (256 KB, built on first decode): a cold load decodes millions of them. */
let halfTable: Float32Array | undefined
export const halfValues = (): Float32Array => {
  if (halfTable === undefined) {
    halfTable = new Float32Array(0x10000)
    for (let h = 0; h < 0x10000; h++) halfTable[h] = fromHalfBits(h)
  }
  return halfTable
}

/** The vector of little-endian float16 bytes; `None` for an odd byte count. */
export const decodeHalf = (bytes: Uint8Array): Option.Option<Float32Array> => {
  if (bytes.length % 2 !== 0) return Option.none()
  const values = halfValues()
  const out = new Float32Array(bytes.length / 2)
  for (let i = 0, j = 0; i < out.length; i++, j += 2) out[i] = values[(bytes[j] ?? 0) | ((bytes[j + 1] ?? 0) << 8)] ?? 0
  return Option.some(out)
}

/** N.E.K.O.'s `embedding` field: base64 of the little-endian float16 bytes. */
export const encodeBase64 = (vector: ArrayLike<number>): string => Buffer.from(encodeHalf(vector)).toString("base64")

const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

export const decodeBase64 = (text: string): Option.Option<Float32Array> =>
  base64.test(text) ? decodeHalf(Buffer.from(text, "base64")) : Option.none()

/** `embedding_text_sha256`: the sha256 hex of the UTF-8 text. */
export const textSha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex")

/** The dimension a model id names (`<profile>-<dim>d-…`), as N.E.K.O.'s and kioku's ids both do. */
export const dimOfModelId = (modelId: string): Option.Option<number> => {
  const match = /-(\d+)d-/.exec(modelId)
  return match?.[1] === undefined ? Option.none() : Option.some(Number(match[1]))
}

export interface CacheKey {
  readonly textSha256: string
  readonly modelId: string
}

/** True when a cached vector of `key` may serve `text` under `modelId` with `dim` dimensions. */
export const isValid = (
  cached: CacheKey & { readonly dim: number },
  text: string,
  modelId: string,
  dim: number
): boolean => cached.modelId === modelId && cached.dim === dim && cached.textSha256 === textSha256(text)

const EntryTriple = Schema.Struct({
  embedding: Schema.String,
  embedding_text_sha256: Schema.String,
  embedding_model_id: Schema.String
})
const decodeTriple = Schema.decodeUnknownOption(EntryTriple)

/** N.E.K.O.'s in-entry vector (`embedding`, `embedding_text_sha256`, `embedding_model_id`) when it is valid. */
export const entryVector = (
  entry: Readonly<Record<string, unknown>>,
  text: string,
  modelId: string,
  dim: number
): Option.Option<Float32Array> =>
  decodeTriple(entry).pipe(
    Option.flatMap((t) =>
      Option.filter(decodeBase64(t.embedding), (v) =>
        isValid(
          { textSha256: t.embedding_text_sha256, modelId: t.embedding_model_id, dim: v.length },
          text,
          modelId,
          dim
        )
      )
    )
  )

/** The in-entry triple for a vector, as N.E.K.O. writes it. */
export const entryTriple = (vector: ArrayLike<number>, text: string, modelId: string) => ({
  embedding: encodeBase64(vector),
  embedding_text_sha256: textSha256(text),
  embedding_model_id: modelId
})
