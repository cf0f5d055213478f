/**
 * The raw-turn tier's index, pure and incremental: turns (rows of `time_indexed_original`) are appended in
 * row order and never change. A turn's document is its own terms plus `neighbour` × the terms of the turns
 * next to it and `second` × those two away (same session only), plus the terms of its session's date; a
 * session is a run of turns without a gap above `sessionGapMs`. Appending a turn re-indexes the two turns
 * before it (their context grew) and its session's whole-session document, so the index always equals one
 * built from scratch over the same rows. A query scores turn documents and session documents with BM25;
 * a turn's score is its own, max-normalised, plus `sessionWeight` × its session's (max-normalised), times
 * (1 + `speakerBoost`) when the query names the turn's speaker. A hit none of whose own terms is asked for is
 * marked `borrowed`.
 */
import * as Bm25 from "./bm25/Bm25Index.js"
import * as Bm25Search from "./bm25/Bm25Search.js"
import { analyze } from "./TurnAnalyzer.js"

export type Speaker = "master" | "character" | "other"

export interface TurnInput {
  readonly rowId: number
  readonly speaker: Speaker
  /** The message content (folded to Simplified Chinese). */
  readonly text: string
  /** Epoch milliseconds of the row's timestamp; NaN when unreadable. */
  readonly at: number
}

export interface TurnTierParams {
  readonly k1: number
  readonly b: number
  readonly neighbour: number
  readonly second: number
  readonly sessionWeight: number
  readonly speakerBoost: number
  readonly sessionGapMs: number
  readonly dates: boolean
}

export interface TurnHit {
  readonly rowId: number
  readonly score: number
  /** Matched only through the terms of its neighbours or its session, none of its own. */
  readonly borrowed?: boolean
}

interface Stored {
  readonly rowId: number
  readonly speaker: Speaker
  readonly terms: ReadonlyMap<string, number>
  readonly session: number
  readonly at: number
}

interface SessionDoc {
  readonly date: ReadonlyArray<string>
  readonly counts: Map<string, number>
}

export interface TurnIndex {
  readonly size: () => number
  /** The last row id indexed (0 before any). */
  readonly lastRowId: () => number
  /** Appends turns (row ids above `lastRowId`, in order; others are ignored). */
  readonly append: (turns: ReadonlyArray<TurnInput>) => void
  readonly search: (terms: ReadonlyArray<string>, named: ReadonlySet<Speaker>, limit: number) => ReadonlyArray<TurnHit>
}

const months = "january february march april may june july august september october november december".split(" ")

/** Terms of a date: month name, day and year (UTC parts of the stored local time). */
export const dateTerms = (at: number): Array<string> => {
  if (!Number.isFinite(at)) return []
  const d = new Date(at)
  return analyze(`${months[d.getUTCMonth()] ?? ""} ${d.getUTCDate()} ${d.getUTCFullYear()}`)
}

const addInto = (into: Map<string, number>, from: ReadonlyMap<string, number>, weight: number) => {
  if (weight <= 0) return
  for (const [t, n] of from) into.set(t, (into.get(t) ?? 0) + n * weight)
}

const countsOf = (terms: ReadonlyArray<string>): Map<string, number> => {
  const out = new Map<string, number>()
  for (const t of terms) out.set(t, (out.get(t) ?? 0) + 1)
  return out
}

/** `analyzer` turns a text into its terms (the tier's `analyze`; benchmarks try others). */
export const make = (p: TurnTierParams, analyzer: (text: string) => Array<string> = analyze): TurnIndex => {
  const turns: Array<Stored> = []
  const sessions: Array<SessionDoc> = []
  const turnDocs = Bm25.make()
  const sessionDocs = Bm25.make()
  const position = new Map<number, number>()

  const rebuildTurn = (i: number) => {
    const turn = turns[i]
    if (turn === undefined) return
    const doc = new Map(turn.terms)
    for (const [offset, weight] of [
      [-1, p.neighbour],
      [1, p.neighbour],
      [-2, p.second],
      [2, p.second]
    ] as const) {
      const other = turns[i + offset]
      if (other !== undefined && other.session === turn.session) addInto(doc, other.terms, weight)
    }
    if (p.dates) addInto(doc, countsOf(sessions[turn.session]?.date ?? []), 1)
    turnDocs.upsertWeights(String(turn.rowId), doc)
  }

  const appendOne = (input: TurnInput) => {
    const last = turns[turns.length - 1]
    if (last !== undefined && input.rowId <= last.rowId) return
    const continues =
      last !== undefined && Number.isFinite(input.at) && input.at - last.at <= p.sessionGapMs && input.at >= last.at
    if (!continues) sessions.push({ date: dateTerms(input.at), counts: new Map() })
    const session = sessions.length - 1
    const terms = countsOf(analyzer(input.text))
    turns.push({ rowId: input.rowId, speaker: input.speaker, terms, session, at: input.at })
    position.set(input.rowId, turns.length - 1)
    const i = turns.length - 1
    for (const j of [i - 2, i - 1, i]) if (j >= 0) rebuildTurn(j)
    const doc = sessions[session]
    if (doc !== undefined) {
      addInto(doc.counts, terms, 1)
      const withDate = new Map(doc.counts)
      if (p.dates) addInto(withDate, countsOf(doc.date), 1)
      sessionDocs.upsertWeights(String(session), withDate)
    }
  }

  const search = (terms: ReadonlyArray<string>, named: ReadonlySet<Speaker>, limit: number) => {
    const params = { k1: p.k1, b: p.b }
    const own = Bm25Search.search([turnDocs], terms, params)
    if (own.length === 0 || limit <= 0) return []
    const bySession = new Map<number, number>()
    if (p.sessionWeight > 0)
      for (const h of Bm25Search.search([sessionDocs], terms, params)) bySession.set(Number(h.id), h.score)
    const maxOwn = Math.max(...own.map((h) => h.score))
    const maxSession = Math.max(0, ...bySession.values())
    const scored: Array<TurnHit> = []
    const asked = new Set(terms)
    for (const h of own) {
      const turn = turns[position.get(Number(h.id)) ?? -1]
      if (turn === undefined) continue
      const borrowed = ![...turn.terms.keys()].some((t) => asked.has(t))
      const session = maxSession > 0 ? (bySession.get(turn.session) ?? 0) / maxSession : 0
      const boost = named.has(turn.speaker) ? 1 + p.speakerBoost : 1
      scored.push({ rowId: turn.rowId, score: (h.score / maxOwn + p.sessionWeight * session) * boost, borrowed })
    }
    return scored.sort((a, b) => b.score - a.score || a.rowId - b.rowId).slice(0, limit)
  }

  return {
    size: () => turns.length,
    lastRowId: () => turns[turns.length - 1]?.rowId ?? 0,
    append: (batch) => batch.forEach(appendOne),
    search
  }
}
