/**
 * The persona block of `/new_dialog` and `/get_settings` (neko-compat §4.9 step 2), as pure functions:
 * entity sections in file order (protected entries first in file order, budget-exempt and capped in total,
 * then the non-protected entries kept by the 2,000-token budget), pending reflections, confirmed reflections
 * that are still current, stale confirmed reflections in an "older memory" frame with their age, and the
 * do-not-raise section of suppressed entries (distinct texts, capped). Budgets pick greedily by
 * (score, importance), skipping what does not fit, and what they keep renders in that order, best first.
 * Blank (whitespace-only) texts render nothing. What does not depend on the time (which entries compete,
 * their token counts and signal times) is prepared once per persona and reflections snapshot; a render
 * then only scores, ranks and fills the budgets.
 */
import type { Language } from "../domain/Locale.js"
import { parseLocal } from "../domain/LocalTime.js"
import {
  scoreAt,
  signalTimes,
  type Evidence,
  type EvidenceTunables,
  type SignalTimes
} from "../reflection/evidence/Evidence.js"
import type { Reflection } from "../reflection/Reflection.js"
import { META, type PersonaFile } from "./Persona.js"
import { headers, relative } from "./PersonaHeaders.js"

export interface RenderTunables extends EvidenceTunables {
  readonly persona_render_max_tokens: number
  readonly reflection_render_max_tokens: number
  readonly persona_render_protected_max_entries: number
  readonly persona_render_suppressed_max_entries: number
  readonly memory_state_past_days: number
  readonly memory_episode_past_days: number
}

export interface RenderAt {
  readonly nowMillis: number
  readonly language: Language
  readonly names: { readonly character: string; readonly master: string }
  readonly tunables: RenderTunables
}

export interface PersonaRenderInput extends RenderAt {
  readonly persona: PersonaFile
  readonly reflections: ReadonlyArray<Reflection>
  readonly count: (text: string) => number
}

/** Entries competing for one budget, with what scoring them needs. */
interface Pool<A> {
  readonly items: ReadonlyArray<A>
  readonly times: ReadonlyArray<SignalTimes>
  readonly importance: Float64Array
  readonly cost: Float64Array
  readonly minCost: number
  /** The last ranking, every index once; each render re-sorts it in place. */
  readonly order: Array<number>
}

/** One persona and reflections snapshot, ready to render at any time. */
export interface PreparedPersona {
  readonly sections: ReadonlyArray<{ readonly key: string; readonly name: unknown; readonly shielded: string[] }>
  readonly entries: Pool<{ readonly text: string } & Evidence>
  /** The section of each entry of `entries`. */
  readonly sectionOf: Int32Array
  /** Suppressed entries' texts, then suppressed confirmed reflections' texts, distinct, in order. */
  readonly quiet: ReadonlyArray<string>
  /** Pending reflections, and confirmed ones not suppressed, not hidden by a suppressed entry's text. */
  readonly reflections: Pool<Reflection>
}

const DAY = 86_400_000
const renderable = (e: { readonly text: string }) => /\S/.test(e.text)
const importanceOf = (e: Readonly<Record<string, unknown>>) =>
  typeof e["importance"] === "number" ? e["importance"] : 0

const poolOf = <A extends { readonly text: string } & Evidence>(
  items: ReadonlyArray<A>,
  count: (text: string) => number,
  importance: (item: A) => number
): Pool<A> => {
  const cost = Float64Array.from(items, (e) => count(e.text))
  return {
    items,
    times: items.map(signalTimes),
    importance: Float64Array.from(items, importance),
    cost,
    minCost: cost.reduce((m, c) => Math.min(m, c), Number.POSITIVE_INFINITY),
    order: items.map((_, i) => i)
  }
}

export const preparePersona = (
  persona: PersonaFile,
  reflections: ReadonlyArray<Reflection>,
  count: (text: string) => number
): PreparedPersona => {
  const sections = Object.entries(persona).filter(([key]) => key !== META)
  const entries = sections.map(([, s]) => s.facts.filter((e) => !e.protected && !e.suppress && renderable(e)))
  const suppressed = sections.flatMap(([, s]) => s.facts.filter((e) => e.suppress && !e.protected && renderable(e)))
  const hidden = new Set(suppressed.map((e) => e.text))
  const live = reflections.filter((r) => !hidden.has(r.text) && renderable(r))
  return {
    sections: sections.map(([key, s]) => ({
      key,
      name: s["display_name"],
      shielded: s.facts.filter((e) => e.protected && renderable(e)).map((e) => e.text)
    })),
    entries: poolOf(entries.flat(), count, importanceOf),
    sectionOf: Int32Array.from(entries.flatMap((es, i) => es.map(() => i))),
    quiet: [...new Set([...hidden, ...live.filter((r) => r.status === "confirmed" && r.suppress).map((r) => r.text)])],
    reflections: poolOf(
      live.filter((r) => r.status === "pending" || (r.status === "confirmed" && !r.suppress)),
      count,
      () => 0
    )
  }
}

