/**
 * What a fact's words say for the `local` reflections: its language (from its script; Latin text is English
 * unless the character speaks Spanish, Portuguese, Russian or Korean), the themes its words name (English
 * Porter2 stems, Japanese and Chinese substrings; see Themes.ts) and its content words — the stems or
 * `Intl.Segmenter` words that can show two facts speak of the same thing (names, stop words and time words
 * left out). Pure.
 */
import stem from "wink-eng-lite-web-model/dist/porter-stemmer.js"
import type { Language } from "../../../domain/Locale.js"
import { themes } from "./Themes.js"

export type Lang = "en" | "ja" | "zh" | "other"

const kana = /[\u3040-\u30ff]/
const han = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/
const latin = /[A-Za-z]/
const hangulOrCyrillic = /[\uac00-\ud7af\u0400-\u04ff]/

export const langOf = (text: string, language: Language): Lang => {
  if (kana.test(text)) return "ja"
  if (han.test(text)) return "zh"
  if (hangulOrCyrillic.test(text)) return "other"
  if (!latin.test(text)) return "other"
  return language === "es" || language === "pt" || language === "ru" || language === "ko" ? "other" : "en"
}

const simplifiedOnly =
  /[们这个说为时会来对过还经动欢爱车书学习门问间长马鱼鸟猫饭觉里后发现给让话语边请读写钟电脑认识医药买卖乐东关开头见实样点]/g
const traditionalOnly =
  /[們這個說為時會來對過還經動歡愛車書學習門問間長馬魚鳥貓飯覺裡後發現給讓話語邊請讀寫鐘電腦認識醫藥買賣樂東關開頭見實樣點]/g

/** Whether Chinese texts are written in Traditional characters (ties follow the character's language). */
export const traditional = (texts: ReadonlyArray<string>, language: Language): boolean => {
  const joined = texts.join("")
  const t = joined.match(traditionalOnly)?.length ?? 0
  const s = joined.match(simplifiedOnly)?.length ?? 0
  return t === s ? language === "zh-TW" : t > s
}

const englishStop: ReadonlySet<string> = new Set(
  (
    "a about after again all also always am an and any are as at be because been before being both but by can " +
    "could did do does doing done each even ever every few for from get gets got had has have having he her " +
    "here hers him his how i if in into is it its just last like likes liked love loves loved made make makes " +
    "many me more most much my never new next no not now of often on once one only or other our out over own " +
    "really same she should since so some still such than that the their them then there these they this " +
    "those through to too under until up us usually very was we went were what when where which while who " +
    "why will with would you your yesterday today tomorrow morning mornings evening evenings night nights day " +
    "days week weeks weekend weekends month months year years time times first second lot lots thing things " +
    "go goes going want wants wanted said says say think thinks feel feels well good great big small little " +
    "take takes took come comes came keep keeps kept try tries tried start started use uses used sunday " +
    "monday tuesday wednesday thursday friday saturday ago recently around am pm asked ask asks remember " +
    "remembers told tell tells named called something anything everything nothing people person stuff kind " +
    "sort way bit pretty sure cool nice awesome maybe actually there"
  ).split(" ")
)

const cjkStop: ReadonlySet<string> = new Set(
  (
    "今日 昨日 明日 先月 先週 去年 今年 来年 毎日 毎朝 毎晩 毎週 最近 いつも 時間 自分 一緒 とても すごく 本当 " +
    "今天 昨天 明天 每天 每周 每週 上个月 上個月 去年 今年 最近 时候 時候 时间 時間 自己 一起 一个 一個 喜欢 " +
    "喜歡 非常 觉得 覺得 因为 因為 所以 但是 可以 没有 沒有 不能 已经 已經 什么 什麼 现在 現在 经常 經常 早上 晚上"
  ).split(" ")
)

const segmenters = {
  ja: new Intl.Segmenter("ja", { granularity: "word" }),
  zh: new Intl.Segmenter("zh", { granularity: "word" }),
  other: new Intl.Segmenter(undefined, { granularity: "word" })
}

