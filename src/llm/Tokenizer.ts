/**
 * Token counting for o200k_base with gpt-tokenizer, loaded while the runtime starts (about 0.3 s); if it cannot be,
 * a heuristic counts (one token per CJK character, one per four other characters). `name` says which one
 * answered, as N.E.K.O.'s `token_count_tokenizer` does.
 */
import { Context, Effect, Layer } from "effect"

export interface TokenCounter {
  readonly name: () => "tiktoken:o200k_base" | "heuristic:v1"
  readonly count: (text: string) => number
  /** Keeps the first `head` and last `tail` tokens, joined by an omission marker, when the text is longer. */
  readonly truncateMiddle: (text: string, head: number, tail: number) => string
  /** Keeps the first `limit` tokens. */
  readonly truncate: (text: string, limit: number) => string
}

export const OMISSION = " …(omitted)… "

const cjk = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/g

/** Heuristic character budget: how many characters of `text` from the start fit `tokens`. */
const heuristicPrefix = (text: string, tokens: number): number => {
  let used = 0
  let i = 0
  for (const ch of text) {
    used += cjk.test(ch) ? 1 : 0.25
    cjk.lastIndex = 0
    if (used > tokens) break
    i += ch.length
  }
  return i
}

export const heuristic: TokenCounter = {
  name: () => "heuristic:v1",
  count: (text) => {
    const wide = text.match(cjk)?.length ?? 0
    return wide + Math.ceil((text.length - wide) / 4)
  },
  truncateMiddle: (text, head, tail) => {
    if (heuristic.count(text) <= head + tail) return text
    const start = text.slice(0, heuristicPrefix(text, head))
    const reversed = [...text].reverse().join("")
    const end = [...reversed.slice(0, heuristicPrefix(reversed, tail))].reverse().join("")
    return start + OMISSION + end
  },
  truncate: (text, limit) => text.slice(0, heuristicPrefix(text, limit))
}

interface Encoding {
  readonly encode: (text: string) => Array<number>
  readonly decode: (tokens: Iterable<number>) => string
}

const fromEncoding = (e: Encoding): TokenCounter => ({
  name: () => "tiktoken:o200k_base",
  count: (text) => e.encode(text).length,
  truncateMiddle: (text, head, tail) => {
    const tokens = e.encode(text)
    if (tokens.length <= head + tail) return text
    return e.decode(tokens.slice(0, head)) + OMISSION + e.decode(tokens.slice(tokens.length - tail))
  },
  truncate: (text, limit) => {
    const tokens = e.encode(text)
    return tokens.length <= limit ? text : e.decode(tokens.slice(0, limit))
  }
})

export class Tokenizer extends Context.Tag("app/llm/Tokenizer")<Tokenizer, TokenCounter>() {
  /**
   * o200k_base, loaded (about 0.3 s of compiling and table building on the main thread) before the layer is built,
   * so that no request shares the event loop with the load; the heuristic when gpt-tokenizer cannot be loaded.
   */
  static readonly layer = Layer.effect(
    Tokenizer,
    Effect.tryPromise(() => import("gpt-tokenizer/encoding/o200k_base")).pipe(
      Effect.map(fromEncoding),
      Effect.catchAll(() =>
        Effect.logWarning("o200k_base tokenizer unavailable; using the heuristic").pipe(Effect.as(heuristic))
      )
    )
  )

  static readonly Heuristic = Layer.succeed(Tokenizer, heuristic)
}
