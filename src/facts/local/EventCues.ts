/**
 * Relative time cues ("yesterday", "昨天", "昨日", "어제", "ayer", "ontem", "вчера", "last week", "3 days ago",
 * "hace 3 días"…) mapped to N.E.K.O.'s `event_when` offsets, for the `local` provider's fact extraction.
 */
import type { EventWhenRaw, Offset } from "../Fact.js"

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
const w = (words: string) => `(?<![\\p{L}])(?:${words})(?![\\p{L}])`
const cue = (latin: string, other: string) => new RegExp(`${w(latin)}|${other}`, "iu")
const fixed: ReadonlyArray<readonly [RegExp, number, Unit]> = [
  [cue("the day before yesterday|anteayer|anteontem", "前天|一昨日|おととい|그저께|그제|позавчера"), -2, "day"],
  [cue("yesterday|last night|ayer|anoche|ontem", "昨天|昨晚|昨日|昨夜|어제|вчера"), -1, "day"],
  [
    cue("the day after tomorrow|pasado mañana|depois de amanhã", "后天|後天|明後日|あさって|모레|послезавтра"),
    2,
    "day"
  ],
  [
    cue(
      "today|tonight|this morning|this evening|hoy|esta noche|hoje|esta manhã",
      "今天|今晚|今早|今日|今朝|今夜|오늘|сегодня"
    ),
    0,
    "day"
  ],
  [cue("tomorrow|amanhã|mañana(?! por)(?<!la mañana)", "明天|明日|あした|내일|завтра"), 1, "day"],
  [
    cue("last week|la semana pasada|semana passada", "上周|上星期|上個星期|上週|先週|지난주|지난 주|на прошлой неделе"),
    -1,
    "week"
  ],
  [
    cue(
      "next week|la semana que viene|la próxima semana|semana que vem|próxima semana",
      "下周|下星期|下個星期|下週|来週|다음 주|다음주|на следующей неделе"
    ),
    1,
    "week"
  ],
  [cue("last month|el mes pasado|mês passado", "上个月|上個月|先月|지난달|지난 달|в прошлом месяце"), -1, "month"],
  [
    cue(
      "next month|el mes que viene|el próximo mes|mês que vem|próximo mês",
      "下个月|下個月|来月|다음 달|다음달|в следующем месяце"
    ),
    1,
    "month"
  ],
  [cue("last year|el año pasado|ano passado", "去年|昨年|작년|в прошлом году"), -1, "year"],
  [
    cue("next year|el año que viene|el próximo año|ano que vem|próximo ano", "明年|来年|내년|в следующем году"),
    1,
    "year"
  ]
]
const romanceNumber = "(\\d+|un|una|um|uma|dos|dois|duas|tres|três|cuatro|quatro|cinco)"
const agoRomance = new RegExp(
  `(?:hace|há) ${romanceNumber} (minutos?|horas?|días?|dias?|semanas?|mes(?:es)?|mês|meses|años?|anos?)|${romanceNumber} (dias?|semanas?|meses|anos?) atrás`,
  "iu"
)
const agoRu = /(\d+|два|две|три|пять) (минут\S*|час\S*|дн\S*|день|недел\S*|месяц\S*|год\S*|лет) назад/iu
const agoKo = /(\d+)\s?(분|시간|일|주|주일|달|개월|년) ?전/u
const romanceNumbers: Readonly<Record<string, number>> = {
  un: 1,
  una: 1,
  um: 1,
  uma: 1,
  dos: 2,
  dois: 2,
  duas: 2,
  tres: 3,
  três: 3,
  cuatro: 4,
  quatro: 4,
  cinco: 5,
  два: 2,
  две: 2,
  три: 3,
  пять: 5
}
const otherUnit = (u: string): Unit =>
  /^(minut|мин|분)/i.test(u)
    ? "minute"
    : /^(hora|час|시간)/i.test(u)
      ? "hour"
      : /^(d[ií]a|дн|день|일$)/i.test(u)
        ? "day"
        : /^(semana|недел|주)/i.test(u)
          ? "week"
          : /^(mes|mês|месяц|달|개월)/i.test(u)
            ? "month"
            : "year"
const otherNum = (s: string | undefined) =>
  s === undefined ? 1 : Number.isFinite(Number(s)) ? Number(s) : (romanceNumbers[s.toLowerCase()] ?? 1)
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
  const other = agoRomance.exec(text) ?? agoRu.exec(text) ?? agoKo.exec(text)
  if (other) {
    const n = other[1] ?? other[3]
    const u = other[2] ?? other[4] ?? "day"
    return start(-otherNum(n), otherUnit(u))
  }
  const ahead = inEn.exec(text)
  if (ahead) return start(num(ahead[1]), unitOf(ahead[2]))
  for (const [re, offset, unit] of fixed) if (re.test(text)) return start(offset, unit)
  return null
}
