/**
 * Planning the persistence of extracted facts (neko-compat §4.3 step 1), as a pure function: clamp
 * importance, default entity and source, hash the text; an exact hash already stored is skipped, except that
 * a user observation upgrades a stored AI disclosure (never the reverse) and sends it back to Stage 2.
 */
import type { Extracted } from "./local/LocalFacts.js"
import { clampImportance, ENTITIES, eventWindow, factId, SOURCES, textHash, type Fact } from "./Fact.js"
import { localIso } from "../domain/LocalTime.js"
import { withFields } from "../domain/Shapes.js"

export interface Planned {
  readonly fresh: ReadonlyArray<Fact>
  readonly upgraded: ReadonlyArray<Fact>
}

export const planFacts = (
  byHash: ReadonlyMap<string, Fact>,
  extracted: ReadonlyArray<{ readonly e: Extracted; readonly rowIds: ReadonlyArray<number> }>,
  nowMillis: number,
  signalProcessed: boolean
): Planned => {
  const created = localIso(nowMillis)
  const fresh: Array<Fact> = []
  const upgraded: Array<Fact> = []
  const seen = new Set<string>()
  for (const { e, rowIds } of extracted) {
    const text = e.text.trim()
    if (text === "") continue
    const hash = textHash(text)
    if (seen.has(hash)) continue
    seen.add(hash)
    const source = SOURCES.find((s) => s === e.source) ?? "user_observation"
    const existing = byHash.get(hash)
    if (existing) {
      if (existing.source === "ai_disclosure" && source === "user_observation") {
        upgraded.push(withFields(existing, { source, signal_processed: false }))
      }
      continue
    }
    fresh.push({
      id: factId(created, hash),
      text,
      importance: clampImportance(e.importance),
      entity: ENTITIES.find((x) => x === e.entity) ?? "master",
      source,
      tags: [],
      hash,
      created_at: created,
      event_when_raw: e.event_when,
      ...eventWindow(e.event_when, nowMillis),
      schema_version: 2,
      absorbed: false,
      signal_processed: source === "ai_disclosure" ? true : signalProcessed,
      source_row_ids: rowIds
    })
  }
  return { fresh, upgraded }
}
