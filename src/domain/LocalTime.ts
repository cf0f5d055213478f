/**
 * Timestamps in N.E.K.O.'s formats: naive local-clock ISO strings with microseconds for JSON files,
 * `YYYY-MM-DD HH:MM:SS.ffffff` for `time_indexed_original`. Pure functions of epoch milliseconds; callers
 * read the time from Effect's Clock.
 */
import { memoString } from "./Memo.js"

const pad = (n: number, width = 2): string => String(n).padStart(width, "0")

const parts = (millis: number) => {
  const d = new Date(millis)
  return {
    date: `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
    time: `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`,
    micros: `${pad(d.getMilliseconds(), 3)}000`,
    d
  }
}

/** `2026-11-30T05:14:44.123000` in the process's local time zone. */
export const localIso = (millis: number): string => {
  const p = parts(millis)
  return `${p.date}T${p.time}.${p.micros}`
}

/** `2026-11-30 05:14:44.123000`, the SQLAlchemy DATETIME text N.E.K.O. stores. */
export const sqliteTimestamp = (millis: number): string => {
  const p = parts(millis)
  return `${p.date} ${p.time}.${p.micros}`
}

const naive = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?$/

const parse = (text: string): number | undefined => {
  const m = naive.exec(text.trim())
  if (!m) return undefined
  const [, y, mo, d, h, mi, s, frac] = m
  const ms = frac ? Math.floor(Number(frac.padEnd(6, "0")) / 1000) : 0
  const value = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0), ms).getTime()
  return Number.isNaN(value) ? undefined : value
}

/** Parses a naive local timestamp (either separator, optional seconds and fraction) to epoch millis. */
export const parseLocal: (text: string) => number | undefined = memoString(parse, 50_000)

const weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
const months = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December"
]

/** English `%A, %B %d, %Y at %I:%M %p`, the clock line of the inner-thoughts block. */
export const englishClock = (millis: number): string => {
  const d = new Date(millis)
  const h12 = d.getHours() % 12 === 0 ? 12 : d.getHours() % 12
  const ampm = d.getHours() < 12 ? "AM" : "PM"
  return `${weekdays[d.getDay()]}, ${months[d.getMonth()]} ${pad(d.getDate())}, ${d.getFullYear()} at ${pad(h12)}:${pad(d.getMinutes())} ${ampm}`
}

/** `YYYY-MM-DD HH:MM` local. */
export const minuteStamp = (millis: number): string => {
  const p = parts(millis)
  return `${p.date} ${p.time.slice(0, 5)}`
}
