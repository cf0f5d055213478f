import { assert, describe, it } from "@effect/vitest"
import { parseTimeWindow } from "../../src/recall/TimeWindow.js"

const at = (y: number, m: number, d: number, h = 0) => new Date(y, m - 1, d, h).getTime()
const now = at(2026, 11, 25, 15)

type Row = readonly [text: string, start: number, end: number]
type LangRow = readonly [text: string, language: string | undefined, start: number, end: number]

const floorToLocalHour = (instant: number) => {
  const d = new Date(instant)
  return new Date(d.getFullYear(), d.getMonth(), d.getDate(), d.getHours()).getTime()
}

const iso: ReadonlyArray<Row> = [
  ["2026", at(2026, 1, 1), at(2027, 1, 1)],
  ["2026-05", at(2026, 5, 1), at(2026, 6, 1)],
  ["2026-12", at(2026, 12, 1), at(2027, 1, 1)],
  ["2026-05-01", at(2026, 5, 1), at(2026, 5, 2)],
  ["2024-02-29", at(2024, 2, 29), at(2024, 3, 1)],
  ["2026-05-01T14", at(2026, 5, 1, 14), at(2026, 5, 1, 15)],
  ["2026-05-01 14", at(2026, 5, 1, 14), at(2026, 5, 1, 15)],
  ["2026-05-01T23", at(2026, 5, 1, 23), at(2026, 5, 2)],
  ["2026-05-01T14:30", at(2026, 5, 1, 14), at(2026, 5, 1, 15)],
  ["2026-05-01T14:30:12.123456", at(2026, 5, 1, 14), at(2026, 5, 1, 15)],
  ["  2026-05-01  ", at(2026, 5, 1), at(2026, 5, 2)],
  ["2026-05-01/2026-05-03", at(2026, 5, 1), at(2026, 5, 4)],
  ["2026-05-03/2026-05-01", at(2026, 5, 1), at(2026, 5, 4)],
  ["2026-05-01 / 2026-05-03", at(2026, 5, 1), at(2026, 5, 4)],
  ["2026-05..2026-07", at(2026, 5, 1), at(2026, 8, 1)],
  ["2026-05-01T14/2026-05-01T16", at(2026, 5, 1, 14), at(2026, 5, 1, 17)],
  ["2025/2026-02", at(2025, 1, 1), at(2026, 3, 1)]
]

const invalid: ReadonlyArray<string> = [
  "2026-02-30",
  "2025-02-29",
  "2026-13",
  "2026-00",
  "2026-05-00",
  "2026-05-01T24",
  "2026-05-01T14:60",
  "2026-5-1",
  "2026-05-01/",
  "2026-05-01/2026-02-30",
  "2026-05-01/2026-05-02/2026-05-03",
  "",
  "   ",
  "hello world",
  "the meeting",
  "asdf qwerty",
  "随便聊聊",
  "なにか",
  "13月",
  "2月30日"
]

