/**
 * The packed vectors of `recall_index.db` (table `vecs`): per partition the pool orders (little-endian int32)
 * and the vectors (little-endian float16, one after another) of its facts and reflections that have a valid
 * cached vector, copied from what the in-memory recall used. `meta.vectors` names what they were packed from
 * — the model id, the `vectors.db` version and the source stamps — so a cold query uses them only while all
 * three are current; then the cosine side needs neither `facts.json` nor the rows of `vectors.db`.
 */
import { Effect, Option, Schema } from "effect"
import { endianness } from "node:os"
import type { Vectors } from "../Hybrid.js"
import type { RecallCorpus } from "../RecallCorpus.js"
import { encodeHalf, halfValues } from "../../vectors/VectorCache.js"
import { yieldToIo } from "../../runtime/Actor.js"
import * as Db from "./RecallIndexDb.js"

export const packKey = (modelId: string, version: string, sources: string) =>
  JSON.stringify([modelId, version, sources])

const decodeKey = Schema.decodeUnknownOption(
  Schema.parseJson(Schema.Tuple(Schema.String, Schema.String, Schema.String))
)

/** The key of the same pack under the sources `to`, when `key` is its key under `from`. */
export const rekeyed = (key: string, from: string, to: string): string | undefined =>
  Option.match(decodeKey(key), {
    onNone: () => undefined,
    onSome: ([modelId, version, sources]) => (sources === from ? packKey(modelId, version, to) : undefined)
  })

export interface Packed {
  readonly ords: Int32Array
  /** `ords.length` vectors of `dim` float16 bit patterns, one after another (decoded as they are read). */
  readonly halves: Uint16Array
  readonly dim: number
}

/** Decoded packs kept between cold queries of a character, while `key` stays the index's. */
export interface PackCache {
  key: string | undefined
  readonly byPid: Map<number, ReadonlyArray<Packed>>
}

export const emptyCache = (): PackCache => ({ key: undefined, byPid: new Map() })

/** The packs of `pids` under `modelId` and a `vectors.db` version, or undefined when the index has none fresh. */
export type PackSource = (modelId: string, version: string) => Effect.Effect<ReadonlyArray<Packed> | undefined, unknown>

/** Vectors per row of `vecs`: a large partition is read in pieces, with pending I/O let through between them. */
export const CHUNK = 8192

const littleEndian = endianness() === "LE"

/** A typed view of little-endian bytes when they are aligned on a little-endian host, else a copy. */
const viewOf = <A extends Int32Array | Uint16Array>(
  bytes: Uint8Array,
  make: { readonly BYTES_PER_ELEMENT: number; new (buffer: ArrayBuffer, offset: number, length: number): A },
  copy: (length: number) => A
): A => {
  const size = make.BYTES_PER_ELEMENT
  if (bytes.byteLength % size !== 0) throw new Error("recall index: malformed pack")
  const length = bytes.byteLength / size
  if (littleEndian && bytes.byteOffset % size === 0 && bytes.buffer instanceof ArrayBuffer)
    return new make(bytes.buffer, bytes.byteOffset, length)
  const out = copy(length)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let i = 0; i < length; i++) out[i] = size === 4 ? view.getInt32(i * 4, true) : view.getUint16(i * 2, true)
  return out
}

const decodePack = (row: { readonly ords: Uint8Array; readonly data: Uint8Array }): Packed => {
  const ords = viewOf(row.ords, Int32Array, (n) => new Int32Array(n))
  const halves = viewOf(row.data, Uint16Array, (n) => new Uint16Array(n))
  const dim = ords.length === 0 ? 0 : halves.length / ords.length
  if (!Number.isInteger(dim)) throw new Error("recall index: malformed pack")
  return { ords, halves, dim }
}

/** Every chunk of one partition's pack, read one row at a time with pending I/O let through between rows. */
const readChunks = (reader: Db.IndexReader, pid: number, first: boolean) =>
  Effect.gen(function* () {
    const chunks: Array<Packed> = []
    for (let chunk = 0; ; chunk++) {
      if (!first || chunk > 0) yield* yieldToIo
      const row = yield* Effect.try(() => reader.vecs(pid, chunk))
      if (row === undefined) return chunks
      chunks.push(decodePack(row))
    }
  })

export const packSource =
  (reader: Db.IndexReader, sources: string, pids: ReadonlyArray<number>, cache: PackCache): PackSource =>
  (modelId, version) =>
    Effect.gen(function* () {
      const key = packKey(modelId, version, sources)
      if (reader.meta.get("vectors") !== key) return undefined
      if (cache.key !== key) {
        cache.key = key
        cache.byPid.clear()
      }
      const packs: Array<Packed> = []
      for (const pid of pids) {
        const hit = cache.byPid.get(pid) ?? (yield* readChunks(reader, pid, packs.length === 0))
        cache.byPid.set(pid, hit)
        packs.push(...hit)
      }
      return packs
    })

export const packedCount = (packs: ReadonlyArray<Packed>) => packs.reduce((n, p) => n + p.ords.length, 0)

/** Packed vectors scored between two yields to pending I/O (a cold query at 100,000 facts scores ~70,000). */
const COSINE_SLICE = 8192

/**
 * The nonzero cosines of `query` to the packed vectors `from` to `to` of `p`, appended to `out`, decoded as they
 * are summed in one pass over the flat array; the same sums in the same order as Rerank's `cosine`, so the same
 * figures as the warm path.
 */
