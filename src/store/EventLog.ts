/**
 * `events.ndjson` (append-only transition journal) and `events_applied.json` (replay sentinel).
 * An event is appended and fsynced before any view it describes changes; the sentinel names the last event
 * whose effects are all on disk. Reading tolerates torn or foreign lines: they are returned as rejects with
 * their line number so the reconciler can record them and move on.
 */
import { Effect, Either, Option, Schema } from "effect"
import * as path from "node:path"
import { appendDurable, ensureDir, readText, withinDir, type StoreError } from "./DurableFs.js"
import { appendPooled } from "./PooledSync.js"
import { writeAtomicOnThread } from "./WriterThread.js"
import * as ViewFile from "./ViewFile.js"

export const EventLine = Schema.Struct({
  event_id: Schema.String,
  type: Schema.String,
  ts: Schema.String,
  payload: Schema.Record({ key: Schema.String, value: Schema.Unknown })
})
export type EventLine = typeof EventLine.Type

export const Sentinel = Schema.Struct({
  last_applied_event_id: Schema.NullOr(Schema.String),
  ts: Schema.String
})
export type Sentinel = typeof Sentinel.Type

export interface RejectedLine {
  readonly line: number
  readonly reason: string
  readonly event_id?: string
}

export interface Unapplied {
  readonly events: ReadonlyArray<EventLine>
  readonly rejected: ReadonlyArray<RejectedLine>
  readonly lastEventId: string | null
}

export const decodeLine = Schema.decodeUnknownEither(Schema.parseJson(EventLine))

export interface EventLog {
  readonly file: string
  readonly append: (events: ReadonlyArray<EventLine>) => Effect.Effect<void, StoreError>
  readonly unapplied: Effect.Effect<Unapplied, StoreError | ViewFile.ViewDecodeError>
  /** Every readable event of the file, in order. */
  readonly all: Effect.Effect<ReadonlyArray<EventLine>, StoreError>
  readonly setSentinel: (eventId: string, ts: string) => Effect.Effect<void, StoreError>
  /**
   * Once the file holds more than `maxLines` lines and every event is applied (the sentinel names the last
   * one), rewrites it without the events `drop` selects; the last event always stays, so the sentinel still
   * names a line. Returns how many lines were removed.
   */
  readonly compact: (
    maxLines: number,
    lastApplied: string,
    drop: (event: EventLine) => boolean
  ) => Effect.Effect<number, StoreError>
  /**
   * Rewrites the whole file atomically through `edit` (redaction): each readable event is kept, replaced or
   * dropped (`None`); an unreadable line is kept unless `dropRaw` selects it. Writes nothing when no line
   * changes. Returns how many lines changed.
   */
  readonly rewrite: (
    edit: (event: EventLine) => Option.Option<EventLine>,
    dropRaw: (raw: string) => boolean
  ) => Effect.Effect<number, StoreError>
  readonly recordRejected: (rejected: ReadonlyArray<RejectedLine>, ts: string) => Effect.Effect<void, StoreError>
}

