/**
 * Recall results as the text a model reads (neko-compat §1.9, N.E.K.O.'s `render_recall_block` and the
 * `recall_memory` tool handler), and the tool's JSON schema for host apps. Each entry with text becomes
 * `"{i}. [{tier}/{entity}] {text}  ({YYYY-MM-DD}, {relative})"` (date anchor: the first parsable of event
 * end, event start, creation); the text is cut to `recall_render_entry_max_tokens`, the line to that plus
 * `recall_render_line_overhead_tokens`, and the lines are taken as a greedy prefix (the first is always
 * kept) within `recall_render_total_max_tokens` minus the header, which counts the lines actually kept.
 * Unknown tier and entity values are echoed raw (`?` / `-` when empty); memory text is never translated.
 */
import { normaliseLanguage, type Language } from "../domain/Locale.js"
import type { TokenCounter } from "../llm/Tokenizer.js"
import { parseInstant } from "./RecallEntry.js"
import * as L from "./RecallLabels.js"
import type { QueryResult } from "./RecallTypes.js"

export interface RenderTunables {
  readonly recall_render_entry_max_tokens: number
  readonly recall_render_line_overhead_tokens: number
  readonly recall_render_line_separator_tokens: number
  readonly recall_render_total_max_tokens: number
}

export interface RenderableEntry {
  readonly text?: string | null | undefined
  readonly tier?: string | null | undefined
  readonly entity?: string | null | undefined
  readonly created_at?: string | null | undefined
  readonly event_start_at?: string | null | undefined
  readonly event_end_at?: string | null | undefined
}

export interface RenderedBlock {
  readonly text: string
  readonly kept: number
  readonly dropped: number
}

const DAY = 86_400_000
const pad = (n: number, width = 2) => String(n).padStart(width, "0")
const fill = (template: string, n: number | string) => template.replace(/\{(n|query)\}/g, String(n))

/** `[tier/entity]` in `lang`; unknown values echoed raw. */
export const entryTag = (tier: string | null | undefined, entity: string | null | undefined, lang: Language) => {
  const label = (table: typeof L.tierLabels, value: string | null | undefined, empty: string) => {
    const v = (value ?? "").trim()
    if (v === "") return empty
    const known = table[v]
    return known ? L.pick(known, lang) : v
  }
  return `[${label(L.tierLabels, tier, "?")}/${label(L.entityLabels, entity, "-")}]`
}

/** 0 days "now", 1–6 days, 7–29 days in weeks, then months of 30 days. */
export const sinceLabel = (anchorMillis: number, nowMillis: number, lang: Language): string => {
  const days = Math.max(0, Math.floor((nowMillis - anchorMillis) / DAY))
  const [now, d, w, mo] = L.sinceLabels[lang]
  return days === 0
    ? now
    : days < 7
      ? fill(d, days)
      : days < 30
        ? fill(w, Math.floor(days / 7))
        : fill(mo, Math.floor(days / 30))
}

const timeSuffix = (e: RenderableEntry, nowMillis: number, lang: Language): string => {
  const anchor = [e.event_end_at, e.event_start_at, e.created_at].map(parseInstant).find((m) => m !== undefined)
  if (anchor === undefined) return ""
  const d = new Date(anchor)
  const date = `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
  return `  (${date}, ${sinceLabel(anchor, nowMillis, lang)})`
}

/** Greedy prefix of `lines` within `budget` tokens, separators charged; the first line is always kept. */
export const takeLines = (
  lines: ReadonlyArray<string>,
  budget: number,
  count: (text: string) => number,
  separatorTokens: number
): { readonly kept: Array<string>; readonly dropped: number } => {
  const kept: Array<string> = []
  let used = 0
  for (const [i, line] of lines.entries()) {
    const cost = count(line) + (kept.length > 0 ? separatorTokens : 0)
    if (kept.length > 0 && used + cost > budget) return { kept, dropped: lines.length - i }
    kept.push(line)
    used += cost
  }
  return { kept, dropped: 0 }
}

/** The numbered block under the localized "found n" header (pass `header: false` for a bare block). */
export const renderRecallBlock = (
  entries: ReadonlyArray<RenderableEntry>,
  options: {
    readonly language: Language
    readonly nowMillis: number
    readonly tokens: TokenCounter
    readonly tunables: RenderTunables
    readonly header?: boolean
  }
): RenderedBlock => {
  const { language: lang, tokens, tunables: t } = options
  const lines: Array<string> = []
  for (const e of entries) {
    const text = (e.text ?? "").trim()
    if (text === "") continue
    const cut = tokens.truncate(text, t.recall_render_entry_max_tokens)
    lines.push(
      `${lines.length + 1}. ${entryTag(e.tier, e.entity, lang)} ${cut}${timeSuffix(e, options.nowMillis, lang)}`
    )
  }
  const capped = lines.map((l) =>
    tokens.truncate(l, t.recall_render_entry_max_tokens + t.recall_render_line_overhead_tokens)
  )
  const header = options.header ?? true
  const reserve = header
    ? tokens.count(fill(L.foundHeader[lang], capped.length)) + t.recall_render_line_separator_tokens
    : 0
  const budget = Math.max(0, t.recall_render_total_max_tokens - reserve)
  const { kept, dropped } = takeLines(capped, budget, tokens.count, t.recall_render_line_separator_tokens)
  const block = header ? [fill(L.foundHeader[lang], kept.length), ...kept] : kept
  return { text: block.join("\n"), kept: kept.length, dropped }
}

/**
 * What the `recall_memory` tool answers for a `/query_memory` result: "no relevant memory" without
 * arguments, on a failure or without hits ("loosen the filter" when both query and time found nothing),
 * else the rendered block.
 */
export const renderToolAnswer = (
  args: { readonly query?: string | null | undefined; readonly time?: string | null | undefined },
  result: QueryResult | undefined,
  options: Parameters<typeof renderRecallBlock>[1]
): string => {
  const query = (args.query ?? "").trim()
  const time = (args.time ?? "").trim()
  const lang = options.language
  if ((query === "" && time === "") || result === undefined || result.error_code !== undefined) return L.noResult[lang]
  if (result.results.length === 0)
    return query !== "" && time !== "" ? L.loosen[lang].replace("{query}", query) : L.noResult[lang]
  const block = renderRecallBlock(result.results, options)
  return block.kept === 0 ? L.noResult[lang] : block.text
}

export interface RecallMemoryTool {
  readonly name: "recall_memory"
  readonly description: string
  readonly parameters: {
    readonly type: "object"
    readonly properties: {
      readonly query: { readonly type: "string"; readonly description: string }
      readonly time: { readonly type: "string"; readonly description: string }
    }
    readonly required: ReadonlyArray<string>
  }
}

/** The `recall_memory` tool definition (OpenAI function shape) with descriptions in `language`. */
export const recallMemoryToolFor = (language?: string | null): RecallMemoryTool => {
  const lang = normaliseLanguage(language) ?? "en"
  return {
    name: "recall_memory",
    description: L.pick(L.toolDescription, lang),
    parameters: {
      type: "object",
      properties: {
        query: { type: "string", description: L.pick(L.queryDescription, lang) },
        time: { type: "string", description: L.pick(L.timeDescription, lang) }
      },
      required: []
    }
  }
}

export const recallMemoryTool: RecallMemoryTool = recallMemoryToolFor("en")
