/**
 * `recent.json`: the working history (oldest first, an optional summary memo at index 0), re-read whenever
 * the file changed on disk (another writer such as N.E.K.O.'s memory browser may edit it). Items appended by
 * kioku carry `data.id = "<event id>:<n>"`, which makes re-applying a journal event idempotent.
 * An unreadable or undecodable file is never overwritten: new items wait in a bounded pending list and
 * reach disk, after the file's own content, on the first write once the file reads again.
 */
import { Effect, Option, Schema } from "effect"
import * as path from "node:path"
import { readText, sameStamp, stampOf, writeAtomic, type FileStamp, type StoreError } from "../../store/DurableFs.js"
import { encodeJson } from "../../store/ViewFile.js"
import { RecentFile, type StoredMessage } from "../../domain/Message.js"

export class RecentUnreadable extends Schema.TaggedError<RecentUnreadable>()("RecentUnreadable", {
  file: Schema.String,
  message: Schema.String
}) {}

export interface RecentState {
  readonly items: ReadonlyArray<StoredMessage>
  readonly degraded: Option.Option<string>
  readonly pending: number
}

export interface AppendResult {
  /** True when every item (and every earlier pending item) is on disk. */
  readonly written: boolean
}

const decode = Schema.decodeUnknownEither(Schema.parseJson(RecentFile))

export const eventIdOf = (m: StoredMessage): string | undefined => {
  const id = m.data["id"]
  if (typeof id !== "string") return undefined
  const at = id.lastIndexOf(":")
  return at > 0 ? id.slice(0, at) : undefined
}

export const tagWithEvent = (eventId: string, messages: ReadonlyArray<StoredMessage>): Array<StoredMessage> =>
  messages.map((m, i) => ({ ...m, data: { ...m.data, id: `${eventId}:${i}` } }))

export const make = (dir: string, options: { readonly pendingCap: number }) => {
  const file = path.join(dir, "recent.json")
  let cache: { stamp: Option.Option<FileStamp>; items: ReadonlyArray<StoredMessage> } | undefined
  let pending: Array<StoredMessage> = []

  const readDisk = Effect.gen(function* () {
    const stamp = yield* stampOf(file)
    if (cache && sameStamp(cache.stamp, stamp)) return cache.items
    const text = yield* readText(file)
    const items = yield* Option.match(text, {
      onNone: () => Effect.succeed<ReadonlyArray<StoredMessage>>([]),
      onSome: (t) => {
        if (t.trim() === "") return Effect.succeed<ReadonlyArray<StoredMessage>>([])
        const parsed = decode(t)
        return parsed._tag === "Right"
          ? Effect.succeed(parsed.right)
          : Effect.fail(new RecentUnreadable({ file, message: "recent.json does not decode as a message list" }))
      }
    })
    cache = { stamp, items }
    return items
  }).pipe(Effect.catchTag("StoreError", (e) => Effect.fail(new RecentUnreadable({ file, message: e.message }))))

  const hasEvent = (items: ReadonlyArray<StoredMessage>, eventId: string) => items.some((m) => eventIdOf(m) === eventId)

  const writeAll = (items: ReadonlyArray<StoredMessage>): Effect.Effect<void, StoreError> =>
    writeAtomic(file, encodeJson(items)).pipe(
      Effect.zipRight(stampOf(file)),
      Effect.tap((stamp) =>
        Effect.sync(() => {
          cache = { stamp, items }
        })
      ),
      Effect.asVoid
    )

  const keepPending = (items: ReadonlyArray<StoredMessage>) => {
    pending = [...pending, ...items]
    if (pending.length > options.pendingCap) pending = pending.slice(pending.length - options.pendingCap)
  }

  return {
    file,
    /** Disk items followed by pending ones; when the file is unreadable, the pending ones alone. */
    read: Effect.gen(function* () {
      const disk = yield* Effect.either(readDisk)
      return disk._tag === "Right"
        ? { items: [...disk.right, ...pending], degraded: Option.none(), pending: pending.length }
        : { items: [...pending], degraded: Option.some(disk.left.message), pending: pending.length }
    }) satisfies Effect.Effect<RecentState, never>,
    /** Appends the messages of journal events not yet present, in order. */
    appendEvents: (
      events: ReadonlyArray<{ readonly eventId: string; readonly messages: ReadonlyArray<StoredMessage> }>
    ): Effect.Effect<AppendResult, never> =>
      Effect.gen(function* () {
        const disk = yield* Effect.either(readDisk)
        const present = disk._tag === "Right" ? [...disk.right, ...pending] : pending
        const fresh = events
          .filter((e) => e.messages.length > 0 && !hasEvent(present, e.eventId))
          .flatMap((e) => tagWithEvent(e.eventId, e.messages))
        if (disk._tag === "Left") {
          keepPending(fresh)
          return { written: false }
        }
        if (fresh.length === 0 && pending.length === 0) return { written: true }
        const next = [...disk.right, ...pending, ...fresh]
        const wrote = yield* Effect.either(writeAll(next))
        if (wrote._tag === "Left") {
          keepPending(fresh)
          yield* Effect.logWarning("recent.json write failed; items kept pending").pipe(
            Effect.annotateLogs({ file, error: wrote.left.message })
          )
          return { written: false }
        }
        pending = []
        return { written: true }
      })
  }
}

export type RecentStore = ReturnType<typeof make>