export const make = (dir: string): EventLog => {
  const file = path.join(dir, "events.ndjson")
  const sentinelView = ViewFile.make(Sentinel, path.join(dir, "events_applied.json"))
  const rejectFile = path.join(dir, "events_rejected.ndjson")
  let needsNewline: boolean | undefined
  /** How many non-empty lines the file holds, once known (so a checkpoint need not read it to decide). */
  let lineCount: number | undefined

  /** The file's non-empty lines, each with its decoded event when it decodes. */
  const readLines = readText(file).pipe(
    Effect.map((text) =>
      Option.getOrElse(text, () => "")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((raw) => ({ raw, event: Either.getRight(decodeLine(raw)) }))
    )
  )
  const replaceWith = (lines: ReadonlyArray<string>) =>
    writeAtomicOnThread(file, lines.map((l) => l + "\n").join("")).pipe(
      Effect.tap(() => {
        needsNewline = false
        lineCount = lines.length
      })
    )

  const inDir = withinDir(dir)
  const checkTail = readText(file).pipe(
    Effect.map((text) => Option.match(text, { onNone: () => false, onSome: (t) => t.length > 0 && !t.endsWith("\n") }))
  )

  return {
    file,
    append: (events) =>
      Effect.gen(function* () {
        if (events.length === 0) return
        if (needsNewline === undefined) needsNewline = yield* checkTail
        const body = events.map((e) => JSON.stringify(e)).join("\n") + "\n"
        yield* inDir(appendPooled(file, needsNewline ? "\n" + body : body))
        needsNewline = false
        if (lineCount !== undefined) lineCount += events.length
      }),
    unapplied: Effect.gen(function* () {
      const text = Option.getOrElse(yield* readText(file), () => "")
      needsNewline = text.length > 0 && !text.endsWith("\n")
      const sentinel = yield* sentinelView.read.pipe(
        Effect.catchTag("ViewDecodeError", () => Effect.succeed(Option.none<Sentinel>()))
      )
      const sentinelId = Option.flatMap(sentinel, (s) => Option.fromNullable(s.last_applied_event_id))
      const parsed: Array<{ line: number; event: Either.Either<EventLine, string> }> = []
      text.split("\n").forEach((raw, i) => {
        if (raw.trim() === "") return
        parsed.push({
          line: i + 1,
          event: Either.mapLeft(decodeLine(raw), () => "unparseable event line")
        })
      })
      const start = Option.match(sentinelId, {
        onNone: () => 0,
        onSome: (id) => {
          const at = parsed.findIndex((p) => Either.isRight(p.event) && p.event.right.event_id === id)
          return at < 0 ? 0 : at + 1
        }
      })
      const events: Array<EventLine> = []
      const rejected: Array<RejectedLine> = []
      for (const p of parsed.slice(start)) {
        if (Either.isRight(p.event)) events.push(p.event.right)
        else rejected.push({ line: p.line, reason: p.event.left })
      }
      lineCount = parsed.length
      const last = [...parsed].reverse().find((p) => Either.isRight(p.event))
      return {
        events,
        rejected,
        lastEventId: last && Either.isRight(last.event) ? last.event.right.event_id : null
      }
    }),
    all: readText(file).pipe(
      Effect.map((text) =>
        Option.getOrElse(text, () => "")
          .split("\n")
          .flatMap((raw) => (raw.trim() === "" ? [] : Either.getRight(decodeLine(raw)).pipe(Option.toArray)))
      )
    ),
    compact: (maxLines, lastApplied, drop) =>
      Effect.gen(function* () {
        if (lineCount !== undefined && lineCount <= maxLines) return 0
        const raw = yield* readLines
        lineCount = raw.length
        if (raw.length <= maxLines) return 0
        const events = raw.flatMap((l) => Option.toArray(l.event))
        const last = events[events.length - 1]
        if (last === undefined || last.event_id !== lastApplied) return 0
        const kept = events.filter((e, i) => i === events.length - 1 || !drop(e))
        yield* replaceWith(kept.map((e) => JSON.stringify(e)))
        return raw.length - kept.length
      }),
    rewrite: (edit, dropRaw) =>
      Effect.gen(function* () {
        let changed = 0
        const out = (yield* readLines).flatMap(({ raw, event }) => {
          if (Option.isNone(event)) {
            if (!dropRaw(raw)) return [raw]
            changed++
            return []
          }
          const next = edit(event.value)
          if (Option.isSome(next) && next.value === event.value) return [raw]
          changed++
          return Option.isSome(next) ? [JSON.stringify(next.value)] : []
        })
        if (changed > 0) yield* replaceWith(out)
        return changed
      }),
    setSentinel: (eventId, ts) =>
      writeAtomicOnThread(sentinelView.file, ViewFile.encodeJson({ last_applied_event_id: eventId, ts })),
    recordRejected: (rejected, ts) =>
      rejected.length === 0
        ? Effect.void
        : ensureDir(dir).pipe(
            Effect.zipRight(
              appendDurable(
                rejectFile,
                rejected.map((r) => JSON.stringify({ ...r, recorded_at: ts })).join("\n") + "\n"
              )
            )
          )
  }
}
