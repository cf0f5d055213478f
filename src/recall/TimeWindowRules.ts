/**
 * Calendar windows and the explicit time phrases chrono-node misses or gets wrong, for `parseTimeWindow`.
 * Every window is half-open `[start, end)` in epoch ms on the process's local calendar; weeks run Monday to
 * Monday. Rules search the text (they are not anchored) and the first rule that matches wins, most specific
 * first: rolling spans up to the end of today (past week, the last 3 days, 最近三天, ここ数日), relative days
 * (一昨日, 大前天), "N units ago" (三天前, 2週間前), a relative week with a weekday or weekend (先週の金曜日,
 * 上周三, 上周末), a month with an optional year (去年十月, 2024年3月5日, 10月), relative months and years
 * (先月, 上個月, 去年, 2024年), English weeks (last week, 2 weeks ago, Tuesday last week) and "in 2024".
 * Months and dates without a year are read as the most recent past one, since recall refers to the past.
 */
import type { Language } from "../domain/Locale.js"

export interface Window {
  readonly start: number
  readonly end: number
}

export type Grain = "hour" | "day" | "week" | "month" | "year"

const local = (y: number, m: number, d = 1, h = 0): number => {
  const t = new Date(2000, 0, 1)
  t.setFullYear(y, m, d)
  t.setHours(h, 0, 0, 0)
  return t.getTime()
}

/** The window of the given grain containing local `y`-`m`(0-based)-`d` `h`:00 (dates may overflow). */
export const windowOf = (grain: Grain, y: number, m: number, d = 1, h = 0): Window => {
  switch (grain) {
    case "hour":
      return { start: local(y, m, d, h), end: local(y, m, d, h + 1) }
    case "day":
      return { start: local(y, m, d), end: local(y, m, d + 1) }
    case "week": {
      const monday = d - ((new Date(local(y, m, d)).getDay() + 6) % 7)
      return { start: local(y, m, monday), end: local(y, m, monday + 7) }
    }
    case "month":
      return { start: local(y, m), end: local(y, m + 1) }
    case "year":
      return { start: local(y, 0), end: local(y + 1, 0) }
  }
}

const today = (now: number) => {
  const n = new Date(now)
  return { y: n.getFullYear(), m: n.getMonth(), d: n.getDate(), monday: n.getDate() - ((n.getDay() + 6) % 7) }
}

const relative = (grain: Grain, now: number, k: number): Window => {
  const t = today(now)
  if (grain === "year") return windowOf("year", t.y + k, 0)
  if (grain === "month") return windowOf("month", t.y, t.m + k)
  return windowOf(grain, t.y, t.m, t.d + (grain === "week" ? 7 * k : k))
}

/** The last `n` units up to the end of today ("past week", "最近三天"), from the start of the day `n` units back. */
const rolling = (grain: Grain, now: number, n: number): Window => {
  const t = today(now)
  const [y, m, d] = [
    grain === "year" ? n : 0,
    grain === "month" ? n : 0,
    grain === "week" ? 7 * n : grain === "day" ? n : 0
  ]
  return { start: local(t.y - y, t.m - m, t.d - d), end: local(t.y, t.m, t.d + 1) }
}

/** Day `weekday` (0 = Monday … 6 = Sunday, 7 = the weekend, Saturday to Monday) of the week `k` weeks off. */
const dayOfWeek = (now: number, k: number, weekday: number): Window => {
  const t = today(now)
  const first = t.monday + 7 * k + (weekday === 7 ? 5 : weekday)
  return { start: local(t.y, t.m, first), end: local(t.y, t.m, weekday === 7 ? first + 2 : first + 1) }
}

const digit = (c: string): number => "〇一二三四五六七八九".indexOf(c.replace("零", "〇").replace(/[两兩]/, "二"))

