/**
 * Proactive surfacing of reflections: `/followup_topics` picks the eligible pending reflections (without
 * marking them), `/record_surfaced` starts their 30-minute cooldown (journaled as `reflection.updated`) and
 * upserts their rows in `surfaced.json` with `feedback: null`, ready for the feedback check.
 */
import { Clock, Effect, Option, Random, Schema } from "effect"
import { randomUUID } from "node:crypto"
import * as path from "node:path"
import { localIso } from "../domain/LocalTime.js"
import { score } from "./evidence/Evidence.js"
import { eligible, pickFollowups } from "./Followup.js"
import type { Reflection } from "./Reflection.js"
import * as ViewFile from "../store/ViewFile.js"
import type { Tunables } from "../Tunables.js"
import type { ReflectionHost } from "./ReflectionHost.js"
import { reflectionLine, REFLECTION_UPDATED } from "./ReflectionEvents.js"

export const SurfacedRow = Schema.Struct(
  {
    reflection_id: Schema.String,
    text: Schema.String,
    surfaced_at: Schema.String,
    feedback: Schema.NullOr(Schema.String)
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)
export const SurfacedFile = Schema.Array(SurfacedRow)

const views = new WeakMap<ReflectionHost, ViewFile.ViewFile<typeof SurfacedFile.Type>>()

/**
 * The character's `surfaced.json` view, one per state, so its decoded rows stay cached by the file's stamp
 * (the post-turn feedback check reads it after every turn).
 */
export const surfacedView = (state: ReflectionHost): ViewFile.ViewFile<typeof SurfacedFile.Type> => {
  const file = path.join(state.dir, "surfaced.json")
  const known = views.get(state)
  if (known !== undefined && known.file === file) return known
  const view = ViewFile.make(SurfacedFile, file)
  views.set(state, view)
  return view
}

export const make = (deps: { readonly tunables: Tunables }) => {
  const t = deps.tunables

  const followups = (state: ReflectionHost) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const candidates = eligible(yield* state.reflections.load, now, (r) => score(r, now, t))
      const uniforms = yield* Effect.forEach(candidates, () => Random.next)
      const weighting = { weighted: t.reflection_followup_weighted, base: t.reflection_followup_weight_base }
      return pickFollowups(candidates, t.reflection_surface_top_k, weighting, uniforms)
    })

  const recordSurfaced = (state: ReflectionHost, ids: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      if (ids.length === 0) return
      const now = yield* Clock.currentTimeMillis
      const ts = localIso(now)
      const wanted = new Set(ids)
      const chosen = (yield* state.reflections.load).filter((r) => wanted.has(r.id))
      const cooled: Array<Reflection> = chosen.map((r) => ({
        ...r,
        next_eligible_at: localIso(now + t.reflection_cooldown_minutes * 60_000)
      }))
      const lines = cooled.map((reflection) => reflectionLine(randomUUID(), { reflection }, ts, REFLECTION_UPDATED))
      if (lines.length > 0) {
        yield* state.journal(lines, { supersedes: false })
      }
      const view = surfacedView(state)
      const rows = Option.getOrElse(yield* view.read, (): ReadonlyArray<typeof SurfacedRow.Type> => [])
      const fresh = chosen.map((r) => ({ reflection_id: r.id, text: r.text, surfaced_at: ts, feedback: null }))
      const replaced = new Set(fresh.map((r) => r.reflection_id))
      yield* view.write([...rows.filter((r) => !replaced.has(r.reflection_id)), ...fresh])
    })

  return { followups, recordSurfaced }
}
