/**
 * `facts.json` (active facts, a JSON array) for one character: read through a stamp-checked cache, indexed
 * by text hash, and rewritten whole, atomically, when journal events upsert facts by id (facts are written
 * as they were decoded: the record schema has no transformations to encode). A file that does not decode is
 * never overwritten (the events wait, as for `recent.json`). Rows are decoded by FactDecode's fast path.
 */
import { Effect, Option } from "effect"
import * as path from "node:path"
import { sameStamp, stampOf, writeAtomic, type FileStamp, type StoreError } from "../store/DurableFs.js"
import * as ViewFile from "../store/ViewFile.js"
import { FactsFile, type Fact } from "./Fact.js"
import { privateRows } from "../domain/Subject.js"
import { decodeFacts } from "./FactDecode.js"

/**
 * `facts` holds the private (unstamped) rows only and `all` adds the group-chat rows (domain/Subject.ts);
 * `byHash` covers every row (a group-chat row's hash is salted with its subject, so the two never collide).
 */
export interface FactIndex {
  readonly facts: ReadonlyArray<Fact>
  readonly all: ReadonlyArray<Fact>
  readonly byHash: ReadonlyMap<string, Fact>
}

export const make = (dir: string) => {
  const view = ViewFile.make(FactsFile, path.join(dir, "facts.json"), decodeFacts)
  let cache: { readonly stamp: Option.Option<FileStamp>; readonly index: FactIndex } | undefined

  const indexOf = (all: ReadonlyArray<Fact>): FactIndex => {
    const facts = privateRows(all)
    return { facts, all, byHash: new Map(all.map((f) => [f.hash, f])) }
  }

  const load: Effect.Effect<FactIndex, StoreError | ViewFile.ViewDecodeError> = Effect.gen(function* () {
    const stamp = yield* stampOf(view.file)
    if (cache && sameStamp(cache.stamp, stamp)) return cache.index
    const facts = Option.getOrElse(yield* view.read, (): ReadonlyArray<Fact> => [])
    cache = { stamp, index: indexOf(facts) }
    return cache.index
  })

  /** Inserts or replaces facts by id (the last record of an id wins) and drops `removed` ids, in one write. */
  const upsert = (changed: ReadonlyArray<Fact>, removed: ReadonlyArray<string> = []) =>
    Effect.gen(function* () {
      if (changed.length === 0 && removed.length === 0) return
      const { all: facts } = yield* load
      const byId = new Map(changed.map((f) => [f.id, f]))
      const gone = new Set(removed)
      const kept = facts.filter((f) => !gone.has(f.id)).map((f) => byId.get(f.id) ?? f)
      const known = new Set(facts.map((f) => f.id))
      const next = [...kept, ...[...byId.values()].filter((f) => !known.has(f.id) && !gone.has(f.id))]
      if (next.length === facts.length && next.every((f, i) => f === facts[i])) return
      yield* writeAtomic(view.file, ViewFile.encodeJson(next))
      cache = { stamp: yield* stampOf(view.file), index: indexOf(next) }
    })

  /** Drops the decoded rows (an idle actor's release); the next load reads the file again. */
  const release = Effect.zipRight(
    view.release,
    Effect.sync(() => {
      cache = undefined
    })
  )

  return { file: view.file, load, upsert, release, held: () => cache !== undefined || view.held() }
}

export type FactStore = ReturnType<typeof make>
