/**
 * The `local` provider's memo: no model, deterministic. Each "speaker | text" line is read with the
 * extraction engine's sentence analysis, so a kept line is a third-person statement attributed to its
 * speaker ("Master adopted a cat named Mochi last week."); greetings, thanks, acknowledgements, laughter,
 * questions and reactions are dropped; a statement about someone else is kept, attributed, only when it
 * carries a number, a date or a name. Repeats are merged, a correction is folded into the line it corrects
 * as "X, later Y", "don't mention X" requests are always kept, an earlier memo is carried forward, and lines
 * are chosen by weight within the token budget, then printed one per line in conversation order.
 */
import { eventWhenOf } from "../../facts/local/EventCues.js"
import { voiceOf, type Names } from "../../facts/local/extract/Clause.js"
import { analyseUtterance } from "../../facts/local/extract/Engine.js"
import type { EnglishNlp } from "../../domain/EnglishNlp.js"

export interface MemoContext {
  readonly names: Names
  readonly english: EnglishNlp
}

interface Line {
  readonly speaker: string
  text: string
  readonly weight: number
  readonly order: number
}

const memoLead =
  /^(Memo from prior conversations|先前对话的备忘录|先前對話的備忘錄|これまでの会話のメモ|이전 대화 메모|Заметка о прошлых разговорах|Nota de conversaciones anteriores|Nota de conversas anteriores)\s*[:：]\s*/
const correction =
  /^(actually|no,|nope,|sorry,|i mean|i meant|correction|wait,|oops|scratch that|不对|不對|更正|说错了|說錯了|其实是|其實是|いや、|訂正|間違え|아니|정정|en realidad|perdón,|corrijo|na verdade|desculpa,|на самом деле|точнее|вернее)[\s,，、:：]*/i
const directiveLine =
  /does not want to talk about|不希望再提起|の話をしてほしくない|이야기를 원하지 않는다|no quiere hablar de|não quer falar sobre|не хочет говорить о/
const informative = /\d|(?<=\p{L}[^.!?]*\s)\p{Lu}\p{Ll}+|[月日周週]|요일/u
const calendar =
  /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|june|july|august|september|october|november|december)\b/i

const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
const dice = (a: Set<string>, b: Set<string>) => {
  if (a.size === 0 || b.size === 0) return 0
  let both = 0
  for (const w of a) if (b.has(w)) both++
  return (2 * both) / (a.size + b.size)
}
const cjkWords = (text: string) =>
  new Set([...text.replace(/[\s\p{P}]/gu, "")].map((c, i, all) => c + (all[i + 1] ?? "")))
const similarity = (a: string, b: string) =>
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(a + b)
    ? dice(cjkWords(a), cjkWords(b))
    : dice(words(a), words(b))

const ended = (text: string) => {
  const t = text.trim().replace(/[\s,，、]+$/u, "")
  if (/[.!?。！？…]$/u.test(t)) return t
  return /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u.test(t) ? `${t}。` : `${t}.`
}
const open = (text: string) => text.trim().replace(/[.!?。！？…]+$/u, "")

/** A remark worth keeping: a number, a date or a name other than the two speakers' ("Hi Tian, …" is not). */
const notable = (sentence: string, names: Names) => {
  const others = [names.master, names.character].reduce((t, n) => (n === "" ? t : t.split(n).join("")), sentence)
  return informative.test(others) || calendar.test(sentence) || (eventWhenOf(sentence)?.start?.offset ?? 0) !== 0
}

/** The memo lines of one conversation, before the budget. */
const memoLines = (conversation: string, context: MemoContext): Array<Line> => {
  const lines: Array<Line> = []
  const add = (speaker: string, text: string, weight: number) => {
    const same = lines.findIndex((l) => (l.speaker === speaker || l.speaker === "") && similarity(l.text, text) >= 0.8)
    const earlier = lines[same]
    if (earlier !== undefined) {
      if (open(text).length > open(earlier.text).length) earlier.text = ended(text)
      return
    }
    lines.push({ speaker, text: ended(text), weight, order: lines.length })
  }
  for (const raw of conversation.split("\n")) {
    const at = raw.indexOf(" | ")
    const speaker = at > 0 ? raw.slice(0, at).trim() : ""
    let text = (at > 0 ? raw.slice(at + 3) : raw).trim()
    if (text === "" || text === "---") continue
    const memo = memoLead.exec(text)
    if (memo) text = text.slice(memo[0].length)
    if (memo || speaker === "" || speaker === "SYSTEM_MESSAGE") {
      for (const piece of text.split(/\n+|(?<=[.!?。！？])\s+/u)) {
        if (piece.trim() !== "") add("", piece, directiveLine.test(piece) ? 100 : 5)
      }
      continue
    }
    const human = speaker !== context.names.character
    const voice = human ? { ...voiceOf("human", context.names), self: speaker } : voiceOf("ai", context.names)
    for (const a of analyseUtterance(text, voice, context.english)) {
      const corrected = correction.exec(a.source)
      const kept =
        a.kind === "fact" || a.kind === "directive"
          ? a.text
          : a.kind === "remark" && notable(a.source, context.names)
            ? `${speaker}: ${a.source.replace(correction, "")}`
            : undefined
      if (corrected && a.kind !== "directive") {
        const what = a.kind === "fact" ? a.text : a.source.slice(corrected[0].length)
        const prev = [...lines].reverse().find((l) => l.speaker === speaker)
        if (prev !== undefined && what.trim() !== "") {
          prev.text = ended(`${open(prev.text)}, later ${open(what)}`)
          continue
        }
      }
      if (kept === undefined) continue
      add(speaker, kept, a.kind === "directive" ? 100 : a.kind === "fact" ? a.importance + 1 : 2)
    }
  }
  return lines
}

/** The memo within `budget` tokens: directives always, then by weight (newer first), printed in order. */
export const summarise = (
  conversation: string,
  budget: number,
  count: (text: string) => number,
  context: MemoContext
): string => {
  const lines = memoLines(conversation, context)
  const ranked = [...lines].sort((a, b) => b.weight - a.weight || b.order - a.order)
  const chosen = new Set<number>()
  let used = 0
  for (const line of ranked) {
    const cost = count(line.text) + 1
    if (line.weight >= 100 || used + cost <= budget) {
      chosen.add(line.order)
      used += cost
    }
  }
  return lines
    .filter((l) => chosen.has(l.order))
    .map((l) => l.text)
    .join("\n")
}