const phrases: ReadonlyArray<LangRow> = [
  ["yesterday", "en", at(2026, 11, 24), at(2026, 11, 25)],
  ["last Tuesday", "en", at(2026, 11, 24), at(2026, 11, 25)],
  ["last Friday", "en", at(2026, 11, 20), at(2026, 11, 21)],
  ["Friday", "en", at(2026, 11, 20), at(2026, 11, 21)],
  ["next friday", "en", at(2026, 12, 4), at(2026, 12, 5)],
  ["three days ago", "en", at(2026, 11, 22), at(2026, 11, 23)],
  ["last week", "en", at(2026, 11, 16), at(2026, 11, 23)],
  ["this week", "en", at(2026, 11, 23), at(2026, 11, 30)],
  ["2 weeks ago", "en", at(2026, 11, 9), at(2026, 11, 16)],
  ["Tuesday last week", "en", at(2026, 11, 17), at(2026, 11, 18)],
  ["last weekend", "en", at(2026, 11, 21), at(2026, 11, 23)],
  ["last month", "en", at(2026, 10, 1), at(2026, 11, 1)],
  ["in October", "en", at(2026, 10, 1), at(2026, 11, 1)],
  ["December", "en", at(2025, 12, 1), at(2026, 1, 1)],
  ["last year", "en", at(2025, 1, 1), at(2026, 1, 1)],
  ["in 2024", "en", at(2024, 1, 1), at(2025, 1, 1)],
  ["Oct 2025", "en", at(2025, 10, 1), at(2025, 11, 1)],
  ["this morning", "en", at(2026, 11, 25), at(2026, 11, 26)],
  ["past week", "en", at(2026, 11, 18), at(2026, 11, 26)],
  ["the last few days", "en", at(2026, 11, 22), at(2026, 11, 26)],
  ["yesterday at 3pm", "en", at(2026, 11, 24, 15), at(2026, 11, 24, 16)],
  ["between March 3 and March 5", "en", at(2026, 3, 3), at(2026, 3, 6)],
  ["between Monday and Friday", "en", at(2026, 11, 23), at(2026, 11, 28)],
  ["2026-05-01 to 2026-05-03", "en", at(2026, 5, 1), at(2026, 5, 4)],
  ["2026-05-01から2026-05-03まで", "ja", at(2026, 5, 1), at(2026, 5, 4)],
  ["from March 3 to March 5", "en", at(2026, 3, 3), at(2026, 3, 6)],
  ["昨日", "ja", at(2026, 11, 24), at(2026, 11, 25)],
  ["一昨日", "ja", at(2026, 11, 23), at(2026, 11, 24)],
  ["先週の金曜日", "ja", at(2026, 11, 20), at(2026, 11, 21)],
  ["先週の日曜日", "ja", at(2026, 11, 22), at(2026, 11, 23)],
  ["金曜日", "ja", at(2026, 11, 20), at(2026, 11, 21)],
  ["3日前", "ja", at(2026, 11, 22), at(2026, 11, 23)],
  ["先週", "ja", at(2026, 11, 16), at(2026, 11, 23)],
  ["先月", "ja", at(2026, 10, 1), at(2026, 11, 1)],
  ["去年の10月", "ja", at(2025, 10, 1), at(2025, 11, 1)],
  ["前年", "ja", at(2025, 1, 1), at(2026, 1, 1)],
  ["2024年", "ja", at(2024, 1, 1), at(2025, 1, 1)],
  ["ここ2週間", "ja", at(2026, 11, 11), at(2026, 11, 26)],
  ["3月3日から5日まで", "ja", at(2026, 3, 3), at(2026, 3, 6)],
  ["昨天", "zh", at(2026, 11, 24), at(2026, 11, 25)],
  ["大前天", "zh", at(2026, 11, 22), at(2026, 11, 23)],
  ["上周三", "zh", at(2026, 11, 18), at(2026, 11, 19)],
  ["上周日", "zh", at(2026, 11, 22), at(2026, 11, 23)],
  ["周五", "zh", at(2026, 11, 20), at(2026, 11, 21)],
  ["三天前", "zh", at(2026, 11, 22), at(2026, 11, 23)],
  ["上周", "zh", at(2026, 11, 16), at(2026, 11, 23)],
  ["上个月", "zh", at(2026, 10, 1), at(2026, 11, 1)],
  ["三个月前", "zh", at(2026, 8, 1), at(2026, 9, 1)],
  ["去年十月", "zh", at(2025, 10, 1), at(2025, 11, 1)],
  ["十二月", "zh", at(2025, 12, 1), at(2026, 1, 1)],
  ["去年", "zh", at(2025, 1, 1), at(2026, 1, 1)],
  ["前年", "zh", at(2024, 1, 1), at(2025, 1, 1)],
  ["最近三天", "zh", at(2026, 11, 22), at(2026, 11, 26)],
  ["三月三号到五号", "zh", at(2026, 3, 3), at(2026, 3, 6)],
  ["去年十月至今", "zh", at(2025, 10, 1), at(2026, 11, 26)],
  ["前天下午三点", "zh", at(2026, 11, 23, 15), at(2026, 11, 23, 16)],
  ["上個月", "zh-TW", at(2026, 10, 1), at(2026, 11, 1)],
  ["上週三", "zh-TW", at(2026, 11, 18), at(2026, 11, 19)],
  ["上禮拜", "zh-TW", at(2026, 11, 16), at(2026, 11, 23)],
  ["去年十月", "zh-TW", at(2025, 10, 1), at(2025, 11, 1)],
  ["昨天", undefined, at(2026, 11, 24), at(2026, 11, 25)],
  ["先週の金曜日", "ko", at(2026, 11, 20), at(2026, 11, 21)],
  ["last month", "zh", at(2026, 10, 1), at(2026, 11, 1)],
  ["yesterday", "ja-JP", at(2026, 11, 24), at(2026, 11, 25)]
]

const window = (start: number, end: number) => ({ start, end })

describe("parseTimeWindow", () => {
  it("reads N.E.K.O.'s ISO grammar: year, month, day, hour, floored datetimes and ranges", () => {
    for (const [text, start, end] of iso) assert.deepStrictEqual(parseTimeWindow(text, now), window(start, end), text)
  })

  it("converts offset-aware datetimes to the local hour", () => {
    const tokyo = floorToLocalHour(Date.UTC(2026, 4, 1, 5, 30))
    assert.deepStrictEqual(parseTimeWindow("2026-05-01T14:30:00+09:00", now), window(tokyo, tokyo + 3_600_000))
    const utc = floorToLocalHour(Date.UTC(2026, 4, 1, 14, 59, 59))
    assert.deepStrictEqual(parseTimeWindow("2026-05-01T14:59:59Z", now), window(utc, utc + 3_600_000))
  })

  it("rejects overflowing and malformed ISO text without trying natural language, and garbage", () => {
    for (const text of invalid) assert.strictEqual(parseTimeWindow(text, now, "en"), undefined, text)
  })

  it("reads English, Japanese and Chinese phrases as the day, week, month, year or span they name", () => {
    for (const [text, language, start, end] of phrases)
      assert.deepStrictEqual(parseTimeWindow(text, now, language), window(start, end), `${text} (${language})`)
  })
})
