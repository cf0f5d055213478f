/**
 * `recent.json`: the working history (oldest first, an optional summary memo at index 0), re-read whenever
 * the file changed on disk (another writer such as N.E.K.O.'s memory browser may edit it). Items appended by
 * kioku carry `data.id = "<event id>:<n>"`, which makes re-applying a journal event idempotent.
 * An unreadable or undecodable file is never overwritten: new items wait in a bounded pending list and
 * reach disk, after the file's own content, on the first write once the file reads again.
 * A whole-file splice (a browser edit) replaces every item, untagged, only while the file still holds exactly
 * the items it names, so replaying it is a no-op once anything changed.
 * With `deferWrites` (always), `deferAbove` (once the file kioku last read or wrote has that many bytes: a rewrite
 * costs its whole size) or `writeIntervalMs` (within that time of kioku's last write of the file), items appended
 * to an existing file are applied in memory only (`deferred`: read, content and splices see them) and reach disk
 * at the next `flush` (the planned write — `flushBy` says when the interval wants it — or the journal checkpoint,
 * which advances the sentinel only after it), a splice or any write that cannot be deferred; the journal holds
 * them meanwhile, so a crash replays them.
 */
import { Clock, Effect, Option, Schema } from "effect"
import { statSync } from "node:fs"
import * as path from "node:path"
import { readText, sameStamp, stampOf, type FileStamp, type StoreError } from "../store/DurableFs.js"
import { writeAtomicOnThread } from "../store/WriterThread.js"
import { RecentFile, type StoredMessage } from "../domain/Message.js"
import { withFields } from "../domain/Shapes.js"
import { fingerprint, splice } from "./Compression.js"

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
  messages.map((m, i) => withFields(m, { data: withFields(m.data, { id: `${eventId}:${i}` }) }))

/** One array item as `JSON.stringify(array, null, 2)` prints it, so the file text can be built incrementally. */
const itemText = (m: StoredMessage): string => "  " + JSON.stringify(m, null, 2).replace(/\n/g, "\n  ")
const arrayText = (texts: ReadonlyArray<string>): string => (texts.length === 0 ? "[]" : `[\n${texts.join(",\n")}\n]`)
/** The whole file's text as kioku writes it (two-space indent). */
export const fileText = (items: ReadonlyArray<StoredMessage>): string => arrayText(items.map(itemText))

/** The file as last read or written; its items and event ids grow in place as kioku appends (never handed out). */
interface Cached {
  readonly stamp: Option.Option<FileStamp>
  readonly items: Array<StoredMessage>
  /** Each item's text (`itemText`); a write joins them, so no whole-file string is kept between writes. */
  readonly texts: Array<string>
  readonly events: Set<string>
}

const eventsOf = (items: ReadonlyArray<StoredMessage>): Set<string> => {
  const ids = new Set<string>()
  for (const m of items) {
    const id = eventIdOf(m)
    if (id !== undefined) ids.add(id)
  }
  return ids
}

