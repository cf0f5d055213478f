/**
 * The analyzer of the raw-turn tier: lower-cased words with English stop words removed and the rest reduced
 * by the Porter2 stemmer of wink-eng-lite-web-model (words of other alphabets, e.g. Russian, Spanish or
 * Portuguese, pass through unchanged; single letters are dropped); a mostly-CJK segment keeps N.E.K.O.'s
 * 2-grams and 3-grams (see Tokenize.ts) plus its `Intl.Segmenter` words (cjkWords). Pure; the same function
 * analyzes turn documents and queries. Stems are memoised (a bounded map): a corpus repeats its words, so a
 * cold index build stems each distinct word once.
 */
import stem from "wink-eng-lite-web-model/dist/porter-stemmer.js"
import { cjkWords } from "./Tokenize.js"

const cjkChar = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/
const splitter = /[^\p{L}\p{N}]+/u

export const stopWords: ReadonlySet<string> = new Set(
  (
    "a about above after again against all am an and any are aren't as at be because been before being below " +
    "between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each " +
    "few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself " +
    "him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most " +
    "mustn't my myself no nor not of off on once only or other ought our ours ourselves out over own same shan't " +
    "she she'd she'll she's should shouldn't so some such than that that's the their theirs them themselves then " +
    "there there's these they they'd they'll they're they've this those through to too under until up very was " +
    "wasn't we we'd we'll we're we've were weren't what what's when when's where where's which while who who's " +
    "whom why why's with won't would wouldn't you you'd you'll you're you've your yours yourself yourselves " +
    "s t d ll m re ve just also yeah oh hey hi really so got get"
  )
    .split(" ")
    .map((w) => w.replace("'", ""))
)

const isCjkMajority = (segment: string): boolean => {
  if (!cjkChar.test(segment)) return false
  const chars = [...segment]
  return chars.filter((c) => cjkChar.test(c)).length * 2 > chars.length
}

const STEMS_KEPT = 100_000
const stems = new Map<string, string>()

/** The stem of one lower-cased English word. */
export const stemWord = (word: string): string => {
  const known = stems.get(word)
  if (known !== undefined) return known
  if (stems.size >= STEMS_KEPT) stems.clear()
  const stemmed = stem(word)
  stems.set(word, stemmed)
  return stemmed
}

/** Index terms of `text`, with multiplicity, in text order. */
export const analyze = (text: string): Array<string> => analyzeWith(text, true)

/** `analyze`, with or without the CJK words (for measuring what they add). */
export const analyzeWith = (text: string, words: boolean): Array<string> => {
  const out: Array<string> = []
  for (const segment of text.toLowerCase().replace(/['’]/g, "").split(splitter)) {
    if (segment === "") continue
    if (isCjkMajority(segment)) {
      const chars = [...segment]
      for (let i = 0; i + 2 <= chars.length; i++) out.push(chars.slice(i, i + 2).join(""))
      for (let i = 0; i + 3 <= chars.length; i++) out.push(chars.slice(i, i + 3).join(""))
      if (words) out.push(...cjkWords(segment))
    } else if (!stopWords.has(segment) && (segment.length > 1 || /\p{N}/u.test(segment))) {
      out.push(stemWord(segment))
    }
  }
  return out
}
