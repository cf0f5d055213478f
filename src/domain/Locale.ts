/**
 * Prompt languages and the localized fixed strings of the memory server's text routes. The inner-thoughts
 * sentences are part of the wire contract: N.E.K.O.'s client splits `/new_dialog` at them, so they match
 * the running implementation word for word.
 */
export const languages = ["zh", "zh-TW", "en", "ja", "ko", "ru", "es", "pt"] as const
export type Language = (typeof languages)[number]

/** Maps a request language code (`zh-CN`, `en-US`, `zh-Hant`…) to a supported language, if any. */
export const normaliseLanguage = (raw: string | undefined | null): Language | undefined => {
  if (!raw) return undefined
  const code = raw.trim().replace("_", "-").toLowerCase()
  if (code === "") return undefined
  if (code === "zh-tw" || code === "zh-hk" || code === "zh-mo" || code.startsWith("zh-hant")) return "zh-TW"
  const base = code.split("-")[0]
  return languages.find((l) => l === base)
}

/** The stored code of a language: Simplified Chinese as `zh-CN` (N.E.K.O.'s full form), the rest as they are. */
export const storedCode = (language: Language): string => (language === "zh" ? "zh-CN" : language)

type Table = Readonly<Record<Language, string>>

const fill = (template: string, values: Readonly<Record<string, string | number>>): string =>
  template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole))

export const innerThoughtsHeader: Table = {
  zh: "\n\n======以下是{name}的内心活动======\n",
  "zh-TW": "\n\n======以下是{name}的內心活動======\n",
  en: "\n\n======{name}'s Inner Thoughts======\n",
  ja: "\n\n======{name}の心の声======\n",
  ko: "\n\n======{name}의 내면 활동======\n",
  ru: "\n\n======Внутренние мысли {name}======\n",
  es: "\n\n======Pensamientos internos de {name}======\n",
  pt: "\n\n======Pensamentos internos de {name}======\n"
}

export const innerThoughtsDynamic: Table = {
  zh: "现在时间是{time}。开始聊天前，{name}又在脑海内整理了近期发生的事情。\n",
  "zh-TW": "現在時間是{time}。開始聊天前，{name}又在腦海裡整理了近期發生的事情。\n",
  en: "The current time is {time}. Before the conversation begins, {name} is mentally reviewing recent events.\n",
  ja: "現在の時刻は{time}です。会話を始める前に、{name}は最近の出来事を頭の中で整理しています。\n",
  ko: "현재 시간은 {time}입니다. 대화를 시작하기 전에 {name}은 최근 있었던 일들을 마음속으로 정리하고 있습니다.\n",
  ru: "Текущее время: {time}. Перед началом разговора {name} мысленно перебирает последние события.\n",
  es: "La hora actual es {time}. Antes de iniciar la conversación, {name} repasa mentalmente los acontecimientos recientes.\n",
  pt: "A hora atual é {time}. Antes de iniciar a conversa, {name} revisa mentalmente os acontecimentos recentes.\n"
}

export const recentHistoryIntro: Table = {
  zh: "开始聊天前，{name}又在脑海内整理了近期发生的事情。\n",
  "zh-TW": "開始聊天前，{name}又在腦海裡整理了近期發生的事情。\n",
  en: "Before the chat begins, {name} mentally reviews recent events.\n",
  ja: "会話を始める前に、{name}は最近の出来事を頭の中で整理しています。\n",
  ko: "대화를 시작하기 전에 {name}은 최근 있었던 일들을 마음속으로 정리하고 있습니다.\n",
  ru: "Перед началом разговора {name} мысленно перебирает последние события.\n",
  es: "Antes de iniciar la conversación, {name} repasa mentalmente los acontecimientos recientes.\n",
  pt: "Antes de iniciar a conversa, {name} revisa mentalmente os acontecimentos recentes.\n"
}

export const noRecentHistory: Table = {
  zh: "开始聊天前，没有历史记录。\n",
  "zh-TW": "開始聊天前，沒有歷史紀錄。\n",
  en: "Before the chat begins, there is no history.\n",
  ja: "会話を始める前、履歴はありません。\n",
  ko: "대화를 시작하기 전, 기록이 없습니다.\n",
  ru: "Перед началом разговора истории нет.\n",
  es: "Antes de iniciar la conversación, no hay historial.\n",
  pt: "Antes de iniciar a conversa, não há histórico.\n"
}

const gapNotice: Table = {
  zh: "距离上次与{master}聊天已经过去了{elapsed}。",
  "zh-TW": "距離上次與{master}聊天已經過了{elapsed}。",
  en: "It has been {elapsed} since the last conversation with {master}.",
  ja: "{master}との最後の会話から{elapsed}が経過しました。",
  ko: "{master}와의 마지막 대화로부터 {elapsed}이 지났습니다.",
  ru: "С момента последнего разговора с {master} прошло {elapsed}.",
  es: "Han pasado {elapsed} desde la última conversación con {master}.",
  pt: "Já se passaram {elapsed} desde a última conversa com {master}."
}

