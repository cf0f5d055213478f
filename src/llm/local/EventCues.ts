/**
 * Relative time cues ("yesterday", "昨天", "昨日", "last week", "3 days ago"…) mapped to N.E.K.O.'s
 * `event_when` offsets, for the `local` provider's fact extraction.
 */
import type { EventWhenRaw, Offset } from "../../memory/facts/Fact.js"

const numbers: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  一: 1,
  两: 2,
  二: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
  十: 10
}
const num = (s: string | undefined): number =>
  s === undefined ? 1 : Number.isFinite(Number(s)) ? Number(s) : (numbers[s.toLowerCase()] ?? 1)

type Unit = Offset["unit"]
const units: ReadonlyArray<Unit> = ["minute", "hour", "day", "week", "month", "year"]
const unitOf = (s: string | undefined): Unit => units.find((u) => u === s?.toLowerCase()) ?? "day"
const fixed: ReadonlyArray<readonly [RegExp, number, Unit]> = [
  [/\b(yesterday|last night)\b|昨天|昨晚|昨日|昨夜/i, -1, "day"],
  [/前天|一昨日|おととい/, -2, "day"],
  [/\b(today|tonight|this morning|this evening)\b|今天|今晚|今早|今日|今朝|今夜/i, 0, "day"],
  [/\btomorrow\b|明天|明日|あした/i, 1, "day"],
  [/后天|後天|明後日|あさって/, 2, "day"],
  [/\blast week\b|上周|上星期|上個星期|先週/i, -1, "week"],
  [/\bnext week\b|下周|下星期|下個星期|来週/i, 1, "week"],
  [/\blast month\b|上个月|上個月|先月/i, -1, "month"],
  [/\bnext month\b|下个月|下個月|来月/i, 1, "month"],
  [/\blast year\b|去年|昨年/i, -1, "year"],
  [/\bnext year\b|明年|来年/i, 1, "year"]
]
const agoEn = /\b(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten) (minute|hour|day|week|month|year)s? ago\b/i
const inEn = /\bin (\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten) (minute|hour|day|week|month|year)s?\b/i
const agoCjk =
  /(\d+|[一两二三四五六七八九十])(?:个|個)?(分钟|分鐘|小时|小時|天|日|周|星期|週間|週|个月|個月|ヶ月|か月|月|年)(?:前|以前)/
const cjkUnit = (u: string): Unit =>
  /分/.test(u)
    ? "minute"
    : /时|時/.test(u)
      ? "hour"
      : /天|日/.test(u)
        ? "day"
        : /周|星期|週/.test(u)
          ? "week"
          : /月/.test(u)
            ? "month"
            : "year"

/** The first relative time cue in `text`, as an `event_when`, or null. */
export const eventWhenOf = (text: string): EventWhenRaw => {
  const start = (offset: number, unit: Unit) => ({ start: { offset, unit }, end: null })
  const ago = agoEn.exec(text)
  if (ago) return start(-num(ago[1]), unitOf(ago[2]))
  const cjk = agoCjk.exec(text)
  if (cjk) return start(-num(cjk[1]), cjkUnit(cjk[2] ?? "天"))
  const ahead = inEn.exec(text)
  if (ahead) return start(num(ahead[1]), unitOf(ahead[2]))
  for (const [re, offset, unit] of fixed) if (re.test(text)) return start(offset, unit)
  return null
}
