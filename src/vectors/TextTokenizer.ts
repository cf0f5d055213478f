/**
 * A model's tokenizer over @huggingface/tokenizers: `tokenizer.json` plus `tokenizer_config.json` in, token ids
 * out, truncated to a maximum length that keeps the last token (a BERT-style `[SEP]` survives). Ids the
 * library leaves undefined (a WordLevel vocabulary, which it reads as a plain map) become the unknown-token
 * id, and the padding id is the config's `pad_token`, else `[PAD]`/`<pad>`, else 0.
 */
import { Tokenizer } from "@huggingface/tokenizers"
import { Either, Option } from "effect"
import { configToken } from "./ModelProfile.js"

export interface TextTokenizer {
  /** Token ids of `text`, special tokens included, at most `maxLength` of them. */
  readonly encode: (text: string, maxLength: number) => ReadonlyArray<number>
  /** The normalised, pre-tokenised pieces of `text` (before the vocabulary lookup). */
  readonly pieces: (text: string) => ReadonlyArray<string>
  readonly padId: number
}

const firstId = (tokenizer: Tokenizer, tokens: ReadonlyArray<Option.Option<string>>): Option.Option<number> =>
  Option.firstSomeOf(tokens.map((t) => Option.flatMap(t, (name) => Option.fromNullable(tokenizer.token_to_id(name)))))

export const make = (
  tokenizerJson: Readonly<Record<string, unknown>>,
  tokenizerConfig: Readonly<Record<string, unknown>>
): Either.Either<TextTokenizer, string> =>
  Either.try({
    try: () => new Tokenizer(tokenizerJson, tokenizerConfig),
    catch: (e) => `tokenizer.json: ${e instanceof Error ? e.message : String(e)}`
  }).pipe(
    Either.map((tokenizer) => {
      const model = tokenizerJson["model"]
      const modelUnk =
        typeof model === "object" && model !== null ? configToken({ ...model }, "unk_token") : Option.none<string>()
      const unkId = firstId(tokenizer, [configToken(tokenizerConfig, "unk_token"), modelUnk])
      const padId = Option.getOrElse(
        firstId(tokenizer, [configToken(tokenizerConfig, "pad_token"), Option.some("[PAD]"), Option.some("<pad>")]),
        () => 0
      )
      const unk = Option.getOrElse(unkId, () => padId)
      return {
        padId,
        pieces: (text) => tokenizer.tokenize(text),
        encode: (text, maxLength) => {
          const ids: ReadonlyArray<number | undefined> = tokenizer.encode(text).ids
          const known = ids.map((id) => (id !== undefined && Number.isInteger(id) ? id : unk))
          if (known.length <= maxLength) return known
          const last = known[known.length - 1] ?? unk
          return maxLength <= 1 ? known.slice(0, maxLength) : [...known.slice(0, maxLength - 1), last]
        }
      } satisfies TextTokenizer
    })
  )
