/**
 * English sentence analysis for the extraction engine: wink-nlp (loaded on first use) splits a text into
 * sentences of tokens with their part of speech, lemma and preceding whitespace. If wink-nlp cannot load,
 * a plain splitter gives the same shape with unknown parts of speech, so extraction degrades, not fails.
 */
import { Effect } from "effect"
import type { ItemSentence, ItsFunction } from "wink-nlp"

export interface Token {
  readonly value: string
  readonly lower: string
  readonly pos: string
  readonly lemma: string
  /** The whitespace before the token in the source text. */
  readonly space: string
}

export interface EnglishNlp {
  readonly sentences: (text: string) => ReadonlyArray<ReadonlyArray<Token>>
}

const pronouns = new Set("i me my mine myself you your yours we us our they them he she it his her".split(" "))
const auxiliaries = new Set(
  "am is are was were be been have has had do does did will would can could shall should may might must 'm 're 've 'll 'd 's".split(
    " "
  )
)

const plainToken = (value: string, space: string): Token => {
  const lower = value.toLowerCase()
  const pos = /^\p{P}+$/u.test(value)
    ? "PUNCT"
    : lower === "n't" || lower === "not"
      ? "PART"
      : pronouns.has(lower)
        ? "PRON"
        : auxiliaries.has(lower)
          ? "AUX"
          : /ed$/.test(lower)
            ? "VERB"
            : "X"
  return { value, lower, pos, lemma: /ed$/.test(lower) ? lower.slice(0, -2) : lower, space }
}

const plainWords = /(\s*)(n't|['’](?:m|re|ve|ll|d|s)\b|[\p{L}\p{N}]+?(?=n't\b)|[\p{L}\p{N}]+|[^\s\p{L}\p{N}])/gu

/** A splitter without wink-nlp: sentences at . ! ? and words at spaces, punctuation and contractions. */
export const plainEnglish: EnglishNlp = {
  sentences: (text) =>
    text
      .replace(/’/g, "'")
      .split(/(?<=[.!?])\s+|\n+/)
      .filter((s) => s.trim() !== "")
      .map((s) => [...s.matchAll(plainWords)].map((m) => plainToken(m[2] ?? "", m[1] ?? "")))
}

/** Loads wink-nlp with its English model; falls back to `plainEnglish`. */
export const loadEnglish: Effect.Effect<EnglishNlp> = Effect.tryPromise(async () => {
  const [{ default: winkNLP }, { default: model }] = await Promise.all([
    import("wink-nlp"),
    import("wink-eng-lite-web-model")
  ])
  const nlp = winkNLP(model)
  const its = nlp.its
  // wink-nlp's typings give `its.lemma` a signature `out` does not accept; `out` needs the function itself.
  const lemma = its.lemma as unknown as ItsFunction<string>
  return {
    sentences: (text: string) => {
      const out: Array<Array<Token>> = []
      nlp
        .readDoc(text.replace(/’/g, "'"))
        .sentences()
        .each((s: ItemSentence) => {
          const tokens = s.tokens()
          const values: ReadonlyArray<string> = tokens.out(its.value)
          const pos: ReadonlyArray<string> = tokens.out(its.pos)
          const lemmas: ReadonlyArray<string> = tokens.out(lemma)
          const spaces: ReadonlyArray<string> = tokens.out(its.precedingSpaces)
          out.push(
            values.map((value, i) => ({
              value,
              lower: value.toLowerCase(),
              pos: pos[i] ?? "X",
              lemma: lemmas[i] ?? value.toLowerCase(),
              space: spaces[i] ?? ""
            }))
          )
        })
      return out
    }
  } satisfies EnglishNlp
}).pipe(
  Effect.tapError(() => Effect.logWarning("wink-nlp unavailable; plain English sentence splitting")),
  Effect.orElseSucceed(() => plainEnglish)
)