const withoutNames = (text: string, names: ReadonlyArray<string>): string =>
  names.reduce((t, n) => (n.trim() === "" ? t : t.split(n).join(" ")), text)

/** English words as written, possessives and apostrophes removed. */
const writtenWords = (text: string): Array<string> =>
  text
    .replace(/['’]s\b/g, "")
    .replace(/['’]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== "")

/** Lower-cased English words with possessives and apostrophes removed. */
export const englishWords = (text: string): Array<string> => writtenWords(text).map((w) => w.toLowerCase())

const wordsOf = (text: string, lang: Exclude<Lang, "en">): Array<string> =>
  [...segmenters[lang].segment(text)].filter((s) => s.isWordLike === true).map((s) => s.segment.toLowerCase())

/**
 * Content words of `text`, each mapped to the surface form it first appeared in: English stems of words of
 * three letters or more outside the stop list; Japanese and Chinese words of two characters or more that
 * are not all kana; other languages' words of four letters or more.
 */
export const contentWords = (text: string, lang: Lang, names: ReadonlyArray<string>): ReadonlyMap<string, string> => {
  const out = new Map<string, string>()
  const plain = withoutNames(text, names)
  if (lang === "en") {
    for (const written of writtenWords(plain)) {
      const w = written.toLowerCase()
      if (w.length < 3 || englishStop.has(w) || /^\d/.test(w)) continue
      const s = stem(w)
      if (!out.has(s)) out.set(s, written)
    }
    return out
  }
  for (const w of wordsOf(plain, lang)) {
    const cjk = lang !== "other"
    if ([...w].length < (cjk ? 2 : 4) || cjkStop.has(w) || /^\d/.test(w)) continue
    if (cjk && /^[\u3040-\u309f\u30fc]+$/.test(w)) continue
    if (!out.has(w)) out.set(w, w)
  }
  return out
}

interface EnglishLexicon {
  readonly stems: ReadonlySet<string>
  readonly exact: ReadonlySet<string>
  readonly phrases: ReadonlyArray<string>
}

const englishLexicon: ReadonlyMap<string, EnglishLexicon> = new Map(
  themes.map((t) => {
    const entries = t.en.split(/\s+/).filter((e) => e !== "")
    const single = entries.filter((e) => !e.includes("_"))
    return [
      t.id,
      {
        stems: new Set(single.filter((e) => !e.startsWith("=")).map((e) => stem(e))),
        exact: new Set(single.filter((e) => e.startsWith("=")).map((e) => e.slice(1))),
        phrases: entries.filter((e) => e.includes("_")).map((e) => e.replace(/_/g, " "))
      }
    ]
  })
)

const cjkLexicon: ReadonlyMap<string, { readonly ja: ReadonlyArray<string>; readonly zh: ReadonlyArray<string> }> =
  new Map(themes.map((t) => [t.id, { ja: t.ja.split(/\s+/), zh: t.zh.split(/\s+/) }]))

/** The ids of the themes `text` names, in table order. */
export const themesOf = (text: string, lang: Lang): ReadonlyArray<string> => {
  if (lang === "other") return []
  if (lang === "en") {
    const words = englishWords(text)
    const stems = new Set(words.map((w) => stem(w)))
    const surface = new Set(words)
    const spaced = ` ${words.join(" ")} `
    return themes
      .filter((t) => {
        const lex = englishLexicon.get(t.id)
        if (lex === undefined) return false
        return (
          [...stems].some((s) => lex.stems.has(s)) ||
          [...surface].some((w) => lex.exact.has(w)) ||
          lex.phrases.some((p) => spaced.includes(` ${p} `))
        )
      })
      .map((t) => t.id)
  }
  return themes.filter((t) => cjkLexicon.get(t.id)?.[lang].some((w) => w !== "" && text.includes(w))).map((t) => t.id)
}
