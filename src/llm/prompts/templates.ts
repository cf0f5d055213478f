/**
 * A prompt template in English, Simplified Chinese and Japanese, optionally Traditional Chinese; Traditional
 * text, when absent, is derived from the Simplified one by `ChineseScript`. Languages without their own
 * text (ko, ru, es, pt) use English, as the model answers in the conversation's language anyway.
 */
import { Effect } from "effect"
import type { Language } from "../../domain/Locale.js"
import type { ChineseScript } from "../../domain/ChineseScript.js"

export interface TemplateSet {
  readonly en: string
  readonly zh: string
  readonly ja: string
  readonly "zh-TW"?: string
}

export type Pick =
  | { readonly _tag: "Text"; readonly text: string }
  | { readonly _tag: "FromSimplified"; readonly text: string }

export const pickTemplate = (set: TemplateSet, lang: Language): Pick => {
  if (lang === "zh-TW") {
    const own = set["zh-TW"]
    return own === undefined ? { _tag: "FromSimplified", text: set.zh } : { _tag: "Text", text: own }
  }
  return { _tag: "Text", text: lang === "zh" ? set.zh : lang === "ja" ? set.ja : set.en }
}

/** The text of `set` for `lang`, with Traditional Chinese derived through `script` when the set has none. */
export const templateText =
  (script: typeof ChineseScript.Service) =>
  (set: TemplateSet, lang: Language): Effect.Effect<string> => {
    const pick = pickTemplate(set, lang)
    return pick._tag === "Text" ? Effect.succeed(pick.text) : script.toTraditional(pick.text)
  }

/** The prompt languages kioku writes templates for; other languages use the English text. */
export type PromptLanguage = "en" | "zh" | "zh-TW" | "ja"

export const promptLanguage = (lang: Language): PromptLanguage =>
  lang === "zh" || lang === "zh-TW" || lang === "ja" ? lang : "en"

/** Fills `{NAME}` placeholders; unknown ones stay as written. */
export const fillPrompt = (template: string, values: Readonly<Record<string, string>>): string =>
  template.replace(/\{([A-Z_]+)\}/g, (whole, key: string) => values[key] ?? whole)
