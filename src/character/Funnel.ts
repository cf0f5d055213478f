/**
 * The memory funnel (`/api/memory/funnel`, neko-compat §1.6): counts of real lifecycle transitions read
 * from `events.ndjson` within `[since, until]`. Because kioku journals every transition, every bucket
 * counts (N.E.K.O. leaves most of them at 0).
 */
import type { EventLine } from "../store/EventLog.js"
import { parseLocal } from "../domain/LocalTime.js"

export const emptyCounts = {
  facts_added: 0,
  reflections_synthesized: 0,
  reflections_confirmed: 0,
  reflections_promoted: 0,
  reflections_merged: 0,
  reflections_denied: 0,
  reflections_archived: 0,
  persona_entries_added: 0,
  persona_entries_rewritten: 0,
  persona_entries_archived: 0
}
export type FunnelCounts = typeof emptyCounts

const byTarget: Readonly<Record<string, keyof FunnelCounts>> = {
  confirmed: "reflections_confirmed",
  promoted: "reflections_promoted",
  merged: "reflections_merged",
  denied: "reflections_denied",
  archived: "reflections_archived"
}

/** A naive local or offset-aware ISO timestamp as epoch millis. */
export const parseWhen = (text: string): number | undefined => {
  const naive = parseLocal(text)
  if (naive !== undefined) return naive
  if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+)?(Z|[+-]\d{2}:?\d{2})$/.test(text.trim())) return undefined
  const aware = Date.parse(text)
  return Number.isNaN(aware) ? undefined : aware
}

export const countFunnel = (events: ReadonlyArray<EventLine>, since: number, until: number): FunnelCounts => {
  const counts = { ...emptyCounts }
  for (const e of events) {
    const at = parseLocal(e.ts)
    if (at === undefined || at < since || at > until) continue
    if (e.type === "fact.added") counts.facts_added++
    else if (e.type === "reflection.synthesized") counts.reflections_synthesized++
    else if (e.type === "reflection.state_changed") {
      const bucket = typeof e.payload["to"] === "string" ? byTarget[e.payload["to"]] : undefined
      if (bucket) counts[bucket]++
    } else if (e.type === "persona.fact_added") {
      if ("archive_shard_path" in e.payload || "archived_at" in e.payload) counts.persona_entries_archived++
      else counts.persona_entries_added++
    } else if (e.type === "persona.entry_updated") counts.persona_entries_rewritten++
  }
  return counts
}
