/**
 * N.E.K.O.'s recall tokenizer (neko-compat §4.10), shared by recall and fact deduplication: text already
 * folded to Simplified Chinese, names stripped, then split on punctuation and whitespace; a segment that is
 * mostly CJK (Han, kana, Hangul) yields all its 2-grams and then all its 3-grams, with multiplicity; other
 * segments are kept whole (case preserved) when at least 2 characters long. `cjkWords` adds kioku's words of
 * CJK text (`Intl.Segmenter`: Chinese and Japanese dictionary words, Korean words), for recall only.
 */
const cjkChar = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/
const splitter = /[\s\p{P}\p{S}]+/u

const isCjkMajority = (segment: string): boolean => {
  const chars = [...segment]
  return chars.filter((c) => cjkChar.test(c)).length * 2 > chars.length
}

const segmenter = new Intl.Segmenter("und", { granularity: "word" })
const kanaOnly = /^[\u3040-\u309f\u30fc]+$/u
/** Pronouns, particles and question words too common in questions and statements to tell turns apart. */
const cjkStopWords: ReadonlySet<string> = new Set(
  "我 你 他 她 的 了 是 吗 呢 吧 啊 什么 怎么 哪里 哪 谁 私 何 どこ 誰 です ます".split(" ")
)

/**
 * The `Intl.Segmenter` words of the CJK parts of `text` (ICU's dictionaries for Chinese and Japanese), without
 * single kana (particles) and a few pronouns and question words; one Han character can be a word (猫).
 */
export const cjkWords = (text: string): Array<string> => {
  if (!cjkChar.test(text)) return []
  const out: Array<string> = []
  for (const s of segmenter.segment(text)) {
    const word = s.segment
    if (!s.isWordLike || !cjkChar.test(word) || cjkStopWords.has(word)) continue
    if ([...word].length < 2 && kanaOnly.test(word)) continue
    out.push(word)
  }
  return out
}

/** A function removing every occurrence of the given names (longest first), case-insensitively. */
export const nameStripper = (names: ReadonlyArray<string>): ((text: string) => string) => {
  const patterns = [...names]
    .filter((n) => n.trim() !== "")
    .sort((a, b) => b.length - a.length)
    .map((n) => new RegExp(n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"))
  return (text) => patterns.reduce((t, p) => t.split(p).join(" "), text)
}

/** Removes every occurrence of the given names (longest first), case-insensitively. */
export const stripNames = (text: string, names: ReadonlyArray<string>): string => nameStripper(names)(text)

export const recallTokens = (text: string): Array<string> => {
  const out: Array<string> = []
  for (const segment of text.split(splitter)) {
    if (segment === "") continue
    if (isCjkMajority(segment)) {
      const chars = [...segment]
      for (let i = 0; i + 2 <= chars.length; i++) out.push(chars.slice(i, i + 2).join(""))
      for (let i = 0; i + 3 <= chars.length; i++) out.push(chars.slice(i, i + 3).join(""))
      if (chars.length === 1) continue
    } else if ([...segment].length >= 2) {
      out.push(segment)
    }
  }
  return out
}

/**
 * Tokens for near-duplicate detection (§4.3): names stripped, lower-cased, combining marks and quotes
 * removed, recall tokens cut further at non-alphanumeric boundaries; a text with none falls back to its
 * first remaining word.
 */
export const dedupTokens = (folded: string, names: ReadonlyArray<string>): Array<string> => {
  const base = stripNames(folded, names).toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "").replace(/"/g, "")
  const tokens = recallTokens(base).flatMap((t) => t.split(/[^\p{L}\p{N}]+/u).filter((x) => x.length > 0))
  if (tokens.length > 0) return tokens
  const first = base.split(/\s+/).find((w) => w.trim() !== "")
  return first === undefined ? [] : [first]
}

/** Dice overlap of two token sets: 2|A∩B| / (|A|+|B|). */
export const dice = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number => {
  const sa = new Set(a)
  const sb = new Set(b)
  if (sa.size + sb.size === 0) return 0
  let both = 0
  for (const t of sa) if (sb.has(t)) both++
  return (2 * both) / (sa.size + sb.size)
}
