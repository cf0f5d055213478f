/**
 * The raw-turn tier of a character's recall (tunable `recall_turn_tier`): the rows of
 * `time_indexed_original` indexed incrementally in a TurnIndex. Rows are only ever appended, so before each
 * query only rows past the last indexed id are read, decoded and folded; a change of the speakers' names
 * rebuilds the index. A turn's text is its content string or the text parts of a part list (what N.E.K.O.'s
 * client sends); a turn without text is not indexed. A query names a speaker when it contains the master's or the character's name (the
 * name is then removed from the query terms and that speaker's turns are boosted). Rows come back as
 * `tier: "turn"` recall rows carrying their `source_row_ids`, with the row ids of the short hits (five words at most)
 * that only borrowed their match from their neighbours (TurnIndex).
 */
import { Effect, Option, Schema } from "effect"
import { contentText } from "../domain/Message.js"
import { textSha256 } from "../vectors/VectorCache.js"
import * as TurnIndex from "./TurnIndex.js"
import * as TurnVectorIndex from "./TurnVectorIndex.js"
import { analyze } from "./TurnAnalyzer.js"
import type { RecallRow } from "./RecallTypes.js"
import type { TimeRow } from "../store/TimeIndex.js"
import type { Tunables } from "../Tunables.js"
import type { RecallHost } from "./RecallTypes.js"

const Message = Schema.parseJson(
  Schema.Struct({ type: Schema.String, data: Schema.Struct({ content: Schema.Unknown }) })
)
const decodeMessage = Schema.decodeUnknownOption(Message)

/** The message type and text of a `time_indexed_original` row; none when it does not decode or has no text. */
export const turnOf = (row: TimeRow): { readonly type: string; readonly text: string } | undefined => {
  const message = Option.getOrUndefined(decodeMessage(row.message))
  if (message === undefined) return undefined
  const text = contentText(message.data.content)
  return text.trim() === "" ? undefined : { type: message.type, text }
}

const PAGE = 5000

/** A query's vector and the model that made it. */
export interface QueryVector {
  readonly modelId: string
  readonly vector: Float32Array
}

/** Epoch ms of a stored local timestamp (`YYYY-MM-DD[ T]HH:MM:SS…`) read as UTC wall-clock parts; NaN if unreadable. */
export const timestampMillis = (text: string): number => {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(text)
  if (m === null) return NaN
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number)
  return Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0)
}

const speakerOf = (type: string): TurnIndex.Speaker =>
  type === "human" ? "master" : type === "ai" ? "character" : "other"

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const words = new Intl.Segmenter("und", { granularity: "word" })
const SHORT_WORDS = 5

/** A turn of at most five words (an acknowledgement, a greeting): too short to carry anything of its own. */
export const isShort = (text: string): boolean => {
  let n = 0
  for (const w of words.segment(text)) if (w.isWordLike && ++n > SHORT_WORDS) return false
  return true
}

export const paramsOf = (t: Tunables): TurnIndex.TurnTierParams => ({
  k1: t.bm25_k1,
  b: t.bm25_b,
  neighbour: t.recall_turn_neighbour_weight,
  second: t.recall_turn_second_weight,
  sessionWeight: t.recall_turn_session_weight,
  speakerBoost: t.recall_turn_speaker_boost,
  sessionGapMs: t.recall_turn_session_gap_minutes * 60_000,
  dates: t.recall_turn_dates
})