/** Each item's score at `now`. */
const scores = <A extends Evidence>(pool: Pool<A>, now: number, t: EvidenceTunables): Float64Array =>
  Float64Array.from(pool.items, (e, i) => scoreAt(e, pool.times[i] ?? signalTimes(e), now, t))

/**
 * Greedy budget over the items `eligible` admits: by (score, importance) descending, file order among
 * equals, skipping any item that no longer fits, until nothing could fit; the kept indices in that order.
 * The ranking is sorted from the pool's previous one: scores drift slowly, so the sort (a merge sort that
 * finds runs) mostly confirms an order it already has.
 */
const withinBudget = <A>(pool: Pool<A>, score: Float64Array, budget: number, eligible: (i: number) => boolean) => {
  const imp = pool.importance
  const ranked = pool.order.sort((a, b) => (score[b] ?? 0) - (score[a] ?? 0) || (imp[b] ?? 0) - (imp[a] ?? 0) || a - b)
  const kept: Array<number> = []
  let used = 0
  for (const i of ranked) {
    if (budget - used < pool.minCost) break
    const cost = pool.cost[i] ?? 0
    if (used + cost > budget || !eligible(i)) continue
    used += cost
    kept.push(i)
  }
  return kept
}

/** Anchor of a reflection: event end, else event start, else creation. */
const anchorOf = (r: Reflection): number | undefined =>
  [r.event_end_at, r.event_start_at, r.created_at].reduce<number | undefined>(
    (found, iso) => found ?? (iso === null ? undefined : parseLocal(iso)),
    undefined
  )

export const isStale = (r: Reflection, nowMillis: number, t: RenderTunables): boolean => {
  if (r.temporal_scope === "past") return true
  const anchor = anchorOf(r)
  if (anchor === undefined) return false
  if (r.temporal_scope === "state") return nowMillis - anchor > t.memory_state_past_days * DAY
  if (r.temporal_scope === "episode") return nowMillis - anchor > t.memory_episode_past_days * DAY
  return false
}

const section = (header: string, lines: ReadonlyArray<string>) =>
  lines.length === 0 ? [] : [`### ${header}\n${lines.map((l) => `- ${l}`).join("\n")}`]

export const renderPrepared = (p: PreparedPersona, at: RenderAt): string => {
  const { nowMillis: now, language: lang, tunables: t } = at
  const fill = (s: string) => s.replaceAll("{ai}", at.names.character).replaceAll("{master}", at.names.master)
  const entryScores = scores(p.entries, now, t)
  const bySection = p.sections.map(() => new Array<string>())
  for (const i of withinBudget(p.entries, entryScores, t.persona_render_max_tokens, () => true)) {
    bySection[p.sectionOf[i] ?? 0]?.push(p.entries.items[i]?.text ?? "")
  }
  const out: Array<string> = []
  let protectedLeft = t.persona_render_protected_max_entries
  p.sections.forEach(({ key, name, shielded }, i) => {
    const header =
      key === "neko" || key === "master" || key === "relationship"
        ? fill(headers[key][lang])
        : typeof name === "string"
          ? name
          : key
    const shown = shielded.slice(0, Math.max(0, protectedLeft))
    protectedLeft -= shown.length
    out.push(...section(header, [...shown, ...(bySection[i] ?? [])]))
  })
  const rs = p.reflections
  const reflectionScores = scores(rs, now, t)
  const kept = withinBudget(
    rs,
    reflectionScores,
    t.reflection_render_max_tokens,
    (i) => rs.items[i]?.status === "pending" || (reflectionScores[i] ?? 0) > 0
  ).flatMap((i) => rs.items[i] ?? [])
  out.push(
    ...section(
      fill(headers.pending[lang]),
      kept.filter((r) => r.status === "pending").map((r) => r.text)
    )
  )
  const confirmed = kept.filter((r) => r.status === "confirmed")
  out.push(
    ...section(
      fill(headers.confirmed[lang]),
      confirmed.filter((r) => !isStale(r, now, t)).map((r) => r.text)
    )
  )
  out.push(
    ...section(
      fill(headers.stale[lang]),
      confirmed
        .filter((r) => isStale(r, now, t))
        .map((r) => `[${relative(now - (anchorOf(r) ?? now), lang)}] ${r.text}`)
    )
  )
  out.push(...section(fill(headers.suppressed[lang]), p.quiet.slice(0, t.persona_render_suppressed_max_entries)))
  return out.join("\n\n")
}

export const renderPersona = (input: PersonaRenderInput): string =>
  renderPrepared(preparePersona(input.persona, input.reflections, input.count), input)
