/**
 * The negative keyword hook's trigger (neko-compat §4.6): does a user message ask the character to stop
 * mentioning something ("don't mention X", "stop talking about X", "I don't want to hear about X")? Pure
 * and synchronous; the phrases live in NegativeKeywordPhrases.ts. Text and phrases are compared in one
 * normalised form: apostrophes dropped ("don’t" = "dont"), NFKC, lower case, Latin accents stripped, "do
 * not" folded to "dont", whitespace collapsed for space-delimited languages and removed for zh/ja/ko.
 * Phrases of space-delimited languages must start at a word boundary, and benign look-alikes are masked
 * before the scan. No phrase matches "don't mention it" (you're welcome), "别提多开心" or "誰にも言わないで".
 * The zh family scans the Simplified and Traditional lists, a missing or unknown language falls back to
 * Chinese, and every other language scans its own list plus English (users mix).
 */
import { type Language, languages } from "../../domain/Locale.js"
import { type KeywordList, keywordSpecs, type ListSpec } from "./NegativeKeywordPhrases.js"

export type { KeywordList } from "./NegativeKeywordPhrases.js"

/** The raw phrases of every list, as written. */
export const negativeKeywords: Readonly<Record<KeywordList, ReadonlyArray<string>>> = {
  en: keywordSpecs.en.phrases,
  "zh-Hans": keywordSpecs["zh-Hans"].phrases,
  "zh-Hant": keywordSpecs["zh-Hant"].phrases,
  ja: keywordSpecs.ja.phrases,
  ko: keywordSpecs.ko.phrases,
  ru: keywordSpecs.ru.phrases,
  es: keywordSpecs.es.phrases,
  pt: keywordSpecs.pt.phrases
}

/** Every prompt language has keywords (zh-TW through the zh family). */
export const negativeKeywordLanguages: ReadonlyArray<Language> = languages

/** The comparison form of a text, for a space-delimited list or not. */
export const normaliseForKeywords = (text: string, spaced: boolean): string => {
  const folded = text
    .replace(/['‘’`´ʼ]/g, "")
    .normalize("NFKC")
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .normalize("NFC")
  return spaced
    ? folded
        .replace(/\s+/g, " ")
        .replace(/\bdo not\b/g, "dont")
        .replace(/\bcan ?not\b/g, "cant")
    : folded.replace(/\s+/g, "")
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

const alternation = (phrases: ReadonlyArray<string>, spaced: boolean): string =>
  (spaced ? "(?<![\\p{L}\\p{N}])" : "") +
  "(?:" +
  phrases.map((p) => escape(normaliseForKeywords(p, spaced))).join("|") +
  ")"

interface Matcher {
  readonly spaced: boolean
  readonly phrase: RegExp
  readonly benign: RegExp | undefined
}

const compile = (spec: ListSpec): Matcher => ({
  spaced: spec.spaced,
  phrase: new RegExp(alternation(spec.phrases, spec.spaced), "u"),
  benign: spec.benign.length === 0 ? undefined : new RegExp(alternation(spec.benign, spec.spaced), "gu")
})

const matchers: Readonly<Record<KeywordList, Matcher>> = {
  en: compile(keywordSpecs.en),
  "zh-Hans": compile(keywordSpecs["zh-Hans"]),
  "zh-Hant": compile(keywordSpecs["zh-Hant"]),
  ja: compile(keywordSpecs.ja),
  ko: compile(keywordSpecs.ko),
  ru: compile(keywordSpecs.ru),
  es: compile(keywordSpecs.es),
  pt: compile(keywordSpecs.pt)
}

/** The lists scanned for a language: English alone, its own plus English, or (zh family, unknown) both scripts. */
export const keywordListsFor = (language: Language | undefined): ReadonlyArray<KeywordList> => {
  switch (language) {
    case "en":
      return ["en"]
    case "ja":
    case "ko":
    case "ru":
    case "es":
    case "pt":
      return [language, "en"]
    default:
      return ["zh-Hans", "zh-Hant"]
  }
}

const matches = (m: Matcher, text: string): boolean => {
  const normalised = normaliseForKeywords(text, m.spaced)
  return m.phrase.test(m.benign === undefined ? normalised : normalised.replace(m.benign, " \u0000 "))
}

/** True when the text asks to stop mentioning something, by its language's lists (or the Chinese fallback). */
export const hasNegativeKeyword = (text: string, language: Language | undefined): boolean =>
  keywordListsFor(language).some((list) => matches(matchers[list], text))