/** Query terms and the speakers the query names (names removed from the terms). */
export const analyzeQuery = (
  query: string,
  names: { readonly master: string; readonly character: string },
  analyzer: (text: string) => Array<string> = analyze
): { readonly terms: Array<string>; readonly named: Set<TurnIndex.Speaker> } => {
  const named = new Set<TurnIndex.Speaker>()
  let text = query
  for (const [name, who] of [
    [names.master, "master"],
    [names.character, "character"]
  ] as const) {
    if (name.trim() === "") continue
    const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escape(name)}(?:['’]s)?(?![\\p{L}\\p{N}])`, "giu")
    if (!pattern.test(text)) continue
    named.add(who)
    text = text.replace(pattern, " ")
  }
  return { terms: analyzer(text), named }
}

/** `analyzer` makes the terms of turns and queries (the tier's `analyze`, plus concept terms by default). */
export const make = (
  tunables: Tunables,
  fold: (texts: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>,
  analyzer: (text: string) => Array<string> = analyze
) => {
  let index = TurnIndex.make(paramsOf(tunables), analyzer)
  const texts = new Map<number, { readonly text: string; readonly timestamp: string; readonly type: string }>()
  const hashes = new Map<number, string>()
  const hashOf = (rowId: number, text: string) => {
    const known = hashes.get(rowId)
    if (known !== undefined) return known
    const sha = textSha256(text)
    hashes.set(rowId, sha)
    return sha
  }

  const ingest = (rows: ReadonlyArray<TimeRow>) =>
    Effect.gen(function* () {
      const decoded = rows.flatMap((r) => {
        const turn = turnOf(r)
        return turn === undefined ? [] : [{ row: r, type: turn.type, content: turn.text }]
      })
      const folded = yield* fold(decoded.map((d) => d.content))
      index.append(
        decoded.map((d, i) => ({
          rowId: d.row.id,
          speaker: speakerOf(d.type),
          text: folded[i] ?? d.content,
          at: timestampMillis(d.row.timestamp)
        }))
      )
      for (const d of decoded) texts.set(d.row.id, { text: d.content, timestamp: d.row.timestamp, type: d.type })
    })

  /** Indexes the rows appended since the last call. */
  const refresh = (state: RecallHost) =>
    Effect.gen(function* () {
      const opened = yield* state.openTimeIndex(false)
      if (Option.isNone(opened)) return
      let last = index.lastRowId()
      for (;;) {
        const rows = yield* opened.value.rowsAfter(last, PAGE)
        yield* ingest(rows)
        const tail = rows[rows.length - 1]
        if (tail === undefined || rows.length < PAGE) return
        last = tail.id
      }
    })

  /** The tier's nearest turns to the query vector (its last one is the reference), or none. */
  const nearest = (state: RecallHost, query: QueryVector | undefined) => {
    const cached = state.turnVectors?.index
    if (query === undefined || cached === undefined || cached.modelId !== query.modelId) return []
    return cached.nearest(query.vector, Math.max(2, tunables.recall_turn_vector_reference_rank + 1)).filter((h) => {
      const stored = texts.get(h.rowId)
      return stored !== undefined && cached.shaOf(h.rowId) === hashOf(h.rowId, stored.text)
    })
  }

  const search = (
    state: RecallHost,
    query: string,
    names: { readonly master: string; readonly character: string },
    limit: number,
    vector?: QueryVector
  ) =>
    Effect.gen(function* () {
      yield* refresh(state)
      const { terms, named } = analyzeQuery(query, names, analyzer)
      const semantic = tunables.recall_turn_vector_weight > 0 ? nearest(state, vector) : []
      const lexical = index.search(terms, named, semantic.length > 0 ? index.size() : limit)
      const hits = TurnVectorIndex.fuseTurns(lexical, semantic, {
        floor: tunables.recall_turn_relative_floor,
        weight: tunables.recall_turn_vector_weight,
        limit
      })
      const borrowed = new Set(
        hits.filter((h) => h.borrowed === true && isShort(texts.get(h.rowId)?.text ?? "")).map((h) => h.rowId)
      )
      const rows = hits.map((h): RecallRow => {
        const stored = texts.get(h.rowId)
        return {
          id: `turn:${h.rowId}`,
          text: stored?.text ?? "",
          tier: "turn",
          entity: stored?.type === "human" ? "user_said" : stored?.type === "ai" ? "self_said" : "turn",
          subject_kind: null,
          subject_id: null,
          scope: "legacy_private",
          score: Math.round(h.score * 1e6) / 1e6,
          created_at: stored?.timestamp ?? null,
          event_start_at: null,
          event_end_at: null,
          source_row_ids: [h.rowId]
        }
      })
      return { rows, borrowed }
    })

  /** Drops the index (the speakers' names changed). */
  const reset = () => {
    index = TurnIndex.make(paramsOf(tunables), analyzer)
    texts.clear()
    hashes.clear()
  }

  return { search, reset }
}
