/**
 * `outbox.ndjson`: retryable background operations, delivered at least once. Lines are `pending` (with type
 * and payload), `attempt` (a failed try) and `done`; an op is pending while it has no `done` line. After
 * `maxAttempts` failed tries an op is closed with a `done` line marked `dead_letter`. When nothing is pending
 * and the file has grown past the compaction size it is rewritten empty. Lines are not fsynced one by one:
 * a lost line only means an op registered or run again, which handlers tolerate (at-least-once).
 * A registered op is held in memory and written only when it outlives a `sync` (the journal checkpoint, before
 * the sentinel passes the event that registered it) or fails a try; one done before either leaves no line. Until
 * then the journal holds its event past the sentinel, and replaying the event registers the op again.
 */
import { Effect, Either, Option, Schema } from "effect"
import * as path from "node:path"
import { appendDurable, readText, withinDir, type StoreError } from "./DurableFs.js"
import { syncFileOnThread, writeAtomicOnThread } from "./WriterThread.js"
import { withFields } from "../domain/Shapes.js"

const Payload = Schema.Record({ key: Schema.String, value: Schema.Unknown })

export const OutboxLine = Schema.Struct(
  {
    op_id: Schema.String,
    status: Schema.Literal("pending", "attempt", "done"),
    ts: Schema.String,
    type: Schema.optional(Schema.String),
    payload: Schema.optional(Payload)
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)
export type OutboxLine = typeof OutboxLine.Type
const decodeLine = Schema.decodeUnknownEither(Schema.parseJson(OutboxLine))

export interface OutboxOp {
  readonly opId: string
  readonly type: string
  readonly payload: Readonly<Record<string, unknown>>
  readonly attempts: number
}

export interface Outbox {
  readonly load: Effect.Effect<void, StoreError>
  readonly pending: () => ReadonlyArray<OutboxOp>
  readonly has: (opId: string) => boolean
  readonly register: (ops: ReadonlyArray<Omit<OutboxOp, "attempts">>, ts: string) => Effect.Effect<void, StoreError>
  readonly complete: (opIds: ReadonlyArray<string>, ts: string) => Effect.Effect<void, StoreError>
  /**
   * Writes the ops held in memory, then fsyncs the file (lines are appended without fsync; the journal
   * checkpoint makes them durable); nothing to do when no line was written since the last sync.
   */
  readonly sync: Effect.Effect<void, StoreError>
  /** Records a failed try; returns true when the op was dead-lettered. */
  readonly fail: (opId: string, ts: string) => Effect.Effect<boolean, StoreError>
}

type OpState = { type: string; payload: Readonly<Record<string, unknown>>; attempts: number }
/** An op as this process holds it: `registered` is the ts of its pending line while that is not yet written. */
type HeldOp = OpState & { registered: string | undefined }

/** Folds the file's text: the ops still pending (no `done` line), every op id seen, the line count, and how many lines did not decode. */
export const readOutbox = (text: string) => {
  const ops = new Map<string, OpState>()
  const known = new Set<string>()
  let lines = 0
  let unreadable = 0
  for (const raw of text.split("\n")) {
    if (raw.trim() === "") continue
    lines++
    const parsed = decodeLine(raw)
    if (Either.isLeft(parsed)) {
      unreadable++
      continue
    }
    const line = parsed.right
    known.add(line.op_id)
    if (line.status === "pending" && line.type !== undefined) {
      ops.set(line.op_id, { type: line.type, payload: line.payload ?? {}, attempts: 0 })
    } else if (line.status === "attempt") {
      const op = ops.get(line.op_id)
      if (op) op.attempts++
    } else if (line.status === "done") {
      ops.delete(line.op_id)
    }
  }
  return { ops, known, lines, unreadable }
}

export const make = (dir: string, options: { readonly maxAttempts: number; readonly compactAt: number }): Outbox => {
  const file = path.join(dir, "outbox.ndjson")
  let ops = new Map<string, HeldOp>()
  const inDir = withinDir(dir)
  let known = new Set<string>()
  let lines = 0
  let needsNewline = false
  /** Lines were appended since the last fsync. */
  let unsynced = false
  /** The file exists (it is created, empty, with the first op, as N.E.K.O.'s character directories have it). */
  let present = false

  const write = (entries: ReadonlyArray<OutboxLine>) =>
    Effect.gen(function* () {
      if (entries.length === 0) return
      const body = entries.map((e) => JSON.stringify(e)).join("\n") + "\n"
      yield* inDir(appendDurable(file, needsNewline ? "\n" + body : body, false))
      needsNewline = false
      unsynced = true
      present = true
      lines += entries.length
    })

  /** The pending lines of held ops not yet written; `written` marks them once the lines are on disk. */
  const pendingLines = (held: ReadonlyArray<readonly [string, HeldOp]>): Array<OutboxLine> =>
    held.flatMap(([opId, op]) =>
      op.registered === undefined
        ? []
        : [{ op_id: opId, type: op.type, payload: op.payload, status: "pending" as const, ts: op.registered }]
    )
  const written = (held: ReadonlyArray<readonly [string, HeldOp]>) =>
    Effect.sync(() => {
      for (const [, op] of held) op.registered = undefined
    })

  const maybeCompact = Effect.suspend(() =>
    ops.size === 0 && lines >= options.compactAt
      ? writeAtomicOnThread(file, "").pipe(
          Effect.tap(() =>
            Effect.sync(() => {
              lines = 0
              known.clear()
            })
          )
        )
      : Effect.void
  )

  return {
    load: Effect.gen(function* () {
      const stored = yield* readText(file)
      present = Option.isSome(stored)
      const text = Option.getOrElse(stored, () => "")
      needsNewline = text.length > 0 && !text.endsWith("\n")
      const read = readOutbox(text)
      ops = new Map([...read.ops].map(([id, op]) => [id, withFields(op, { registered: undefined })]))
      ;({ known, lines } = read)
    }),
    sync: Effect.suspend(() => {
      const held = [...ops]
      return write(pendingLines(held)).pipe(
        Effect.zipRight(written(held)),
        Effect.zipRight(
          Effect.suspend(() => {
            if (!unsynced) return Effect.void
            unsynced = false
            return Effect.tapError(syncFileOnThread(file), () => Effect.sync(() => (unsynced = true)))
          })
        )
      )
    }),
    pending: () =>
      [...ops.entries()].map(([opId, op]) => ({ opId, type: op.type, payload: op.payload, attempts: op.attempts })),
    has: (opId) => known.has(opId),
    register: (newOps, ts) =>
      Effect.suspend(() => {
        const fresh = newOps.filter((op) => !known.has(op.opId))
        for (const op of fresh) {
          known.add(op.opId)
          ops.set(op.opId, { type: op.type, payload: op.payload, attempts: 0, registered: ts })
        }
        if (present || fresh.length === 0) return Effect.void
        return Effect.tap(inDir(appendDurable(file, "", false)), () => Effect.sync(() => (present = true)))
      }),
    complete: (opIds, ts) =>
      Effect.gen(function* () {
        const onDisk = opIds.filter((id) => ops.has(id) && ops.get(id)?.registered === undefined)
        yield* write(onDisk.map((id) => ({ op_id: id, status: "done" as const, ts })))
        for (const id of opIds) ops.delete(id)
        yield* maybeCompact
      }),
    fail: (opId, ts) =>
      Effect.gen(function* () {
        const op = ops.get(opId)
        if (!op) return false
        const held = [[opId, op] as const]
        yield* write([...pendingLines(held), { op_id: opId, status: "attempt", ts }])
        yield* written(held)
        op.attempts++
        if (op.attempts < options.maxAttempts) return false
        yield* write([{ op_id: opId, status: "done", ts, dead_letter: true }])
        ops.delete(opId)
        yield* maybeCompact
        return true
      })
  }
}
