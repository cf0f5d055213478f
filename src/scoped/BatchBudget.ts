/**
 * The content budget of a batched `scoped_history` request (N.E.K.O.'s `_cap_speaker_message_bodies`,
 * SCOPED_HISTORY_BATCH_CONTENT_MAX_TOKENS = 8000): nothing is rejected, message bodies are trimmed. A body is
 * costed as it is rendered in N.E.K.O.'s batch prompt — `> ` before its first line, `| ` before each further
 * line — plus one `\n` before every message but a segment's first. Each body is first capped at 500 tokens
 * (its head and tail kept around the localised omission marker); when the capped bodies still cost more
 * than 8000 in all, the budget is shared by water-filling: bodies costing at most the fair share (budget
 * left ÷ bodies left) keep their cost, and the rest split what remains evenly (the first ones one token
 * more), so short messages lend their saving to long ones and late segments are not starved. Each body is
 * then cut from its raw text to its allocation: the longest head-and-tail cut that fits, found by binary
 * search. Bodies within budget are returned unchanged, byte for byte. A pure function of a token counter.
 */
import { OMISSION, type TokenCounter } from "../llm/Tokenizer.js"

export const PER_MESSAGE_MAX_TOKENS = 500
export const BATCH_CONTENT_MAX_TOKENS = 8000
/** Bodies longer than this many characters are first cut to their two ends (a CPU guard for the tokenizer). */
const WORKING_CHARS = PER_MESSAGE_MAX_TOKENS * 16

/** The lines of `body` as Python's `str.splitlines` gives them (no empty last line after a final break). */
const linesOf = (body: string) => {
  const lines = body.split(/\r\n|[\n\r\v\f\u001c-\u001e\u0085\u2028\u2029]/)
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop()
  return lines
}

const rendered = (body: string) => {
  const [first = "", ...rest] = linesOf(body)
  return [`> ${first}`, ...rest.map((l) => `| ${l}`)].join("\n")
}

/**
 * At most `head` + `tail` tokens of `text`: the text itself when it fits, else its head and tail around
 * `marker`, whose tokens are paid from the head first, then the tail (N.E.K.O.'s `truncate_head_tail_tokens`).
 */
const headTail = (tokens: TokenCounter, text: string, head: number, tail: number, marker: string) => {
  const total = Math.max(0, head) + Math.max(0, tail)
  if (text === "" || tokens.count(text) <= total) return text
  if (total === 0) return ""
  const sep = marker === "" ? 0 : tokens.count(marker)
  const h = Math.max(0, head - sep)
  const t = Math.max(0, tail - Math.max(0, sep - Math.max(0, head)))
  const cut = tokens.truncateMiddle(text, h, t)
  const start = tokens.truncate(text, h)
  return `${start}${marker}${cut.slice(start.length + OMISSION.length)}`
}

export const makeBudget = (tokens: TokenCounter, marker: string) => {
  const cost = (body: string) => tokens.count(rendered(body))
  const markerTokens = tokens.count(marker)

  /** The longest head-and-tail cut of `body` whose rendering costs at most `budget` tokens. */
  const clip = (raw: string, budget: number): string => {
    if (budget <= 0) return ""
    let body = raw
    if (body.length > WORKING_CHARS) {
      const half = WORKING_CHARS / 2
      const guarded = `${body.slice(0, half)}${marker}${body.slice(-half)}`
      if (cost(guarded) <= budget) return guarded
      body = `${body.slice(0, half)}${body.slice(-half)}`
    } else if (cost(body) <= budget) return body
    const working = Math.min(PER_MESSAGE_MAX_TOKENS, budget)
    const workingHead = Math.floor(working / 2)
    const bounded = headTail(tokens, body, workingHead, working - workingHead, "")
    let low = 0
    let high = Math.min(PER_MESSAGE_MAX_TOKENS, budget)
    if (bounded !== body) high = Math.min(high, Math.max(0, tokens.count(bounded) - 1))
    let best = ""
    while (low <= high) {
      const content = Math.floor((low + high) / 2)
      const kept = Math.max(0, content - markerTokens)
      const head = Math.floor(kept / 2)
      const candidate = headTail(tokens, bounded, head + markerTokens, kept - head, marker)
      if (cost(candidate) <= budget) {
        best = candidate
        low = content + 1
      } else high = content - 1
    }
    return best
  }

  /** Every segment's message bodies, capped and shared within the batch budget. */
  const apply = (segments: ReadonlyArray<ReadonlyArray<string>>): ReadonlyArray<ReadonlyArray<string>> => {
    const newline = tokens.count("\n")
    const raw = segments.flat()
    const separators = segments.flatMap((bodies) => bodies.map((_, i) => (i > 0 ? newline : 0)))
    const capped = raw.map((b) => clip(b, PER_MESSAGE_MAX_TOKENS))
    const costs = capped.map((b, i) => cost(b) + (separators[i] ?? 0))
    let final = capped
    if (costs.reduce((a, b) => a + b, 0) > BATCH_CONTENT_MAX_TOKENS) {
      const allocations = costs.map(() => 0)
      let remaining = BATCH_CONTENT_MAX_TOKENS
      let active = costs.map((_, i) => i)
      while (active.length > 0) {
        const fair = Math.floor(remaining / active.length)
        const satisfied = active.filter((i) => (costs[i] ?? 0) <= fair)
        if (satisfied.length > 0) {
          for (const i of satisfied) {
            allocations[i] = costs[i] ?? 0
            remaining -= costs[i] ?? 0
          }
          active = active.filter((i) => (costs[i] ?? 0) > fair)
          continue
        }
        const bonus = remaining % active.length
        active.forEach((i, position) => (allocations[i] = fair + (position < bonus ? 1 : 0)))
        break
      }
      final = raw.map((b, i) => clip(b, Math.max(0, (allocations[i] ?? 0) - (separators[i] ?? 0))))
    }
    let next = 0
    return segments.map((bodies) => bodies.map(() => final[next++] ?? ""))
  }

  return { apply, clip, cost }
}
