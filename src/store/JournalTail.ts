/**
 * Whether a character has recovery work, read from its files alone: journal events its views may lack (the
 * last line of `events.ndjson` against the id `events_applied.json` names) or outbox ops without a `done`
 * line. Startup recovery uses it to load only the characters with something to replay or drain. Anything it
 * cannot read with certainty in the journal — a torn or foreign last line, a missing or undecodable sentinel
 * beside a non-empty journal, an outbox line that does not decode — or an I/O error counts as pending, so the
 * check can cost a load, never skip one. The outbox is folded by Outbox.ts's own reader.
 */
import { Either, Option, Schema } from "effect"
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs"
import * as path from "node:path"
import { decodeLine, Sentinel } from "./EventLog.js"
import { readOutbox } from "./Outbox.js"

/** Bytes read from the end of the journal; a longer last line counts as pending. */
const TAIL_BYTES = 256 * 1024

const decodeSentinel = Schema.decodeUnknownEither(Schema.parseJson(Sentinel))

/** The text of the journal's last `TAIL_BYTES`; `None` when the file does not exist. */
const tailOf = (file: string): Option.Option<string> => {
  let fd: number
  try {
    fd = openSync(file, "r")
  } catch (e) {
    if (e instanceof Error && "code" in e && e.code === "ENOENT") return Option.none()
    throw e
  }
  try {
    const size = fstatSync(fd).size
    const length = Math.min(size, TAIL_BYTES)
    const buffer = Buffer.alloc(length)
    readSync(fd, buffer, 0, length, size - length)
    return Option.some(buffer.toString("utf8"))
  } finally {
    closeSync(fd)
  }
}

/** True when the character at `dir` may have journal events past its sentinel. */
export const replayPending = (dir: string): boolean => {
  try {
    const tail = tailOf(path.join(dir, "events.ndjson"))
    if (Option.isNone(tail)) return false
    const lines = tail.value.split("\n").filter((l) => l.trim() !== "")
    const last = lines[lines.length - 1]
    if (last === undefined) return tail.value.length >= TAIL_BYTES
    const event = decodeLine(last)
    if (Either.isLeft(event)) return true
    const sentinel = decodeSentinel(readFileSync(path.join(dir, "events_applied.json"), "utf8"))
    return Either.isLeft(sentinel) || sentinel.right.last_applied_event_id !== event.right.event_id
  } catch {
    return true
  }
}

/** True when `outbox.ndjson` at `dir` holds an op without a `done` line (read as Outbox.ts reads it). */
export const outboxPending = (dir: string): boolean => {
  try {
    const { ops, unreadable } = readOutbox(readFileSync(path.join(dir, "outbox.ndjson"), "utf8"))
    return ops.size > 0 || unreadable > 0
  } catch (e) {
    return !(e instanceof Error && "code" in e && e.code === "ENOENT")
  }
}

/** Whether startup recovery must load the character at `dir`. */
export const recoveryDue = (dir: string): boolean => replayPending(dir) || outboxPending(dir)
