/**
 * The post-turn feedback check (neko-compat §4.6): when `surfaced.json` has rows without feedback and the
 * turn carried user messages, the user's reaction is read (model or `local` cues); confirmed → reinforcement
 * +1.0, denied → disputation +1.0 and the reflection denied, ignored → reinforcement −0.2. Each result is
 * journaled with the whole new record (the evidence snapshot inside) before the views change, and the
 * surfaced row records the verdict afterwards; then the lifecycle is evaluated again.
 */
import type { Language } from "../domain/Locale.js"
import { Clock, Effect, Option } from "effect"
import { localIso } from "../domain/LocalTime.js"
import { contentText } from "../domain/Message.js"
import { ReflectionTasks } from "./ReflectionTasks.js"
import type { Speakers } from "../domain/Speakers.js"
import type { Tunables } from "../Tunables.js"
import type { ReflectionHost } from "./ReflectionHost.js"
import { moveReflection } from "./ReflectionTransitions.js"
import { surfacedView, SurfacedRow } from "./Surfacing.js"
import { withFields } from "../domain/Shapes.js"

export const make = (deps: {
  readonly tunables: Tunables
  readonly speakers: Effect.Effect<Speakers>
  readonly language: (state: ReflectionHost) => Language
  readonly afterwards: (state: ReflectionHost) => Effect.Effect<unknown>
}) =>
  Effect.gen(function* () {
    const tasks = yield* ReflectionTasks
    const t = deps.tunables

    const check = (state: ReflectionHost, userMessages: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        if (userMessages.length === 0) return 0
        const view = surfacedView(state)
        const rows = Option.getOrElse(yield* view.read, (): ReadonlyArray<typeof SurfacedRow.Type> => [])
        const waiting = new Set(rows.filter((r) => r.feedback === null).map((r) => r.reflection_id))
        if (waiting.size === 0) return 0
        const reflections = (yield* state.reflections.load).filter(
          (r) => waiting.has(r.id) && (r.status === "pending" || r.status === "confirmed")
        )
        if (reflections.length === 0) return 0
        const results = yield* tasks.reflectionFeedback({
          reflections: reflections.map((r) => ({ id: r.id, text: r.text })),
          messages: userMessages,
          names: yield* deps.speakers,
          language: deps.language(state)
        })
        const ts = localIso(yield* Clock.currentTimeMillis)
        const byId = new Map(reflections.map((r) => [r.id, r]))
        const verdicts = new Map<string, string>()
        const lines = results.flatMap((res) => {
          const r = byId.get(res.reflection_id)
          if (r === undefined || verdicts.has(r.id)) return []
          verdicts.set(r.id, res.feedback)
          return moveReflection(r, { type: "feedback", verdict: res.feedback }, t, ts).lines
        })
        if (lines.length > 0) {
          yield* state.journal(lines, { supersedes: false })
        }
        yield* view.write(
          rows.map((row) => {
            const verdict = verdicts.get(row.reflection_id)
            return verdict === undefined || row.feedback !== null
              ? row
              : withFields(row, { feedback: verdict, feedback_at: ts })
          })
        )
        yield* deps.afterwards(state)
        return lines.length
      })

    /** The texts of one speaker type (`human`, `ai`) in drained `extract_facts` ops. */
    const texts = (payloads: ReadonlyArray<Readonly<Record<string, unknown>>>, type: "human" | "ai") =>
      payloads.flatMap((p) => {
        const messages = p["messages"]
        if (!Array.isArray(messages)) return []
        return messages.flatMap((m: unknown) =>
          typeof m === "object" &&
          m !== null &&
          "type" in m &&
          m.type === type &&
          "data" in m &&
          typeof m.data === "object" &&
          m.data !== null &&
          "content" in m.data
            ? [contentText(m.data.content)]
            : []
        )
      })

    const userTexts = (payloads: ReadonlyArray<Readonly<Record<string, unknown>>>) => texts(payloads, "human")

    return { check, texts, userTexts }
  })
