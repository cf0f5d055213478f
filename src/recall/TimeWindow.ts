/**
 * The `time` argument of recall (`/query_memory`, the `recall_memory` tool) as a half-open window
 * `[start, end)` in epoch ms on the local calendar. N.E.K.O.'s grammar comes first (neko-compat §4.10): `YYYY`,
 * `YYYY-MM`, `YYYY-MM-DD`, `YYYY-MM-DDTHH` / `YYYY-MM-DD HH`, any ISO datetime (floored to its local hour,
 * offsets converted), and two of these joined by `/` or `..` (min start, max end); text shaped like that
 * grammar never falls through to natural language, so an overflowing date is unparsable. Other text is read
 * as an English, Japanese or Chinese phrase: explicit rules (TimeWindowRules.ts), then chrono-node in the
 * request language and then the others. A phrase covers the unit it names (hour, day, Monday-to-Monday
 * week, month, year, or a range's span), and phrases that name no year (a bare weekday, month or date) mean
 * the most recent past one unless they say "next"/"this" (下, 来, 这…).
 */
import * as chrono from "chrono-node"
import { type Language, normaliseLanguage } from "../domain/Locale.js"
import { bareDay, explicitRule, type Grain, type Window, windowOf } from "./TimeWindowRules.js"

const HOUR = 3_600_000

const span = (windows: ReadonlyArray<Window>): Window | undefined =>
  windows.length === 0
    ? undefined
    : { start: Math.min(...windows.map((w) => w.start)), end: Math.max(...windows.map((w) => w.end)) }

const isoLike = /^\d{4}(?:[-\d:.,/ TZ+]*)$/i
const isoDatetime =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,]\d{1,9})?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i

const validDay = (y: number, mo: number, d: number): boolean =>
  mo >= 1 && mo <= 12 && d >= 1 && new Date(windowOf("day", y, mo - 1, d).start).getDate() === d

const offsetMinutes = (zone: string): number => {
  if (zone.toUpperCase() === "Z") return 0
  const digits = zone.replace(":", "")
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || "0")
  return zone.startsWith("-") ? -minutes : minutes
}

const isoToken = (token: string): Window | undefined => {
  const year = /^(\d{4})(?:-(\d{2}))?$/.exec(token)
  if (year) {
    const mo = year[2] === undefined ? undefined : Number(year[2])
    if (mo === undefined) return windowOf("year", Number(year[1]), 0)
    return mo >= 1 && mo <= 12 ? windowOf("month", Number(year[1]), mo - 1) : undefined
  }
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(token)
  if (day) {
    const [y, mo, d] = [Number(day[1]), Number(day[2]), Number(day[3])]
    return validDay(y, mo, d) ? windowOf("day", y, mo - 1, d) : undefined
  }
  const m = isoDatetime.exec(token)
  if (!m) return undefined
  const n = (i: number) => Number(m[i] ?? "0")
  const [y, mo, d, h] = [n(1), n(2) - 1, n(3), n(4)]
  if (!validDay(y, mo + 1, d) || h > 23 || n(5) > 59 || n(6) > 59) return undefined
  if (m[7] === undefined) return windowOf("hour", y, mo, d, h)
  const utc = new Date(0)
  utc.setUTCFullYear(y, mo, d)
  utc.setUTCHours(h, n(5), n(6), 0)
  const instant = new Date(utc.getTime() - offsetMinutes(m[7]) * 60_000)
  const start = instant.getTime() - (instant.getMinutes() * 60 + instant.getSeconds()) * 1000
  return { start, end: start + HOUR }
}

const iso = (text: string): Window | undefined => {
  const parts = text.includes("/") ? text.split("/") : text.includes("..") ? text.split("..") : [text]
  if (parts.length > 2) return undefined
  const windows = parts.map((p) => isoToken(p.trim()))
  return windows.every((w) => w !== undefined) ? span(windows) : undefined
}

const parsers = {
  en: chrono.en.casual,
  ja: chrono.ja.casual,
  zh: chrono.zh.hans.casual,
  "zh-TW": chrono.zh.hant.casual
} as const
const fallback = [chrono.en.casual, chrono.zh.casual, chrono.ja.casual]

const parsersFor = (lang: Language | undefined): ReadonlyArray<chrono.Chrono> => {
  const first = lang === "en" || lang === "ja" || lang === "zh" || lang === "zh-TW" ? parsers[lang] : undefined
  return first ? [first, ...fallback.filter((p) => p !== first)] : fallback
}

interface Parts {
  readonly grain: Grain
  readonly y: number
  readonly m: number
  readonly d: number
  readonly h: number
}

