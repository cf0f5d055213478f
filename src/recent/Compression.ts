/**
 * Pure rules of recent-memory compression (neko-compat §4.1): the trigger and slice, rendering for the
 * model with per-message head/tail truncation, greedy chunking for map-reduce, fingerprints for the splice,
 * the hard cap, and cutting a summary back to its last sentence end.
 */
import { createHash } from "node:crypto"
import type { Language } from "../domain/Locale.js"
import { contentText, messageText, type StoredMessage } from "../domain/Message.js"
import { memoPrefix } from "./prompts.js"
import type { TokenCounter } from "../llm/Tokenizer.js"
import type { Speakers } from "../domain/Speakers.js"

export type { Speakers }

/** The items to compress when there are more than `threshold`: all but the newest `keep`. */
export const sliceToCompress = (
  items: ReadonlyArray<StoredMessage>,
  threshold: number,
  keep: number
): ReadonlyArray<StoredMessage> | undefined =>
  items.length > threshold ? items.slice(0, items.length - keep) : undefined

const speakerOf = (m: StoredMessage, s: Speakers) =>
  m.type === "human" ? s.master : m.type === "ai" ? s.character : m.type === "system" ? "SYSTEM_MESSAGE" : m.type

/** One "speaker | text" line per message, each truncated to `half` head + `half` tail tokens. */
export const renderLines = (
  items: ReadonlyArray<StoredMessage>,
  s: Speakers,
  tokens: TokenCounter,
  half: number
): Array<string> => items.map((m) => `${speakerOf(m, s)} | ${tokens.truncateMiddle(messageText(m), half, half)}`)

/** Greedy chunks of whole lines, each within `budget` tokens (a longer single line is its own chunk). */
export const chunkLines = (
  lines: ReadonlyArray<string>,
  budget: number,
  tokens: TokenCounter
): Array<Array<string>> => {
  const chunks: Array<Array<string>> = []
  let current: Array<string> = []
  let used = 0
  for (const line of lines) {
    const cost = tokens.count(line) + 1
    if (current.length > 0 && used + cost > budget) {
      chunks.push(current)
      current = []
      used = 0
    }
    current.push(line)
    used += cost
  }
  if (current.length > 0) chunks.push(current)
  return chunks
}

/** `(type, first 50 characters, sha256 of the full content)`, as N.E.K.O. fingerprints messages. */
export const fingerprint = (m: StoredMessage): string => {
  const text = typeof m.data.content === "string" ? m.data.content : JSON.stringify(m.data.content ?? "")
  return `${m.type}\u0000${contentText(m.data.content).slice(0, 50)}\u0000${createHash("sha256").update(text).digest("hex")}`
}

/**
 * The new history when the items named by `snapshot` still stand at `at` in `current`: those items are
 * replaced by `replacement` (for a compression: the head, replaced by the memo). Undefined when they moved.
 */
export const splice = (
  current: ReadonlyArray<StoredMessage>,
  snapshot: ReadonlyArray<string>,
  replacement: ReadonlyArray<StoredMessage>,
  at = 0
): Array<StoredMessage> | undefined => {
  if (snapshot.length === 0 || at < 0 || current.length < at + snapshot.length) return undefined
  for (let i = 0; i < snapshot.length; i++) {
    const item = current[at + i]
    if (item === undefined || fingerprint(item) !== snapshot[i]) return undefined
  }
  return [...current.slice(0, at), ...replacement, ...current.slice(at + snapshot.length)]
}

/**
 * Above `maxTokens` of raw text: keep the memo (a system item at index 0) and the newest items, dropping the
 * oldest, never fewer than `minKeep` items. Returns how many items after the memo to drop, or 0.
 */
export const hardCapDrop = (
  items: ReadonlyArray<StoredMessage>,
  maxTokens: number,
  minKeep: number,
  tokens: TokenCounter
) => {
  const costs = items.map((m) => tokens.count(messageText(m)))
  let total = costs.reduce((a, b) => a + b, 0)
  if (total <= maxTokens) return 0
  const start = items[0]?.type === "system" ? 1 : 0
  let drop = 0
  while (total > maxTokens && items.length - drop > minKeep && start + drop < items.length) {
    total -= costs[start + drop] ?? 0
    drop++
  }
  return drop
}

/** Cuts text back to its last sentence end (. ! ? 。 ！ ？ … or a newline); unchanged if there is none. */
export const cutToSentenceEnd = (text: string): string => {
  const m = /[\s\S]*[.!?。！？…\n]/.exec(text)
  return m ? m[0].trimEnd() : text
}

export const memoItem = (summary: string, lang: Language): StoredMessage => ({
  type: "system",
  data: { content: memoPrefix[lang] + summary }
})
