/**
 * The table-driven sentence analysis shared by the languages other than English: each language gives a
 * table (fillers, interjections, questions, reactions and passing remarks, directives, relationship cues,
 * topics) and a rewrite that puts the sentence in the third person about the speaker, or declines when the
 * sentence is about nobody in particular. Sentences come from `Intl.Segmenter` in the language's locale.
 */
import { notFact, topicsIn, type Analysis, type Topic, type Voice } from "./Clause.js"

/** How "we" is said in the third person, by whether the fact is shared with the listener. */
export interface Group {
  readonly shared: boolean
  readonly family: boolean
}

export interface LanguageTable {
  readonly sentences: Intl.Segmenter
  /** Leading interjections and hedges, cut repeatedly. */
  readonly lead: RegExp
  /** Trailing laughter, emoticons and sentence particles, cut repeatedly. */
  readonly trail: RegExp
  /** A whole sentence that is only greeting, thanks, acknowledgement or laughter. */
  readonly filler: RegExp
  readonly question: RegExp
  /** Where a "statement, question?" sentence splits; the statement part is kept. */
  readonly questionSplit: RegExp
  readonly remarks: ReadonlyArray<RegExp>
  /** Group 1: what the speaker does not want brought up. */
  readonly directive: RegExp
  /** Group 1: what to remember. */
  readonly remember: RegExp
  readonly shared: RegExp
  readonly family: RegExp
  readonly topics: ReadonlyArray<readonly [Topic, RegExp]>
  /** The sentence in the third person, or undefined when it says nothing about the speaker's life. */
  readonly rewrite: (sentence: string, voice: Voice, group: Group) => string | undefined
  /** Only the pronouns of a phrase in the third person (the object of a directive or a reminder). */
  readonly pronouns: (phrase: string, voice: Voice, group: Group) => string
  readonly directiveText: (self: string, what: string) => string
  readonly rememberText: (self: string, other: string, what: string) => string
  /** Maps the text, character for character, onto the form the patterns are written in (Traditional → Simplified). */
  readonly fold?: (text: string) => string
}

const quoted = /(「[^」]*」|『[^』]*』|“[^”]*”|‘[^’]*’|"[^"]*"|﹁[^﹂]*﹂)/u

/** The text with its quoted speech left out. */
export const withoutQuotes = (text: string): string =>
  text
    .split(quoted)
    .filter((_, i) => i % 2 === 0)
    .join("")

/** `f` applied to the parts of `text` outside quotation marks: quoted speech is kept as it was said. */
export const outsideQuotes = (text: string, f: (part: string) => string): string =>
  text
    .split(quoted)
    .map((part, i) => (i % 2 === 1 ? part : f(part)))
    .join("")

/** The text of the first defined capture group, taken from `original` at the same place. */
const captured = (m: RegExpExecArray | null, folded: string, original: string): string | undefined => {
  if (m === null) return undefined
  const group = m.slice(1).find((g) => g !== undefined && g.trim() !== "")
  if (group === undefined) return undefined
  const at = folded.indexOf(group, m.index)
  return at < 0 ? group : original.slice(at, at + group.length)
}

const cut = (text: string, re: RegExp) => {
  let out = text.trim()
  for (let guard = 0; guard < 6; guard++) {
    const next = out.replace(re, "").trim()
    if (next === out) break
    out = next
  }
  return out
}

const withoutNames = (text: string, voice: Voice) =>
  text
    .split(voice.self)
    .join("")
    .split(voice.other)
    .join("")
    .replace(/[\s,，、。.!！?？~～…]+/gu, "")

/** The sentences of `text` in the table's locale, line breaks included. */
export const sentencesIn = (text: string, table: LanguageTable): Array<string> =>
  text
    .split(/\n+/)
    .flatMap((line) => [...table.sentences.segment(line)].map((s) => s.segment.trim()))
    .filter((s) => s !== "")

export const analyseTabled = (sentence: string, voice: Voice, table: LanguageTable): Analysis => {
  const fold = table.fold ?? ((text: string) => text)
  const original = sentence.trim()
  const base = cut(original, table.trail)
  if (withoutNames(base, voice) === "" || table.filler.test(fold(withoutNames(base, voice)))) {
    return notFact("filler", original)
  }
  const vocative = new RegExp(`^${voice.other.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[\\s,，、!！~～]+`, "u")
  let stated = cut(cut(base, table.lead).replace(vocative, ""), table.trail)
  if (stated === "" || table.filler.test(fold(withoutNames(stated, voice)))) return notFact("filler", original)
  if (table.question.test(fold(stated)) || /[?？]/.test(original)) {
    const parts = stated.split(table.questionSplit)
    const head = parts.length > 1 ? cut(parts.slice(0, -1).join("、"), table.trail) : ""
    if (head === "" || table.question.test(fold(head))) return notFact("question", original)
    stated = head
  }
  const folded = fold(stated)
  const group: Group = { shared: table.shared.test(folded), family: table.family.test(folded) }
  const directive = captured(table.directive.exec(folded), folded, stated)
  if (directive !== undefined) {
    const what = table.pronouns(directive, voice, group)
    return { kind: "directive", text: table.directiveText(voice.self, what), topics: ["directive"], shared: false }
  }
  const remember = captured(table.remember.exec(folded), folded, stated)
  if (remember !== undefined) {
    const what = table.pronouns(remember, voice, group)
    return {
      kind: "fact",
      text: table.rememberText(voice.self, voice.other, what),
      topics: ["remember"],
      shared: false
    }
  }
  if (table.remarks.some((re) => re.test(folded))) return notFact("remark", original)
  const text = table.rewrite(stated, voice, group)
  if (text === undefined) return notFact("remark", original)
  const found = topicsIn(fold(text).toLowerCase(), table.topics)
  const topics = group.shared && !found.includes("relationship") ? [...found, "relationship" as const] : found
  return { kind: "fact", text, topics, shared: group.shared }
}
