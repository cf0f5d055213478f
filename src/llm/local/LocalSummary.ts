/**
 * The `local` provider's extractive summariser: no model, deterministic. It keeps the sentences that carry
 * memory (names, numbers, dates and times, first-person statements), always keeps "don't mention X"
 * requests verbatim, folds a correction into the statement it corrects as "X, later Y", carries an earlier
 * memo forward, and stops at the token budget. Output keeps conversation order and speaker attribution.
 */
export interface Sentence {
  readonly speaker: string
  readonly text: string
  readonly index: number
}

const directive =
  /(don'?t|do not|never|stop|please don'?t)\s+(mention|bring up|talk about|ask about)|不要(再)?(提|说|問|问)|别(再)?提|別再提|不要再說|触れないで|言わないで|話さないで|聞かないで/i
const correction =
  /^(actually|no,|sorry,|i mean|i meant|correction|wait,|oops)|\bactually\b|其实|其實|不对|不對|更正|说错|說錯|いや、|実は|訂正|間違え/i
const smallTalk =
  /^(hi|hello|hey|thanks|thank you|ok|okay|lol|haha|good (morning|night|evening)|bye|你好|谢谢|謝謝|哈哈|早上好|晚安|こんにちは|こんばんは|ありがとう|おはよう|おやすみ)[\s!.,，。！]*$/i
const timeWords =
  /\b(yesterday|today|tonight|tomorrow|last|next|ago|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|morning|evening|weekend|week|month|year)\b|昨天|今天|明天|上周|下周|上個|上个|去年|明年|昨日|今日|明日|先週|来週|去年|来年|午前|午後/i
const firstPerson = /\b(i|i'm|i've|i'll|my|me|we|our)\b|我|私|僕|俺/i
const names = /(?<![.!?]\s|^)\b[A-Z][a-zA-Z]+/
const memoLead =
  /^(Memo from prior conversations|先前对话的备忘录|先前對話的備忘錄|これまでの会話のメモ|이전 대화 메모|Заметка о прошлых разговорах|Nota de conversaciones anteriores|Nota de conversas anteriores)\s*[:：]\s*/

/** Splits "speaker | text" lines into sentences, keeping the speaker. */
export const sentencesOf = (conversation: string): Array<Sentence> => {
  const out: Array<Sentence> = []
  for (const line of conversation.split("\n")) {
    const at = line.indexOf(" | ")
    const speaker = at > 0 ? line.slice(0, at).trim() : ""
    let text = (at > 0 ? line.slice(at + 3) : line).trim()
    if (text === "") continue
    const memo = memoLead.exec(text)
    if (memo) text = text.slice(memo[0].length)
    for (const piece of text.split(/(?<=[.!?。！？…])\s*|\n+/)) {
      const t = piece.trim()
      if (t !== "" && t !== "---") out.push({ speaker: memo ? "" : speaker, text: t, index: out.length })
    }
  }
  return out
}

export const score = (s: Sentence): number => {
  if (directive.test(s.text)) return 100
  if (smallTalk.test(s.text)) return -10
  let v = 0
  if (/\d/.test(s.text)) v += 3
  if (names.test(s.text)) v += 2
  if (timeWords.test(s.text)) v += 2
  if (firstPerson.test(s.text)) v += 1
  if (s.speaker === "") v += 4
  if (s.text.length < 12) v -= 1
  return v
}

const render = (s: Sentence): string =>
  s.speaker === "" || s.speaker === "SYSTEM_MESSAGE" ? s.text : `${s.speaker}: ${s.text}`

/** Folds each correction into the previous statement of the same speaker. */
export const foldCorrections = (sentences: ReadonlyArray<Sentence>): Array<Sentence> => {
  const out: Array<Sentence> = []
  for (const s of sentences) {
    if (correction.test(s.text) && !directive.test(s.text)) {
      const prevAt = out.map((p) => p.speaker).lastIndexOf(s.speaker)
      const prev = prevAt >= 0 ? out[prevAt] : undefined
      if (prev !== undefined) {
        out[prevAt] = { ...prev, text: `${prev.text.replace(/[.。!！]$/, "")}, later ${s.text}` }
        continue
      }
    }
    out.push(s)
  }
  return out
}

/** Picks sentences by score within `budget` tokens (directives always), and prints them in order. */
export const summarise = (conversation: string, budget: number, count: (text: string) => number): string => {
  const sentences = foldCorrections(sentencesOf(conversation)).filter((s) => score(s) >= 0)
  const ranked = [...sentences].sort((a, b) => score(b) - score(a) || a.index - b.index)
  const chosen = new Set<number>()
  let used = 0
  for (const s of ranked) {
    const cost = count(render(s)) + 1
    if (score(s) >= 100 || used + cost <= budget) {
      chosen.add(s.index)
      used += cost
    }
  }
  return sentences
    .filter((s) => chosen.has(s.index))
    .map(render)
    .join(" ")
}