/** The finest unit the phrase states (a weekday states a day); a phrase stating none ("this morning") is a day. */
const partsOf = (c: chrono.ParsedComponents): Parts => {
  const stated = (g: "hour" | "day" | "month" | "year") => c.isCertain(g) || (g === "day" && c.isCertain("weekday"))
  const t = c.date()
  const grain = (["hour", "day", "month", "year"] as const).find(stated) ?? "day"
  return { grain, y: t.getFullYear(), m: t.getMonth(), d: t.getDate(), h: t.getHours() }
}

const forward = /\b(?:next|this|coming|following|upcoming)\b|下|来|來|明|今週|本周|本週|这|這/i

/** How far to move a phrase chrono put in the future without naming its year or date: to the last past one. */
const backShift = (c: chrono.ParsedComponents, p: Parts, text: string, now: number) => {
  if (windowOf(p.grain, p.y, p.m, p.d, p.h).start <= now || forward.test(text)) return { years: 0, days: 0 }
  if (!c.isCertain("year") && c.isCertain("month")) return { years: -1, days: 0 }
  if (c.isCertain("weekday") && !c.isCertain("day")) return { years: 0, days: -7 }
  return { years: 0, days: p.grain === "hour" && !c.isCertain("day") ? -1 : 0 }
}

const fromResult = (r: chrono.ParsedResult, now: number): Window | undefined => {
  const start = partsOf(r.start)
  const shift = backShift(r.start, start, r.text, now)
  const move = (p: Parts) => windowOf(p.grain, p.y + shift.years, p.m, p.d + shift.days, p.h)
  const end = r.end ? partsOf(r.end) : undefined
  return span(end ? [move(start), move(end)] : [move(start)])
}

const viaChrono = (text: string, now: number, language: Language | undefined): Window | undefined => {
  for (const parser of parsersFor(language)) {
    const first = parser.parse(text, new Date(now))[0]
    if (first) return fromResult(first, now)
  }
  return undefined
}

const phrase = (text: string, now: number, language: Language | undefined): Window | undefined =>
  isoLike.test(text) ? iso(text) : (explicitRule(text, now, language) ?? viaChrono(text, now, language))

const cjkRange = /^(.+?)(?:から|到|至|〜|～|~)(.+?)(?:まで|为止|為止|之间|之間)?$/
const enBetween = /\bbetween\s+(.+?)\s+and\s+(.+)$/i
const untilNow = /^(?:今|现在|現在|目前|いま|今日|now|today)$/i

/** `A から B まで`, `A 到 B`, `between A and B`: both ends parsed alone; a bare day takes A's month. */
const range = (text: string, now: number, language: Language | undefined): Window | undefined => {
  const between = enBetween.exec(text)
  const m = between ?? cjkRange.exec(text)
  const [left, right] = [m?.[1]?.trim() ?? "", m?.[2]?.trim() ?? ""]
  const a = left === "" ? undefined : phrase(left, now, language)
  if (a === undefined) return undefined
  const day = bareDay(right)
  const from = new Date(a.start)
  const b = untilNow.test(right)
    ? phrase("today", now, "en")
    : day !== undefined
      ? windowOf("day", from.getFullYear(), from.getMonth() + (day < from.getDate() ? 1 : 0), day)
      : phrase(right, now, language)
  if (b === undefined) return undefined
  if (b.end <= a.start && between) return viaChrono(`${left} to ${right}`, now, language) ?? span([a, b])
  return span([a, b])
}

/** A half-open local window `[start, end)` in epoch ms. */
export interface TimeWindow {
  readonly start: number
  readonly end: number
}

/**
 * The recall window named by `text` relative to `nowMillis` (local time), or undefined when it names none.
 * `language` (a request language code) picks the natural-language parser tried first.
 */
export const parseTimeWindow = (text: string, nowMillis: number, language?: string): TimeWindow | undefined => {
  const t = text.trim()
  if (t === "") return undefined
  const lang = normaliseLanguage(language)
  const isoRange = /^\d{4}(-\d{2}){0,2}([T ]\d{2}[\d:.]*)?\s*(\/|\.\.)/.test(t)
  const w = isoLike.test(t) || isoRange ? iso(t) : (range(t, nowMillis, lang) ?? phrase(t, nowMillis, lang))
  // A window ending past year 9999 overflows N.E.K.O.'s datetime: unparsable there, so here too.
  return w !== undefined && new Date(w.end - 1).getFullYear() <= 9999 && new Date(w.end).getFullYear() <= 9999
    ? w
    : undefined
}
