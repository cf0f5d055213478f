/**
 * `outbox.ndjson`: retryable background operations, delivered at least once. Lines are `pending` (with type
 * and payload), `attempt` (a failed try) and `done`; an op is pending while it has no `done` line. After
 * `maxAttempts` failed tries an op is closed with a `done` line marked `dead_letter`. When nothing is pending
 * and the file has grown past the compaction size it is rewritten empty. Lines are not fsynced one by one:
 * a lost line only means an op registered or run again, which handlers tolerate (at-least-once).
 */
import { Effect, Either, Option, Schema } from "effect"
import * as path from "node:path"
import { appendDurable, readText, withinDir, type StoreError } from "./DurableFs.js"
import { syncFilePooled, writeAtomicPooled } from "./PooledSync.js"

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
  /** Fsyncs the file (lines are appended without fsync; the journal checkpoint makes them durable). */
  readonly sync: Effect.Effect<void, StoreError>
  /** Records a failed try; returns true when the op was dead-lettered. */
  readonly fail: (opId: string, ts: string) => Effect.Effect<boolean, StoreError>
}

type OpState = { type: string; payload: Readonly<Record<string, unknown>>; attempts: number }

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
  let ops = new Map<string, OpState>()
  const inDir = withinDir(dir)
  let known = new Set<string>()
  let lines = 0
  let needsNewline = false

  const write = (entries: ReadonlyArray<OutboxLine>) =>
    Effect.gen(function* () {
      if (entries.length === 0) return
      const body = entries.map((e) => JSON.stringify(e)).join("\n") + "\n"
      yield* inDir(appendDurable(file, needsNewline ? "\n" + body : body, false))
      needsNewline = false
      lines += entries.length
    })

  const maybeCompact = Effect.suspend(() =>
    ops.size === 0 && lines >= options.compactAt
      ? writeAtomicPooled(file, "").pipe(
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
      const text = Option.getOrElse(yield* readText(file), () => "")
      needsNewline = text.length > 0 && !text.endsWith("\n")
      ;({ ops, known, lines } = readOutbox(text))
    }),
    sync: syncFilePooled(file),
    pending: () => [...ops.entries()].map(([opId, op]) => ({ opId, ...op })),
    has: (opId) => known.has(opId),
    register: (newOps, ts) =>
      Effect.gen(function* () {
        const fresh = newOps.filter((op) => !known.has(op.opId))
        yield* write(
          fresh.map((op) => ({ op_id: op.opId, type: op.type, payload: op.payload, status: "pending" as const, ts }))
        )
        for (const op of fresh) {
          known.add(op.opId)
          ops.set(op.opId, { type: op.type, payload: op.payload, attempts: 0 })
        }
      }),
    complete: (opIds, ts) =>
      Effect.gen(function* () {
        const open = opIds.filter((id) => ops.has(id))
        yield* write(open.map((id) => ({ op_id: id, status: "done" as const, ts })))
        for (const id of open) ops.delete(id)
        yield* maybeCompact
      }),
    fail: (opId, ts) =>
      Effect.gen(function* () {
        const op = ops.get(opId)
        if (!op) return false
        yield* write([{ op_id: opId, status: "attempt", ts }])
        op.attempts++
        if (op.attempts < options.maxAttempts) return false
        yield* write([{ op_id: opId, status: "done", ts, dead_letter: true }])
        ops.delete(opId)
        yield* maybeCompact
        return true
      })
  }
}
