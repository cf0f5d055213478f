/**
 * Keyword sets and polarity cues shared by the `local` provider's persona tasks (signals, negative targets,
 * promotion, corrections). Keywords are the recall tokenizer's (§4.8: CJK 2-/3-grams, other words whole) over
 * lower-cased text with names stripped, minus a few English function and negation words, with a final "s"
 * cut from longer latin words; overlap is |A∩B| / min(|A|,|B|). No stemming beyond that, no synonyms, no
 * Traditional→Simplified folding: texts about one thing in different words or scripts do not meet.
 */
import { memoTwoStrings } from "../../domain/Memo.js"
import { recallTokens, stripNames } from "../../recall/Tokenize.js"

export interface Observation {
  readonly type: "reflection" | "persona"
  readonly id: string
  readonly text: string
  readonly entity: string
}

const functionWords = new Set(
  (
    "a an the and or but so of to in on at for with by from as about into is am are was were be been being " +
    "has have had do does did it its this that these those he she they we you me my his her their our your " +
    "not never no don doesn isn didn dont doesnt isnt didnt longer"
  ).split(" ")
)

const cjkChar = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/
const latinWord = /^[\p{L}\p{N}]+$/u
const trimS = (w: string) =>
  w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && latinWord.test(w) ? w.slice(0, -1) : w

/** Keyed by the names (joined by U+0001), then by the text. */
const keywordsOf = memoTwoStrings((joined: string, text: string): ReadonlySet<string> => {
  const names = joined === "" ? [] : joined.split("\u0001")
  return new Set(
    recallTokens(stripNames(text, names).toLowerCase())
      .filter((t) => !functionWords.has(t))
      .map(trimS)
  )
}, 20_000)

export const keywords = (text: string, names: ReadonlyArray<string>): ReadonlySet<string> =>
  keywordsOf(names.join("\u0001"), text)

const common = (a: ReadonlySet<string>, b: ReadonlySet<string>): number => [...a].filter((t) => b.has(t)).length

/** |A∩B| / min(|A|,|B|); 0 when either set is empty. */
export const overlap = (a: ReadonlySet<string>, b: ReadonlySet<string>): number =>
  a.size === 0 || b.size === 0 ? 0 : common(a, b) / Math.min(a.size, b.size)

/** The share of `b`'s keywords that `a` also has; 0 when `b` is empty. */
export const coverage = (a: ReadonlySet<string>, b: ReadonlySet<string>): number =>
  b.size === 0 ? 0 : common(a, b) / b.size

export const isSubset = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => [...a].every((t) => b.has(t))

export const isCjkMajority = (text: string): boolean => {
  const chars = [...text.replace(/[\s\p{P}\p{S}]/gu, "")]
  return chars.filter((c) => cjkChar.test(c)).length * 2 > chars.length
}

const notNegations =
  /特别|特別|别人|別人|区别|區別|分别|分別|告别|告別|不错|不錯|不过|不過|不同|不少|不断|不斷|不久|别的|別的|別れ|没错|沒錯|少ない/g
const negation =
  /\b(not|never|no longer|stopped|quit|dont|doesnt|isnt|didnt)\b|n['’]t\b|不|没|沒|別|别|ない|ません|やめた/i

/** Whether the text (names stripped) carries a negation cue (en/zh/ja), ignoring a few words that only contain one. */
export const isNegated = (text: string, names: ReadonlyArray<string> = []): boolean =>
  negation.test(stripNames(text, names).replace(notNegations, " "))