/** `12`, `１２`, `十二`, `二十三`, `三` → the number (up to 99 for Chinese numerals). */
export const cjkNumber = (text: string): number | undefined => {
  const ascii = text.replace(/[０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
  if (/^\d+$/.test(ascii)) return Number(ascii)
  const tens = /^([二两兩三四五六七八九])?十([一二三四五六七八九])?$/.exec(text)
  if (tens) return (tens[1] ? digit(tens[1]) : 1) * 10 + (tens[2] ? digit(tens[2]) : 0)
  return text.length === 1 && digit(text) >= 0 ? digit(text) : undefined
}

const NUM = "(\\d{1,2}|[０-９]{1,2}|[〇零一二两兩三四五六七八九十]{1,3})"
const weekUnit = "(?:周|週|星期|礼拜|禮拜)"
const cjkUnit = `(?:(天|日)|(?:个|個)?${weekUnit}|(週間)|(?:个|個|か|カ|ヶ|ヵ|ケ)(月)|(年))`
const cjkGrain = (m: RegExpExecArray, at: number): Grain =>
  m[at] ? "day" : m[at + 2] ? "month" : m[at + 3] ? "year" : "week"

/** A bare day of the month (`5日`, `5号`, `5th`), the right side of `3月3日から5日まで`. */
export const bareDay = (text: string): number | undefined => {
  const m = new RegExp(`^${NUM}(?:日|号|號)?$|^(\\d{1,2})(?:st|nd|rd|th)?$`).exec(text.trim())
  const n = m ? cjkNumber(m[1] ?? m[2] ?? "") : undefined
  return n !== undefined && n >= 1 && n <= 31 ? n : undefined
}

const monthDay = (now: number, year: number | undefined, month: number, day: number | undefined) => {
  if (month < 1 || month > 12 || (day !== undefined && (day < 1 || day > 31))) return undefined
  const y = year ?? today(now).y
  const w = windowOf(day === undefined ? "month" : "day", y, month - 1, day ?? 1)
  if (new Date(w.start).getMonth() !== month - 1) return undefined
  return year === undefined && w.start > now
    ? windowOf(day === undefined ? "month" : "day", y - 1, month - 1, day ?? 1)
    : w
}

const relYear = (word: string, language: Language | undefined): number =>
  ({ 去年: -1, 昨年: -1, 前年: language === "ja" ? -1 : -2, 一昨年: -2, おととし: -2, 大前年: -3, 今年: 0 })[word] ?? 1
const relWeek: Readonly<Record<string, number>> = { 上上: -2, 先々: -2, 先先: -2, 上: -1, 先: -1, 下: 1, 来: 1, 來: 1 }
const zhWeekday = "一二三四五六日天"
const jaWeekday = "月火水木金土日"
const enWeekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
const enWeekday = /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thu(?:rs)?|fri|sat|sun)\b/i
const enWeekShift: Readonly<Record<string, number>> = { last: -1, previous: -1, this: 0, current: 0, next: 1 }
const enNumbers = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
const enCounts = `(few|couple(?:\\s+of)?|several|an?|${enNumbers.join("|")}|\\d+)`
const enCount = (word: string): number => {
  const w = word.toLowerCase()
  const i = enNumbers.indexOf(w)
  return /^an?$/.test(w)
    ? 1
    : w === "few"
      ? 3
      : w.startsWith("couple")
        ? 2
        : w === "several"
          ? 5
          : i >= 0
            ? i
            : Number(w)
}
const enGrain = (word: string): Grain => (["day", "week", "month", "year"] as const).find((g) => g === word) ?? "day"

const yearWord = "(去年|昨年|一昨年|前年|おととし|大前年|今年|明年|来年|來年)"
const rules: ReadonlyArray<
  readonly [RegExp, (m: RegExpExecArray, now: number, language?: Language) => Window | undefined]
> = [
  [
    new RegExp(`(?:最近|过去|過去|近|这|這|ここ|この)(?:的)?\\s*(${NUM.slice(1, -1)}|几|幾|数|數)\\s*${cjkUnit}`),
    (m, now) => rolling(cjkGrain(m, 2), now, /^[几幾数數]$/.test(m[1] ?? "") ? 3 : (cjkNumber(m[1] ?? "") ?? 1))
  ],
  [
    new RegExp(
      `\\b(?:past\\s+(?:${enCounts}\\s+)?|(?:last|previous)\\s+${enCounts}\\s+)(day|week|month|year)s?\\b`,
      "i"
    ),
    (m, now) => rolling(enGrain((m[3] ?? "").toLowerCase()), now, enCount(m[1] ?? m[2] ?? "1"))
  ],
  [/(大前天|一昨々日|さきおととい)|(一昨日|おととい)/, (m, now) => relative("day", now, m[1] ? -3 : -2)],
  [
    new RegExp(`(?<![\\d月年])${NUM}\\s*${cjkUnit}(?:之|以)?前`),
    (m, now) => {
      const n = cjkNumber(m[1] ?? "")
      return n === undefined ? undefined : relative(cjkGrain(m, 2), now, -n)
    }
  ],
  [
    new RegExp(
      `(?:(上上|上|本|这个|這個|这|這|下)(?:个|個)?${weekUnit}|(先々|先先|先|今|来|來)週)` +
        `(?:(末)|(?:の|的)?(?:([${jaWeekday}])曜日?|${weekUnit}?([${zhWeekday}])(?!气|氣)))?`
    ),
    (m, now) => {
      const k = relWeek[m[1] ?? m[2] ?? ""] ?? 0
      const wd = m[3] ? 7 : m[4] ? jaWeekday.indexOf(m[4]) : m[5] ? Math.min(zhWeekday.indexOf(m[5]), 6) : -1
      return wd < 0 ? relative("week", now, k) : dayOfWeek(now, k, wd)
    }
  ],
  [
    new RegExp(`(?:(\\d{4})年|${yearWord})?(?:の|的)?(?<!\\d)${NUM}月(?:${NUM}(?:日|号|號))?`),
    (m, now, language) => {
      const year = m[1] ? Number(m[1]) : m[2] ? today(now).y + relYear(m[2], language) : undefined
      const month = cjkNumber(m[3] ?? "")
      const day = m[4] ? cjkNumber(m[4]) : undefined
      return month === undefined ? undefined : monthDay(now, year, month, day)
    }
  ],
  [
    /(上上|上|本|这个|這個|这|這|下)(?:个|個)?月|(先々|先先|先|今|来|來)月/,
    (m, now) => relative("month", now, relWeek[m[1] ?? m[2] ?? ""] ?? 0)
  ],
  [
    new RegExp(`(\\d{4})年|${yearWord}`),
    (m, now, language) =>
      m[1] ? windowOf("year", Number(m[1]), 0) : relative("year", now, relYear(m[2] ?? "", language))
  ],
  [/\b(last|this|next)\s+weekend\b/i, (m, now) => dayOfWeek(now, enWeekShift[(m[1] ?? "").toLowerCase()] ?? 0, 7)],
  [
    /\b(?:(?:the\s+)?week\s+before\s+last|(last|previous|this|current|next)\s+week|(an?|one|two|three|four|five|six|seven|eight|nine|ten|\d+)\s+weeks?\s+ago)\b/i,
    (m, now) => {
      const shift = m[1] ? (enWeekShift[m[1].toLowerCase()] ?? -1) : -2
      const k = m[2] ? -enCount(m[2]) : shift
      const wd = enWeekday.exec(m.input)?.[1]?.slice(0, 3).toLowerCase()
      return wd ? dayOfWeek(now, k, enWeekdays.indexOf(wd)) : relative("week", now, k)
    }
  ],
  [/\b(?:in|during|throughout)\s+(\d{4})\b(?![-/])/i, (m) => windowOf("year", Number(m[1]), 0)]
]

/** The window of the first explicit rule that matches `text`, if any. */
export const explicitRule = (text: string, now: number, language?: Language): Window | undefined => {
  for (const [re, make] of rules) {
    const m = re.exec(text)
    if (m) return make(m, now, language)
  }
  return undefined
}
