/**
 * The rebuttal loop (neko-compat §4.6; every 180 s with powerful memory ON): when the character has
 * confirmed reflections, the user messages after `cursors.json` `rebuttal_checked_until` (else the last
 * hour) are read 20 at a time (ties kept together) and the feedback task judges the confirmed set against
 * them; a denial moves the reflection to `denied` (no disputation added). The cursor then advances; a
 * failed window is tried again on `rebuttalRetry` and skipped once that policy dead-letters it. With
 * powerful memory OFF the cursor is kept at now.
 */
import type { Language } from "../../domain/Locale.js"
import { Clock, Duration, Effect, Either, Option, Schema } from "effect"
import { localIso, parseLocal, sqliteTimestamp } from "../../domain/LocalTime.js"
import { contentText } from "../../domain/Message.js"
import { ReflectionTasks } from "../ReflectionTasks.js"
import { afterFailure, rebuttalRetry } from "../../maintenance/policies.js"
import { rebuttalStart, rebuttalWindow } from "./RebuttalWindow.js"
import type { Speakers } from "../../domain/Speakers.js"
import { AppFiles } from "../../store/AppFiles.js"
import * as Cursors from "../../store/Cursors.js"
import type { Tunables } from "../../Tunables.js"
import type { ReflectionHost } from "../ReflectionHost.js"
import { moveReflection } from "../ReflectionTransitions.js"

const CURSOR = "rebuttal_checked_until"
const OnDisk = Schema.parseJson(
  Schema.Struct({ type: Schema.String, data: Schema.Struct({ content: Schema.Unknown }) })
)
const decodeMessage = Schema.decodeUnknownOption(OnDisk)

export const make = (deps: {
  readonly tunables: Tunables
  readonly speakers: Effect.Effect<Speakers>
  readonly language: (state: ReflectionHost) => Language
}) =>
  Effect.gen(function* () {
    const tasks = yield* ReflectionTasks
    const files = yield* AppFiles
    const t = deps.tunables
    const retry = rebuttalRetry(t)
    let failures = 0
    let retryAt = 0

    /** One tick; returns how many reflections were denied. */
    const tick = (state: ReflectionHost) =>
      Effect.gen(function* () {
        if (!state.exists()) return 0
        const cursors = Cursors.make(state.dir)
        const now = yield* Clock.currentTimeMillis
        if (!(yield* files.core).powerful_memory_enabled) {
          yield* cursors.set({ [CURSOR]: localIso(now) })
          return 0
        }
        if (failures > 0 && now < retryAt) return 0
        const confirmed = (yield* state.reflections.load).filter((r) => r.status === "confirmed")
        if (confirmed.length === 0) return 0
        const ti = yield* state.openTimeIndex(false)
        if (Option.isNone(ti)) return 0
        const saved = Option.flatMap(yield* cursors.get(CURSOR), (v) => Option.fromNullable(parseLocal(v)))
        const lookbackMs = t.rebuttal_first_run_lookback_hours * 3_600_000
        const start = rebuttalStart(Option.getOrUndefined(saved), now, lookbackMs)
        const rows = (yield* ti.value.humanSince(sqliteTimestamp(start), t.rebuttal_sql_row_limit)).flatMap((r) => {
          const ts = parseLocal(r.timestamp)
          const m = decodeMessage(r.message)
          return ts === undefined || Option.isNone(m) ? [] : [{ ts, text: contentText(m.value.data.content) }]
        })
        const window = rebuttalWindow({
          cursor: start,
          now,
          rows,
          lookbackMs,
          batch: t.rebuttal_drain_batch_limit
        })
        if (window.take.length === 0) {
          yield* cursors.set({ [CURSOR]: localIso(window.nextCursor) })
          return 0
        }
        const answer = yield* Effect.either(
          tasks.reflectionFeedback({
            reflections: confirmed.map((r) => ({ id: r.id, text: r.text })),
            messages: window.take.map((r) => r.text),
            names: yield* deps.speakers,
            language: deps.language(state)
          })
        )
        if (Either.isLeft(answer)) {
          failures++
          const next = yield* afterFailure(retry, failures)
          if (next._tag === "Retry") retryAt = now + Duration.toMillis(next.delay)
          else {
            failures = 0
            yield* cursors.set({ [CURSOR]: localIso(window.nextCursor) })
          }
          return 0
        }
        failures = 0
        const ts = localIso(now)
        const denied = new Set(answer.right.filter((a) => a.feedback === "denied").map((a) => a.reflection_id))
        const lines = confirmed.flatMap((r) =>
          denied.has(r.id) ? moveReflection(r, { type: "rebutted" }, t, ts).lines : []
        )
        yield* state.journal(lines)
        yield* cursors.set({ [CURSOR]: localIso(window.nextCursor) })
        return lines.length
      })

    return { tick, failing: () => failures > 0 }
  })
