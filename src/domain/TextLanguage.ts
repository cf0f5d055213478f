/**
 * The language of a text, by script alone: kana → ja, Hangul → ko, Han → zh, Cyrillic → ru, anything else en.
 * A stand-in with the shared signature until the full detector (which also tells es, pt and other apart) lands.
 */
export type TextLanguage = "en" | "ja" | "zh" | "ko" | "es" | "pt" | "ru" | "other"

const scripts: ReadonlyArray<readonly [RegExp, TextLanguage]> = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, "ja"],
  [/\p{Script=Hangul}/u, "ko"],
  [/\p{Script=Han}/u, "zh"],
  [/\p{Script=Cyrillic}/u, "ru"]
]

export const textLanguage = (text: string): TextLanguage => scripts.find(([re]) => re.test(text))?.[1] ?? "en"
