/**
 * JSON views: whole-file JSON documents decoded with a Schema on read and replaced atomically on write
 * (`indent=2`, UTF-8, non-ASCII kept). A file that exists but does not decode is a `ViewDecodeError`:
 * callers degrade and never overwrite it.
 */
import { Effect, Option, Schema } from "effect"
import { readText, StoreError, writeAtomic } from "./DurableFs.js"

export class ViewDecodeError extends Schema.TaggedError<ViewDecodeError>()("ViewDecodeError", {
  file: Schema.String,
  message: Schema.String
}) {}

export interface ViewFile<A> {
  readonly file: string
  /** `None` when the file does not exist. */
  readonly read: Effect.Effect<Option.Option<A>, StoreError | ViewDecodeError>
  readonly write: (value: A) => Effect.Effect<void, StoreError>
}

export const encodeJson = (value: unknown): string => JSON.stringify(value, null, 2)

export const make = <A, I>(schema: Schema.Schema<A, I>, file: string): ViewFile<A> => {
  const decode = Schema.decodeUnknown(Schema.parseJson(schema))
  const encode = Schema.encode(schema)
  return {
    file,
    read: readText(file).pipe(
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
    ),
    write: (value) =>
      encode(value).pipe(
        Effect.mapError((e) => new StoreError({ op: "encode", file, message: e.message.slice(0, 500) })),
        Effect.flatMap((encoded) => writeAtomic(file, encodeJson(encoded)))
      )
  }
}
