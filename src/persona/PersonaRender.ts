/**
 * The persona block of `/new_dialog` and `/get_settings` (neko-compat §4.9 step 2), as a pure function:
 * entity sections in file order (protected entries first in file order, budget-exempt and capped in total,
 * then the non-protected entries kept by the 2,000-token budget), pending reflections, confirmed reflections
 * that are still current, stale confirmed reflections in an "older memory" frame with their age, and the
 * do-not-raise section of suppressed entries (distinct texts, capped). Budgets pick greedily by
 * (score, importance), skipping what does not fit, and what they keep renders in that order, best first.
 * Blank (whitespace-only) texts render nothing.
 */
import type { Language } from "../domain/Locale.js"
import { parseLocal } from "../domain/LocalTime.js"
import { score, type EvidenceTunables } from "../reflection/evidence/Evidence.js"
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

export interface PersonaRenderInput {
  readonly persona: PersonaFile
  readonly reflections: ReadonlyArray<Reflection>
  readonly nowMillis: number
  readonly language: Language
  readonly names: { readonly character: string; readonly master: string }
  readonly tunables: RenderTunables
  readonly count: (text: string) => number
}

const DAY = 86_400_000
const importanceOf = (e: Readonly<Record<string, unknown>>) =>
  typeof e["importance"] === "number" ? e["importance"] : 0

/** Greedy budget: by (score, importance) descending, skipping any item that no longer fits; kept in that order. */
const withinBudget = <A extends { readonly text: string }>(
  items: ReadonlyArray<{ readonly item: A; readonly score: number; readonly importance: number }>,
  budget: number,
  count: (text: string) => number
): Array<A> => {
  const kept: Array<A> = []
  let used = 0
  const ranked = [...items].sort((a, b) => b.score - a.score || b.importance - a.importance)
  for (const { item } of ranked) {
    const cost = count(item.text)
    if (used + cost > budget) continue
    used += cost
    kept.push(item)
  }
  return kept
}

const renderable = (e: { readonly text: string }) => e.text.trim() !== ""

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

export const renderPersona = (input: PersonaRenderInput): string => {
  const { persona, nowMillis: now, language: lang, tunables: t, count } = input
  const fill = (s: string) => s.replaceAll("{ai}", input.names.character).replaceAll("{master}", input.names.master)
  const entries = Object.entries(persona).filter(([key]) => key !== META)
  const suppressed = entries.flatMap(([, s]) => s.facts.filter((e) => e.suppress && !e.protected && renderable(e)))
  const candidates = entries.flatMap(([, s]) =>
    s.facts
      .filter((e) => !e.protected && !e.suppress && renderable(e))
      .map((e) => ({ item: e, score: score(e, now, t), importance: importanceOf(e) }))
  )
  const kept = withinBudget(candidates, t.persona_render_max_tokens, count)
  const out: Array<string> = []
  let protectedLeft = t.persona_render_protected_max_entries
  for (const [key, s] of entries) {
    const header =
      key === "neko" || key === "master" || key === "relationship"
        ? fill(headers[key][lang])
        : typeof s["display_name"] === "string"
          ? s["display_name"]
          : key
    const shielded = s.facts.filter((e) => e.protected && renderable(e)).slice(0, Math.max(0, protectedLeft))
    protectedLeft -= shielded.length
    const own = new Set(s.facts)
    out.push(
      ...section(
        header,
        [...shielded, ...kept.filter((e) => own.has(e))].map((e) => e.text)
      )
    )
  }
  const hidden = new Set(suppressed.map((e) => e.text))
  const live = input.reflections.filter((r) => !hidden.has(r.text) && renderable(r))
  const pool = live.flatMap((r) => {
    const s = score(r, now, t)
    const ok = r.status === "pending" || (r.status === "confirmed" && !r.suppress && s > 0)
    return ok ? [{ item: r, score: s, importance: 0 }] : []
  })
  const inOrder = withinBudget(pool, t.reflection_render_max_tokens, count)
  out.push(
    ...section(
      fill(headers.pending[lang]),
      inOrder.filter((r) => r.status === "pending").map((r) => r.text)
    )
  )
  const confirmed = inOrder.filter((r) => r.status === "confirmed")
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
  const quiet = [
    ...new Set([
      ...suppressed.map((e) => e.text),
      ...live.filter((r) => r.status === "confirmed" && r.suppress).map((r) => r.text)
    ])
  ].slice(0, t.persona_render_suppressed_max_entries)
  out.push(...section(fill(headers.suppressed[lang]), quiet))
  return out.join("\n\n")
}
