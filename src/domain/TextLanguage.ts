/**
 * The language a piece of text is written in, told by its script first (kana → ja, Han without kana → zh,
 * Hangul → ko, Cyrillic → ru), then, for Latin text, by stop-word evidence for Spanish or Portuguese
 * against English (addresses left out, so "example.com" is no Portuguese "com"); Latin text defaults to English. A script counts when it holds a fair share of the
 * letters, so one Japanese word inside an English sentence leaves it English. Pure and cheap.
 */
export type TextLanguage = "en" | "ja" | "zh" | "ko" | "es" | "pt" | "ru" | "other"

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0

const stopWords = {
  en: new Set(
    "the and is are was i i'm you my me to of it that this have has with for not but what so just really like do don't".split(
      " "
    )
  ),
  es: new Set(
    "el la los las y es en un una que por para con mi yo muy pero está estoy soy tengo también me gusta del al se lo eres hoy mis".split(
      " "
    )
  ),
  pt: new Set(
    "o os e é em um uma que por para com meu minha eu muito mas está estou sou tenho também gosto da na você não hoje".split(
      " "
    )
  )
} as const

const latinLanguage = (text: string): TextLanguage => {
  const words =
    text
      .toLowerCase()
      .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+|\S+@\S+\.\S+|\b\S+\.(?:com|org|net|io|jp|cn)\b\S*/gu, " ")
      .match(/[\p{L}']+/gu) ?? []
  const score = { en: 0, es: 0, pt: 0 }
  for (const w of words) {
    if (stopWords.en.has(w)) score.en++
    if (stopWords.es.has(w)) score.es++
    if (stopWords.pt.has(w)) score.pt++
  }
  score.es += 2 * count(text, /[ñ¿¡]/gu)
  score.pt += 2 * count(text, /[ãõç]|ção|ções/gu)
  if (score.es > score.en && score.es > score.pt) return "es"
  if (score.pt > score.en && score.pt >= score.es) return "pt"
  return "en"
}

/** The language of `text`: its dominant script, then stop words for Latin text. */
export const textLanguage = (text: string): TextLanguage => {
  const kana = count(text, /[\p{Script=Hiragana}\p{Script=Katakana}]/gu)
  const han = count(text, /\p{Script=Han}/gu)
  const hangul = count(text, /\p{Script=Hangul}/gu)
  const cyrillic = count(text, /\p{Script=Cyrillic}/gu)
  const latin = count(text, /\p{Script=Latin}/gu)
  const letters = count(text, /\p{L}/gu)
  if (letters === 0) return "other"
  // One CJK character carries about as much as three Latin letters.
  if ((kana + han) * 3 >= latin) {
    if (kana > 0) return "ja"
    if (han > 0) return "zh"
  }
  if (hangul * 3 >= latin && hangul > 0) return "ko"
  if (cyrillic >= latin && cyrillic > 0) return "ru"
  if (latin > 0) return latinLanguage(text)
  return "other"
}
