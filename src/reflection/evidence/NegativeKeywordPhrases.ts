/**
 * The phrase lists of the negative keyword hook (neko-compat §4.6), one per script or language, as written
 * (matching normalises them, see NegativeKeywords.ts). Each list is "don't mention X / stop talking about X /
 * I don't want to hear about X" in that language; `benign` holds look-alikes masked before the scan
 * ("can't stop talking about…" is enthusiasm, "he won't stop…" is about a third person). The Traditional list
 * is the Simplified one in Traditional characters, entry by entry.
 */
export type KeywordList = "en" | "zh-Hans" | "zh-Hant" | "ja" | "ko" | "ru" | "es" | "pt"

export interface ListSpec {
  readonly phrases: ReadonlyArray<string>
  readonly benign: ReadonlyArray<string>
  readonly spaced: boolean
}

export const keywordSpecs: Readonly<Record<KeywordList, ListSpec>> = {
  en: {
    spaced: true,
    phrases: [
      "stop mentioning",
      "stop talking about",
      "stop bringing up",
      "stop bringing that up",
      "stop bringing it up",
      "quit talking about",
      "quit bringing up",
      "don't bring up",
      "don't bring that up",
      "don't bring it up",
      "don't mention that",
      "don't mention this",
      "don't mention him",
      "don't mention her",
      "don't mention them",
      "don't mention my",
      "don't mention it again",
      "don't mention it anymore",
      "don't ever mention",
      "never mention that again",
      "never mention it again",
      "don't want to hear about",
      "don't want to hear it",
      "don't want to talk about",
      "drop the subject"
    ],
    benign: ["never stop", "can't stop", "couldn't stop", "won't stop", "wouldn't stop", "didn't stop", "doesn't stop"]
  },
  "zh-Hans": {
    spaced: false,
    phrases: [
      "别再提",
      "不要再提",
      "不许再提",
      "以后别提",
      "别提这个",
      "别提那个",
      "别提这件",
      "别提那件",
      "不要提这个",
      "不要提那个",
      "别提起",
      "不要提起",
      "别再说了",
      "不要再说了",
      "别再讲",
      "不要再讲",
      "别再聊",
      "别聊这个",
      "不想聊这个",
      "不想再聊",
      "不想再听",
      "不想听到这",
      "别再跟我说",
      "不要再跟我说"
    ],
    benign: []
  },
  "zh-Hant": {
    spaced: false,
    phrases: [
      "別再提",
      "不要再提",
      "不許再提",
      "以後別提",
      "別提這個",
      "別提那個",
      "別提這件",
      "別提那件",
      "不要提這個",
      "不要提那個",
      "別提起",
      "不要提起",
      "別再說了",
      "不要再說了",
      "別再講",
      "不要再講",
      "別再聊",
      "別聊這個",
      "不想聊這個",
      "不想再聊",
      "不想再聽",
      "不想聽到這",
      "別再跟我說",
      "不要再跟我說"
    ],
    benign: []
  },
  ja: {
    spaced: false,
    phrases: [
      "その話はやめて",
      "その話はしないで",
      "その話をしないで",
      "その話はもういい",
      "その話題はやめて",
      "話題にしないで",
      "もう言わないで",
      "二度と言わないで",
      "口にしないで",
      "持ち出さないで",
      "もう聞きたくない",
      "その話は聞きたくない",
      "思い出させないで",
      "ことに触れないで",
      "話に触れないで",
      "言及しないで"
    ],
    benign: []
  },
  ko: {
    spaced: false,
    phrases: [
      "그 얘기 하지 마",
      "그 얘기 하지 말",
      "그 얘기는 하지 마",
      "그 얘기는 하지 말",
      "그 이야기 하지 마",
      "그 얘기 그만",
      "그 이야기 그만",
      "언급하지 마",
      "다시는 말하지 마",
      "얘기 꺼내지 마",
      "얘기 듣고 싶지 않"
    ],
    benign: []
  },
  ru: {
    spaced: true,
    phrases: [
      "не упоминай",
      "перестань говорить о",
      "перестань говорить про",
      "хватит говорить о",
      "хватит говорить про",
      "хватит об этом",
      "не хочу об этом слышать",
      "не хочу слышать о",
      "не хочу слышать про",
      "не говори об этом",
      "не напоминай"
    ],
    benign: []
  },
  es: {
    spaced: true,
    phrases: [
      "no menciones",
      "no lo menciones",
      "no vuelvas a mencionar",
      "deja de hablar de",
      "deja de mencionar",
      "no quiero hablar de",
      "no quiero oír hablar de",
      "no me hables de",
      "no saques el tema"
    ],
    benign: ["no deja de", "nunca deja de"]
  },
  pt: {
    spaced: true,
    phrases: [
      "não mencione",
      "não mencionar",
      "pare de falar",
      "para de falar",
      "chega de falar",
      "não quero ouvir falar",
      "não quero falar sobre",
      "não toque nesse assunto",
      "não fale mais"
    ],
    benign: ["não para de", "nunca para de"]
  }
}