export const make = (
  dir: string,
  options: {
    readonly pendingCap: number
    readonly deferWrites?: boolean
    readonly deferAbove?: number
    readonly writeIntervalMs?: number
  }
) => {
  const deferAbove = options.deferAbove ?? 0
  const interval = options.writeIntervalMs ?? 0
  /** When kioku last wrote the file (ms; none yet: minus infinity). */
  let writtenAt = Number.NEGATIVE_INFINITY
  /** Items for a file this large (or with `deferWrites`) wait for the idle write or the checkpoint. */
  const holdsLong = (disk: Cached) =>
    Option.isSome(disk.stamp) &&
    (options.deferWrites === true || (deferAbove > 0 && disk.stamp.value.size >= deferAbove))
  /** Whether new items for the file as `disk` holds it wait for the next flush (a missing file is written at once). */
  const holds = (disk: Cached, now: number) =>
    holdsLong(disk) || (Option.isSome(disk.stamp) && interval > 0 && now - writtenAt < interval)
  const file = path.join(dir, "recent.json")
  let cache: Cached | undefined
  let pending: Array<StoredMessage> = []
  /** Applied items not yet written (older than any pending item); never dropped, cleared by a successful write. */
  let deferred: Array<StoredMessage> = []
  let deferredIds = new Set<string>()

  const readDisk = Effect.gen(function* () {
    const stamp = yield* stampOf(file)
    if (cache && sameStamp(cache.stamp, stamp)) return cache
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
    const read: Cached = { stamp, items: [...items], texts: items.map(itemText), events: eventsOf(items) }
    cache = read
    return read
  }).pipe(Effect.catchTag("StoreError", (e) => Effect.fail(new RecentUnreadable({ file, message: e.message }))))

  /** Replaces the file with `text` (content fsynced before the rename), notes when, answers the new stamp. */
  const replaceFile = (text: string) =>
    writeAtomicOnThread(file, text, "content").pipe(
      Effect.zipRight(Clock.currentTimeMillis),
      Effect.flatMap((now) => {
        writtenAt = now
        return stampOf(file)
      })
    )

  const writeAll = (base: Cached, added: ReadonlyArray<StoredMessage>): Effect.Effect<void, StoreError> => {
    const texts = added.map(itemText)
    return replaceFile(arrayText([...base.texts, ...texts])).pipe(
      Effect.tap((stamp) =>
        Effect.sync(() => {
          base.items.push(...added)
          base.texts.push(...texts)
          for (const id of eventsOf(added)) base.events.add(id)
          cache = { stamp, items: base.items, texts: base.texts, events: base.events }
        })
      ),
      Effect.asVoid
    )
  }

  const keepPending = (items: ReadonlyArray<StoredMessage>) => {
    pending = [...pending, ...items]
    if (pending.length > options.pendingCap) pending = pending.slice(pending.length - options.pendingCap)
  }

  const append = (
    events: ReadonlyArray<{ readonly eventId: string; readonly messages: ReadonlyArray<StoredMessage> }>,
    defer: boolean
  ): Effect.Effect<AppendResult, never> =>
    Effect.gen(function* () {
      const disk = yield* Effect.either(readDisk)
      const pendingIds = eventsOf(pending)
      const present = (id: string) =>
        pendingIds.has(id) || deferredIds.has(id) || (disk._tag === "Right" && disk.right.events.has(id))
      const fresh = events
        .filter((e) => e.messages.length > 0 && !present(e.eventId))
        .flatMap((e) => tagWithEvent(e.eventId, e.messages))
      if (disk._tag === "Left") {
        keepPending(fresh)
        return { written: false }
      }
      if (defer && pending.length === 0 && holds(disk.right, yield* Clock.currentTimeMillis)) {
        for (const e of events) if (e.messages.length > 0) deferredIds.add(e.eventId)
        deferred.push(...fresh)
        return { written: true }
      }
      if (fresh.length === 0 && pending.length === 0 && deferred.length === 0) return { written: true }
      const wrote = yield* Effect.either(writeAll(disk.right, [...deferred, ...pending, ...fresh]))
      if (wrote._tag === "Left") {
        keepPending(fresh)
        yield* Effect.logWarning("recent.json write failed; items kept pending").pipe(
          Effect.annotateLogs({ file, error: wrote.left.message })
        )
        return { written: false }
      }
      pending = []
      deferred = []
      deferredIds = new Set()
      return { written: true }
    })
  const flush: Effect.Effect<boolean> = Effect.suspend(() =>
    deferred.length === 0 ? Effect.succeed(true) : Effect.map(append([], false), (r) => r.written)
  )

  return {
    file,
    /**
     * The editable text, once held items are written: the file as on disk or, with items still unwritten
     * (pending, or held after a failed write), disk + those as kioku writes it; none when there is neither a
     * file nor such an item. An unreadable file is returned as its raw text.
     */
    content: Effect.gen(function* () {
      yield* flush
      const disk = yield* Effect.either(readDisk)
      const unwritten = [...deferred, ...pending]
      if (disk._tag === "Right" && unwritten.length > 0)
        return Option.some(arrayText([...disk.right.items, ...unwritten].map(itemText)))
      const raw = yield* readText(file)
      if (Option.isNone(raw) && unwritten.length > 0) return Option.some(arrayText(unwritten.map(itemText)))
      return raw
    }) satisfies Effect.Effect<Option.Option<string>, StoreError>,
    /** The identity of the directory holding the file (inode and birth time): changes when it is replaced. */
    generation: Effect.try(() => statSync(dir, { bigint: true })).pipe(
      Effect.map((st) => `${st.ino}:${st.birthtimeNs}`),
      Effect.orElseSucceed(() => "missing")
    ),
    /** Disk items followed by pending ones; when the file is unreadable, the pending ones alone. */
    read: Effect.gen(function* () {
      const disk = yield* Effect.either(readDisk)
      return disk._tag === "Right"
        ? { items: [...disk.right.items, ...deferred, ...pending], degraded: Option.none(), pending: pending.length }
        : { items: [...deferred, ...pending], degraded: Option.some(disk.left.message), pending: pending.length }
    }) satisfies Effect.Effect<RecentState, never>,
    /**
     * Appends the messages of journal events not yet present, in order. `written`: on disk, or (deferring)
     * applied in memory until the next flush.
     */
    appendEvents: (
      events: ReadonlyArray<{ readonly eventId: string; readonly messages: ReadonlyArray<StoredMessage> }>
    ): Effect.Effect<AppendResult, never> => append(events, true),
    /** Writes the deferred items (none: nothing to do); false when they could not be written. */
    flush,
    /** How many appended items wait for the next flush. */
    held: () => deferred.length,
    /**
     * When the held items are due on disk by the write interval (ms): `writeIntervalMs` after kioku's last write
     * of the file; none (infinity) when nothing is held or the file's size or `deferWrites` holds them longer.
     */
    flushBy: () =>
      deferred.length === 0 || cache === undefined || holdsLong(cache) || interval <= 0
        ? Number.POSITIVE_INFINITY
        : writtenAt + interval,
    /**
     * Replaces the head items named by `fingerprints` with `replacement` (tagged with the event id). Moot,
     * and a no-op, when the head changed; already applied when the event's items are present.
     */
    spliceEvent: (
      eventId: string,
      fingerprints: ReadonlyArray<string>,
      replacement: ReadonlyArray<StoredMessage>,
      at = 0,
      whole = false
    ): Effect.Effect<AppendResult & { readonly moot: boolean }, never> =>
      Effect.gen(function* () {
        // Items kept pending by a failed write go first (with the held ones); else held items are spliced as
        // part of the file, so one write lands both.
        if (pending.length > 0 && !(yield* flush)) return { written: false, moot: false }
        const disk = yield* Effect.either(readDisk)
        if (disk._tag === "Left" || pending.length > 0) return { written: false, moot: false }
        if (disk.right.events.has(eventId)) return { written: true, moot: false }
        const held = deferred.length
        const items = held === 0 ? disk.right.items : [...disk.right.items, ...deferred]
        const next = whole
          ? items.length === fingerprints.length && items.every((m, i) => fingerprint(m) === fingerprints[i])
            ? [...replacement]
            : undefined
          : splice(items, fingerprints, tagWithEvent(eventId, replacement), at)
        if (next === undefined) return { written: true, moot: true }
        const texts = next.map(itemText)
        const wrote = yield* Effect.either(
          replaceFile(arrayText(texts)).pipe(
            Effect.tap((stamp) =>
              Effect.sync(() => {
                cache = { stamp, items: [...next], texts, events: eventsOf(next) }
                if (held > 0) {
                  deferred = deferred.slice(held)
                  deferredIds = eventsOf(deferred)
                }
              })
            )
          )
        )
        if (wrote._tag === "Left") {
          yield* Effect.logWarning("recent.json splice failed").pipe(Effect.annotateLogs({ error: wrote.left.message }))
          return { written: false, moot: false }
        }
        return { written: true, moot: false }
      })
  }
}

export type RecentStore = ReturnType<typeof make>
