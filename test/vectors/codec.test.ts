import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import {
  decodeBase64,
  decodeHalf,
  dimOfModelId,
  encodeBase64,
  encodeHalf,
  entryTriple,
  entryVector,
  fromHalfBits,
  isValid,
  textSha256,
  toHalfBits
} from "../../src/vectors/VectorCache.js"
import { finish, l2normalize, poolRow } from "../../src/vectors/OnnxSession.js"

describe("float16 codec (neko-compat §4.17)", () => {
  it("encodes known values bit-exactly, rounding to nearest even", () => {
    const cases: ReadonlyArray<readonly [number, number]> = [
      [0, 0x0000],
      [-0, 0x8000],
      [1, 0x3c00],
      [-2, 0xc000],
      [0.5, 0x3800],
      [0.1, 0x2e66],
      [1 / 3, 0x3555],
      [65504, 0x7bff],
      [65520, 0x7c00],
      [1e6, 0x7c00],
      [-Infinity, 0xfc00],
      [2 ** -14, 0x0400],
      [2 ** -24, 0x0001],
      [2 ** -25, 0x0000],
      [3 * 2 ** -25, 0x0002],
      [1 + 2 ** -11, 0x3c00],
      [1 + 3 * 2 ** -11, 0x3c02]
    ]
    for (const [value, bits] of cases) assert.strictEqual(toHalfBits(value), bits, `f16(${value})`)
    assert.strictEqual(toHalfBits(NaN) & 0x7e00, 0x7e00)
    assert.isTrue(Number.isNaN(fromHalfBits(0x7e00)))
    assert.strictEqual(fromHalfBits(0x3555), 0.333251953125)
    assert.strictEqual(fromHalfBits(0x0001), 2 ** -24)
    assert.strictEqual(fromHalfBits(0xfc00), -Infinity)
  })

  it("stores little-endian bytes and N.E.K.O.'s base64", () => {
    assert.deepStrictEqual([...encodeHalf([1, -2])], [0x00, 0x3c, 0x00, 0xc0])
    assert.strictEqual(encodeBase64([1, -2]), "ADwAwA==")
    assert.deepStrictEqual(
      Option.map(decodeBase64("ADwAwA=="), (v) => [...v]),
      Option.some([1, -2])
    )
  })

  it("round-trips a unit vector within float16 precision", () => {
    const v = l2normalize(Float32Array.from({ length: 256 }, (_, i) => Math.sin(i * 0.37) - 0.2))
    const back = Option.getOrThrow(decodeBase64(encodeBase64(v)))
    assert.strictEqual(back.length, 256)
    for (let i = 0; i < v.length; i++) assert.approximately(back[i] ?? 0, v[i] ?? 0, 2 ** -11)
    assert.deepStrictEqual([...Option.getOrThrow(decodeHalf(encodeHalf(back)))], [...back])
  })

  it("decodes every float16 pattern as fromHalfBits does, from a view at any byte offset", () => {
    const bytes = new Uint8Array(1 + 2 * 0x10000)
    for (let h = 0; h < 0x10000; h++) [bytes[1 + 2 * h], bytes[2 + 2 * h]] = [h & 0xff, h >>> 8]
    const out = Option.getOrThrow(decodeHalf(bytes.subarray(1)))
    for (let h = 0; h < 0x10000; h++) {
      const want = fromHalfBits(h)
      if (Number.isNaN(want)) assert.isTrue(Number.isNaN(out[h]), `0x${h.toString(16)}`)
      else assert.strictEqual(out[h], Math.fround(want), `0x${h.toString(16)}`)
    }
  })

  it("rejects malformed base64 and odd byte counts", () => {
    assert.isTrue(Option.isNone(decodeBase64("not base64!")))
    assert.isTrue(Option.isNone(decodeBase64("AAA")))
    assert.isTrue(Option.isNone(decodeBase64("AA==")))
    assert.isTrue(Option.isNone(decodeHalf(new Uint8Array(3))))
  })
})

describe("cache keys", () => {
  it("hashes the UTF-8 text with sha256 hex", () => {
    assert.strictEqual(textSha256(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    assert.strictEqual(textSha256("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    assert.strictEqual(textSha256("小天"), textSha256("小天"))
    assert.notStrictEqual(textSha256("小天"), textSha256("小夭"))
  })

  it("reads the dimension from kioku's and N.E.K.O.'s model ids", () => {
    assert.deepStrictEqual(dimOfModelId("wink-sg100d-50k-100d-fp32"), Option.some(100))
    assert.deepStrictEqual(dimOfModelId("local-text-retrieval-v1-256d-int8-mlen1024"), Option.some(256))
    assert.isTrue(Option.isNone(dimOfModelId("no-dimension")))
  })

  it("accepts a cached vector only when text hash, model id and dimension all match", () => {
    const key = { textSha256: textSha256("I like tea"), modelId: "m-4d-fp32", dim: 4 }
    assert.isTrue(isValid(key, "I like tea", "m-4d-fp32", 4))
    assert.isFalse(isValid(key, "I like coffee", "m-4d-fp32", 4))
    assert.isFalse(isValid(key, "I like tea", "other-4d-fp32", 4))
    assert.isFalse(isValid(key, "I like tea", "m-4d-fp32", 8))
  })

  it("reads N.E.K.O.'s in-entry triple when it is valid", () => {
    const vector = [0.5, 0.5, 0.5, 0.5]
    const entry = { id: "fact_1", text: "I like tea", ...entryTriple(vector, "I like tea", "m-4d-fp32") }
    assert.deepStrictEqual(
      Option.map(entryVector(entry, "I like tea", "m-4d-fp32", 4), (v) => [...v]),
      Option.some(vector)
    )
    assert.isTrue(Option.isNone(entryVector(entry, "I like coffee", "m-4d-fp32", 4)))
    assert.isTrue(Option.isNone(entryVector(entry, "I like tea", "m-8d-fp32", 8)))
    assert.isTrue(Option.isNone(entryVector({ ...entry, embedding: null }, "I like tea", "m-4d-fp32", 4)))
    assert.isTrue(Option.isNone(entryVector({ ...entry, embedding: "%%%" }, "I like tea", "m-4d-fp32", 4)))
  })
})

describe("pooling", () => {
  const data = Float32Array.from([1, 0, 3, 0, 9, 9, 0, 2, 0, 0, 0, 0])
  it("takes the first token for cls and the masked mean for mean", () => {
    assert.deepStrictEqual([...poolRow(data, [1, 1, 0], 0, 3, 2, "cls")], [1, 0])
    assert.deepStrictEqual([...poolRow(data, [1, 1, 0], 0, 3, 2, "mean")], [2, 0])
    assert.deepStrictEqual([...poolRow(data, [1, 1, 0, 1, 0, 0], 1, 3, 2, "mean")], [0, 2])
  })

  it("normalises, truncates to the Matryoshka dimension, then normalises again", () => {
    const profile = { id: "m", dim: 4, pooling: "mean" as const, normalize: true, matryoshka: 2, languages: null }
    const out = finish(Float32Array.from([3, 4, 12, 0]), profile, 2)
    assert.strictEqual(out.length, 2)
    assert.approximately(out[0] ?? 0, 0.6, 1e-6)
    assert.approximately(out[1] ?? 0, 0.8, 1e-6)
    assert.deepStrictEqual([...finish(new Float32Array(4), profile, 4)], [0, 0, 0, 0])
  })
})
