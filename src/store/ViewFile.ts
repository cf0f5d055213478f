/**
 * JSON views: whole-file JSON documents decoded with a Schema on read and replaced atomically on write
 * (`indent=2`, UTF-8, non-ASCII kept). A file that exists but does not decode is a `ViewDecodeError`:
 * callers degrade and never overwrite it. The last decoded value is kept with the file's stamp (inode,
 * mtime in ns, size), so reading an unchanged file costs one `stat`; `release` drops it (an idle actor frees its
 * decoded views) and the next read decodes the file again. A view may bring a faster decoder of the parsed JSON
 * that answers what the schema would (facts/FactDecode.ts).
 */
import { Effect, Either, Option, Schema } from "effect"
import { readText, sameStamp, stampOf, StoreError, writeAtomic, type FileStamp } from "./DurableFs.js"

export class ViewDecodeError extends Schema.TaggedError<ViewDecodeError>()("ViewDecodeError", {
  file: Schema.String,
  message: Schema.String
}) {}

export interface ViewFile<A> {
  readonly file: string
  /** `None` when the file does not exist. */
  readonly read: Effect.Effect<Option.Option<A>, StoreError | ViewDecodeError>
  readonly write: (value: A) => Effect.Effect<void, StoreError>
  /** Drops the decoded value kept for `read`. */
  readonly release: Effect.Effect<void>
  /** Whether a decoded value is kept. */
  readonly held: () => boolean
}

export const encodeJson = (value: unknown): string => JSON.stringify(value, null, 2)

/**
 * Memoises `load` (the decoded file) by the file's stamp: an unchanged file is not read or decoded again.
 * A failed load is not cached.
 */
export const stampCache = <A, E>(file: string, load: Effect.Effect<A, E>) => {
  let cached: { readonly stamp: Option.Option<FileStamp>; readonly value: A } | undefined
  const reload = (stamp: Option.Option<FileStamp>) =>
    Effect.gen(function* () {
      const value = yield* load
      if (sameStamp(stamp, yield* stampOf(file))) cached = { stamp, value }
      return value
    })
  // Read on every use of a view (several times a turn): the unchanged case is one stat and one step.
  const read: Effect.Effect<A, E | StoreError> = Effect.flatMap(stampOf(file), (stamp) =>
    cached !== undefined && sameStamp(cached.stamp, stamp) ? Effect.succeed(cached.value) : reload(stamp)
  )
  const release = Effect.sync(() => {
    cached = undefined
  })
  return { read, release, held: () => cached !== undefined }
}

export const stampCached = <A, E>(file: string, load: Effect.Effect<A, E>): Effect.Effect<A, E | StoreError> =>
  stampCache(file, load).read

/** Decodes parsed JSON as the view's schema would; the error text names what did not decode. */
export type FastDecode<A> = (parsed: unknown) => Either.Either<A, string>

const fastly =
  <A>(fast: FastDecode<A>) =>
  (text: string): Effect.Effect<A, { readonly message: string }> =>
    Effect.suspend(() => {
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch (e) {
        return Effect.fail({ message: e instanceof Error ? e.message : String(e) })
      }
      return Either.match(fast(parsed), {
        onLeft: (message) => Effect.fail({ message }),
        onRight: (value) => Effect.succeed(value)
      })
    })

export const make = <A, I>(schema: Schema.Schema<A, I>, file: string, fast?: FastDecode<A>): ViewFile<A> => {
  const decode = fast === undefined ? Schema.decodeUnknown(Schema.parseJson(schema)) : fastly(fast)
  const encode = Schema.encode(schema)
  const cache = stampCache(
    file,
    readText(file).pipe(
      Effect.flatMap(
        Option.match({
          onNone: () => Effect.succeed(Option.none<A>()),
          onSome: (text) =>
            decode(text).pipe(
              Effect.map(Option.some),
              Effect.mapError((e) => new ViewDecodeError({ file, message: e.message.slice(0, 500) }))
            )
        })
      )
    )
  )
  return {
    file,
    read: cache.read,
    release: cache.release,
    held: cache.held,
    write: (value) =>
      encode(value).pipe(
        Effect.mapError((e) => new StoreError({ op: "encode", file, message: e.message.slice(0, 500) })),
        Effect.flatMap((encoded) => writeAtomic(file, encodeJson(encoded)))
      )
  }
}
