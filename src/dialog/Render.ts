/**
 * Text rendering of the memory server's read routes, as pure functions: `/new_dialog` (persona header,
 * inner-thoughts header with the clock, recent messages, gap hint) and `/get_recent_history`.
 */
import * as L from "../domain/Locale.js"
import { englishClock, minuteStamp } from "../domain/LocalTime.js"
import { messageText, type StoredMessage } from "../domain/Message.js"

export interface Speakers {
  readonly character: string
  readonly master: string
}

const personaHeader: Readonly<Record<L.Language, string>> = {
  zh: "\n======{name}的长期记忆======\n",
  "zh-TW": "\n======{name}的長期記憶======\n",
  en: "\n======{name}'s Long-term Memory======\n",
  ja: "\n======{name}の長期記憶======\n",
  ko: "\n======{name}의 장기 기억======\n",
  ru: "\n======Долговременная память {name}======\n",
  es: "\n======Memoria a largo plazo de {name}======\n",
  pt: "\n======Memória de longo prazo de {name}======\n"
}

const speakerOf = (m: StoredMessage, s: Speakers): string =>
  m.type === "human" ? s.master : m.type === "ai" ? s.character : m.type === "system" ? "SYSTEM_MESSAGE" : m.type

const brackets = /\[[^\]]*?\]|\([^)]*?\)|（[^）]*?）|【[^】]*?】|\{[^}]*?\}|<[^>]*?>/g

/** Message text without bracketed asides (stage directions, emotion tags), trimmed. */
export const stripBrackets = (text: string): string => text.replace(brackets, "").trim()

const THIRTY_MINUTES = 30 * 60
const FIVE_HOURS = 5 * 3600

export const gapHint = (gapSeconds: number, nowMillis: number, s: Speakers, lang: L.Language): string => {
  if (gapSeconds < THIRTY_MINUTES) return ""
  const notice = L.render(L.gapStrings.gapNotice, lang, {
    master: s.master,
    elapsed: L.formatElapsed(gapSeconds, lang)
  })
  if (gapSeconds < FIVE_HOURS) return notice + "\n"
  const now = L.render(L.gapStrings.gapCurrentTime, lang, { now: minuteStamp(nowMillis) })
  const hint = L.render(L.gapStrings.gapLongHint, lang, { name: s.character, master: s.master })
  return now + notice + hint + "\n"
}

export interface DialogInput {
  readonly speakers: Speakers
  readonly language: L.Language
  readonly nowMillis: number
  readonly recent: ReadonlyArray<StoredMessage>
  readonly gapSeconds: number | undefined
  readonly persona: string
}

export const renderNewDialog = (input: DialogInput): string => {
  const { speakers: s, language: lang } = input
  let out = L.render(personaHeader, lang, { name: s.character }) + input.persona
  out += L.render(L.innerThoughtsHeader, lang, { name: s.character })
  out += L.render(L.innerThoughtsDynamic, lang, { name: s.character, time: englishClock(input.nowMillis) })
  for (const m of input.recent) out += `${speakerOf(m, s)} | ${stripBrackets(messageText(m))}\n`
  if (input.gapSeconds !== undefined) out += gapHint(input.gapSeconds, input.nowMillis, s, lang)
  return out
}

export const renderRecentHistory = (
  recent: ReadonlyArray<StoredMessage>,
  s: Speakers,
  lang: L.Language,
  known: boolean
): string => {
  if (!known || recent.length === 0) return L.noRecentHistory[lang]
  let out = L.render(L.recentHistoryIntro, lang, { name: s.character })
  for (const m of recent) {
    out += m.type === "system" ? `${messageText(m)}\n` : `${speakerOf(m, s)} | ${messageText(m)}\n`
  }
  return out
}