const cosines = (
  p: Packed,
  query: Float32Array,
  na: number,
  from: number,
  to: number,
  out: Array<{ id: string; score: number }>
) => {
  const d = query.length
  const values = halfValues()
  const h = p.halves
  for (let i = from, base = from * d; i < to; i++, base += d) {
    let dot = 0
    let nb = 0
    for (let k = 0; k < d; k++) {
      const y = values[h[base + k] ?? 0] ?? 0
      dot += (query[k] ?? 0) * y
      nb += y * y
    }
    const c = dot / Math.sqrt(na * nb)
    if (Number.isFinite(c) && c !== 0) out.push({ id: String(p.ords[i]), score: c })
  }
}

/**
 * The cosine side over packs (ids are pool orders, as in the cold view), scored up front in slices with pending
 * I/O let through between them, so other characters' requests are not held up by a large pack.
 */
export const packedVectors = (packs: ReadonlyArray<Packed>, modelId: string, query: Float32Array) =>
  Effect.gen(function* () {
    const scored: Array<{ id: string; score: number }> = []
    const d = query.length
    let na = 0
    for (let k = 0; k < d; k++) na += (query[k] ?? 0) * (query[k] ?? 0)
    let done = 0
    for (const p of packs) {
      if (p.dim !== d || d === 0) continue
      for (let i = 0; i < p.ords.length; i += COSINE_SLICE) {
        if (done > 0) yield* yieldToIo
        const to = Math.min(i + COSINE_SLICE, p.ords.length)
        cosines(p, query, na, i, to, scored)
        done += to - i
      }
    }
    let byId: Map<string, Uint16Array> | undefined
    const vectors: Vectors = {
      modelId,
      query,
      vectorOf: (id) => {
        if (byId === undefined) {
          const map = new Map<string, Uint16Array>()
          for (const p of packs)
            for (let i = 0; i < p.ords.length; i++)
              map.set(String(p.ords[i]), p.halves.subarray(i * p.dim, (i + 1) * p.dim))
          byId = map
        }
        const halves = byId.get(id)
        if (halves === undefined) return undefined
        const values = halfValues()
        return Float32Array.from(halves, (b) => values[b] ?? 0)
      },
      pooled: () => scored
    }
    return vectors
  })

export interface PartPack {
  readonly partition: string
  readonly ords: Int32Array
  readonly data: Uint8Array
}

/** The vectors of one partition's facts and reflections, in pool order (not yet encoded). */
export interface Group {
  readonly partition: string
  readonly list: ReadonlyArray<readonly [number, Float32Array]>
}

/**
 * Vectors grouped by partition in pool order, from (partition, pool order, vector) of facts and reflections;
 * vectors of another length than the first are left out.
 */
export const grouped = (members: Iterable<readonly [string, number, Float32Array]>): Array<Group> => {
  const byPart = new Map<string, Array<readonly [number, Float32Array]>>()
  let dim: number | undefined
  for (const [key, ord, vector] of members) {
    dim ??= vector.length
    if (vector.length !== dim) continue
    const list = byPart.get(key) ?? []
    list.push([ord, vector])
    byPart.set(key, list)
  }
  return [...byPart].map(([partition, list]) => ({ partition, list: list.sort((a, b) => a[0] - b[0]) }))
}

/** The vectors of the corpus's facts and reflections grouped by partition, in pool order. */
export const groupOf = (corpus: RecallCorpus, map: ReadonlyMap<string, Float32Array>): Array<Group> =>
  grouped(
    [...map].flatMap(([id, vector]) => {
      const key = corpus.placement(id)
      const entry = key === undefined ? undefined : corpus.live(key)?.members.get(id)
      return key === undefined || entry === undefined || entry.tier === "fact_archive"
        ? []
        : [[key, corpus.order(id), vector] as const]
    })
  )

/** Encodes one group (synchronous; the caller slices between groups). */
export const encodeGroup = (g: Group): PartPack => {
  const dim = g.list[0]?.[1].length ?? 0
  const all = new Float32Array(g.list.length * dim)
  g.list.forEach(([, v], i) => all.set(v, i * dim))
  return { partition: g.partition, ords: Int32Array.from(g.list.map((x) => x[0])), data: encodeHalf(all) }
}

/**
 * Replaces the packs (rows of `chunkSize` vectors) and sets `meta.vectors` to `key` in one transaction, when `still` accepts the index's meta
 * (it mirrors the corpus the packs came from); false when it does not.
 */
export const writePacks = (
  dir: string,
  packs: ReadonlyArray<PartPack>,
  key: string,
  still: (meta: ReadonlyMap<string, string>) => boolean,
  chunkSize = CHUNK
): boolean => {
  const db = Db.openDb(Db.indexFile(dir), false)
  try {
    const pidOf = db.prepare("SELECT pid FROM parts WHERE key = ?").pluck()
    const put = db.prepare("INSERT INTO vecs (pid, chunk, ords, data) VALUES (?, ?, ?, ?)")
    const done = db.transaction(() => {
      if (!still(Db.readMeta(db))) return false
      db.exec("DELETE FROM vecs")
      for (const p of packs) {
        const pid: unknown = pidOf.get(p.partition)
        if (typeof pid !== "number") continue
        const dim = p.ords.length === 0 ? 0 : p.data.byteLength / 2 / p.ords.length
        for (let chunk = 0, i = 0; i < p.ords.length; chunk++, i += chunkSize) {
          const ords = p.ords.subarray(i, i + chunkSize)
          const data = p.data.subarray(i * dim * 2, (i + ords.length) * dim * 2)
          put.run(
            pid,
            chunk,
            Buffer.from(ords.buffer, ords.byteOffset, ords.byteLength),
            Buffer.from(data.buffer, data.byteOffset, data.byteLength)
          )
        }
      }
      db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('vectors', ?)").run(key)
      return true
    })()
    if (done) db.pragma("wal_checkpoint(TRUNCATE)")
    return done
  } finally {
    db.close()
  }
}