const gapLongHint: Table = {
  zh: "{name}意识到已经很久没有和{master}说话了，这段时间里发生了什么呢？{name}很想知道{master}最近过得怎么样。",
  "zh-TW": "{name}意識到已經很久沒有和{master}說話了，這段時間裡發生了什麼呢？{name}很想知道{master}最近過得如何。",
  en: "{name} realizes it has been quite a while since talking to {master}. What happened during this time? {name} is curious about how {master} has been.",
  ja: "{name}は{master}と長い間話していなかったことに気づきました。この間に何があったのでしょう？{name}は{master}の最近の様子が気になっています。",
  ko: "{name}은 {master}와 꽤 오랫동안 이야기하지 않았다는 것을 깨달았습니다. 그동안 무슨 일이 있었을까요? {name}은 {master}의 근황이 궁금합니다.",
  ru: "{name} осознаёт, что давно не разговаривала с {master}. Что произошло за это время? {name} хочет узнать, как дела у {master}.",
  es: "{name} nota que hace mucho que no habla con {master}. ¿Qué habrá pasado en este tiempo? {name} quiere saber cómo ha estado {master}.",
  pt: "{name} percebe que faz bastante tempo que não conversa com {master}. O que aconteceu nesse período? {name} quer saber como {master} tem estado."
}

const gapCurrentTime: Table = {
  zh: "现在的时间是{now}。",
  "zh-TW": "現在的時間是{now}。",
  en: "The current time is {now}.",
  ja: "現在の時刻は{now}です。",
  ko: "현재 시각은 {now}입니다.",
  ru: "Сейчас {now}.",
  es: "La hora actual es {now}.",
  pt: "A hora atual é {now}."
}

const units: Readonly<Record<Language, readonly [d: string, h: string, m: string, join: string, last: string]>> = {
  zh: ["{d}天", "{h}小时", "{m}分钟", "", ""],
  "zh-TW": ["{d}天", "{h}小時", "{m}分鐘", "", ""],
  en: ["{d} days", "{h} hours", "{m} minutes", ", ", " and "],
  ja: ["{d}日", "{h}時間", "{m}分", "", ""],
  ko: ["{d}일", "{h}시간", "{m}분", " ", " "],
  ru: ["{d} дн.", "{h} ч.", "{m} мин.", " ", " "],
  es: ["{d} días", "{h} horas", "{m} minutos", ", ", " y "],
  pt: ["{d} dias", "{h} horas", "{m} minutos", ", ", " e "]
}

/** Elapsed time as days (+hours), hours (+minutes only under 3 h), or minutes. */
export const formatElapsed = (seconds: number, lang: Language): string => {
  const total = Math.max(0, Math.floor(seconds / 60))
  const d = Math.floor(total / 1440)
  const h = Math.floor((total % 1440) / 60)
  const m = total % 60
  const [ud, uh, um, , last] = units[lang]
  const shown: Array<string> = []
  if (d > 0) {
    shown.push(fill(ud, { d }))
    if (h > 0) shown.push(fill(uh, { h }))
  } else if (h > 0) {
    shown.push(fill(uh, { h }))
    if (h < 3 && m > 0) shown.push(fill(um, { m }))
  } else {
    shown.push(fill(um, { m }))
  }
  return shown.join(last)
}

export const render = (table: Table, lang: Language, values: Readonly<Record<string, string | number>>): string =>
  fill(table[lang], values)

export const gapStrings = { gapNotice, gapLongHint, gapCurrentTime }

const traditionalOnly = /[們這說對會來時個後國過還麼樣點裡頭將與為麼見聽讀寫體歡問題當從動現開關係]/
const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0

/**
 * The language of what people wrote, for choosing a prompt template: kana → ja, Hangul → ko, Cyrillic → ru,
 * Han → zh (zh-TW when Traditional-only characters appear); Latin text keeps `fallback`.
 */
export const detectLanguage = (texts: ReadonlyArray<string>, fallback: Language): Language => {
  const text = texts.join("\n")
  const kana = count(text, /[\u3040-\u30ff]/g)
  const hangul = count(text, /[\uac00-\ud7af]/g)
  const cyrillic = count(text, /[\u0400-\u04ff]/g)
  const han = count(text, /[\u3400-\u4dbf\u4e00-\u9fff]/g)
  const letters = count(text, /\p{L}/gu)
  if (letters === 0) return fallback
  if (kana > 0 && kana + han >= letters * 0.3) return "ja"
  if (hangul >= letters * 0.3) return "ko"
  if (cyrillic >= letters * 0.3) return "ru"
  if (han >= letters * 0.3) return traditionalOnly.test(text) ? "zh-TW" : fallback === "zh-TW" ? "zh-TW" : "zh"
  return fallback
}

/** The deprecated `/search_for_memory` placeholder: kioku's recall lives at `/query_memory`. */
const searchPlaceholder: Table = {
  zh: "======{name}在回想======\n{query}\n\n======{name}想起的事======\n（此接口已停用，请改用 /query_memory。）",
  "zh-TW": "======{name}在回想======\n{query}\n\n======{name}想起的事======\n（此介面已停用，請改用 /query_memory。）",
  en: "======{name} is recalling======\n{query}\n\n======What {name} recalls======\n(This route is retired; use /query_memory.)",
  ja: "======{name}は思い出している======\n{query}\n\n======{name}が思い出したこと======\n（この経路は廃止されました。/query_memory を使ってください。）",
  ko: "======{name}이 떠올리는 중======\n{query}\n\n======{name}이 떠올린 것======\n(이 경로는 폐지되었습니다. /query_memory를 사용하세요.)",
  ru: "======{name} вспоминает======\n{query}\n\n======Что вспомнил(а) {name}======\n(Этот маршрут упразднён; используйте /query_memory.)",
  es: "======{name} está recordando======\n{query}\n\n======Lo que recuerda {name}======\n(Esta ruta está retirada; use /query_memory.)",
  pt: "======{name} está lembrando======\n{query}\n\n======O que {name} lembra======\n(Esta rota foi desativada; use /query_memory.)"
}

export const searchForMemoryText = (name: string, query: string, lang: Language): string =>
  fill(searchPlaceholder[lang], { name, query })
