/**
 * Writing group-chat facts (neko-compat §1.7, §2.3): each fact is stamped with its subject, takes the subject
 * kind as entity and a hash salted with `<subject key>\n<scope>\n`, so the same sentence in two subjects is
 * two facts and never meets a private one. An exact repeat within the subject is skipped, except that a user
 * observation upgrades a stored AI disclosure; near duplicates are looked for within the subject and scope
 * only (facts/DedupDetect.ts): a verbatim repeat of an archived row is dropped, a paraphrase is written and
 * queued in `facts_pending_dedup.json` for arbitration, as N.E.K.O. does. Scoped facts skip Stage-2 evidence (`signal_processed` true)
 * and carry the speaker's provenance when the request names one. Written as `fact.added` / `fact.updated`
 * journal lines before facts.json changes, like every fact.
 */
import { Clock, Effect } from "effect"
import { createHash, randomUUID } from "node:crypto"
import { localIso } from "../domain/LocalTime.js"
import { subjectFields, subjectKey, type MemorySubject } from "../domain/Subject.js"
import { clampImportance, eventWindow, factId, type EventWhenRaw, type Fact } from "../facts/Fact.js"
import * as DedupQueue from "../facts/DedupQueue.js"
import type { FactDedup } from "../facts/FactDedup.js"
import { FACT_ADDED, FACT_UPDATED, factLine } from "../facts/FactEvents.js"
import type { FactsHost } from "../facts/FactsHost.js"
import type { StoreError } from "../store/DurableFs.js"
import type { ViewDecodeError } from "../store/ViewFile.js"
import { withFields } from "../domain/Shapes.js"

export interface ScopedCandidate {
  readonly text: string
  readonly importance: number
  readonly source: "user_observation" | "ai_disclosure"
  readonly event_when?: EventWhenRaw | undefined
}

/** Who said it, copied onto the new user observations (never read from a model's answer). */
export interface Provenance {
  readonly speaker_label?: string | undefined
  readonly speaker_id?: string | undefined
  readonly speaker_trust?: number | undefined
  readonly speaker_entity_id?: string | undefined
}

export const scopedHash = (subject: MemorySubject, text: string): string =>
  createHash("sha256")
    .update(`${subjectKey(subject)}\n${subject.scope}\n${text}`)
    .digest("hex")
    .slice(0, 16)

export interface Written {
  readonly created: ReadonlyArray<Fact>
  readonly upgraded: ReadonlyArray<Fact>
}

/** The near-duplicate detection and index of private facts (facts/FactDedup.ts), used within one subject. */
export type ScopedDedup = Pick<FactDedup, "detect" | "index">

export const persist = (
  state: FactsHost,
  subject: MemorySubject,
  candidates: ReadonlyArray<ScopedCandidate>,
  provenance: Provenance = {},
  dedup?: ScopedDedup
): Effect.Effect<Written, StoreError | ViewDecodeError> =>
  Effect.gen(function* () {
    const { byHash } = yield* state.facts.load
    const millis = yield* Clock.currentTimeMillis
    const created = localIso(millis)
    const fresh: Array<Fact> = []
    const upgraded: Array<Fact> = []
    const seen = new Set<string>()
    const said = Object.fromEntries(Object.entries(provenance).filter(([, v]) => v !== undefined))
    for (const c of candidates) {
      const text = c.text.trim()
      if (text === "") continue
      const hash = scopedHash(subject, text)
      if (seen.has(hash)) continue
      seen.add(hash)
      const existing = byHash.get(hash)
      if (existing) {
        if (existing.source === "ai_disclosure" && c.source === "user_observation")
          upgraded.push(withFields(existing, { source: "user_observation", signal_processed: true }))
        continue
      }
      const when = c.event_when ?? null
      fresh.push({
        ...subjectFields(subject),
        ...(c.source === "user_observation" ? said : {}),
        id: factId(created, hash),
        text,
        importance: clampImportance(c.importance),
        entity: subject.kind,
        source: c.source,
        tags: [],
        hash,
        created_at: created,
        event_when_raw: when,
        ...eventWindow(when, millis),
        schema_version: 2,
        absorbed: false,
        signal_processed: true
      })
    }
    const { keep, pairs } =
      dedup === undefined || fresh.length === 0
        ? { keep: fresh, pairs: [] }
        : yield* dedup.detect(state, fresh, subject)
    const lines = [
      ...upgraded.map((f) => factLine(randomUUID(), FACT_UPDATED, f, created)),
      ...keep.map((f) => factLine(randomUUID(), FACT_ADDED, f, created))
    ]
    if (lines.length > 0) yield* state.journal(lines)
    if (dedup !== undefined && keep.length > 0) {
      yield* Effect.ignoreLogged(dedup.index(state, keep))
      yield* Effect.ignoreLogged(DedupQueue.make(state.dir).push(pairs))
    }
    return { created: keep, upgraded }
  })
