/**
 * English sentence analysis over wink-nlp tokens: fillers, hedges, questions, reactions and passing remarks
 * are told apart from statements about the speaker; a statement is rewritten in the third person token by
 * token ("I" and "me" → the speaker's name, "my" → "<name>'s", "you" → the listener, "we" → the two of them
 * or the speaker's people), with verb agreement after the new subject (I work → works, I don't → doesn't,
 * I've → has, I'm → is, I'll → will), so no first-person pronoun is left in a fact.
 */
import { notFact, topicsIn, type Analysis, type Voice } from "./Clause.js"
import type { Token } from "../../../domain/EnglishNlp.js"
import * as T from "./EnglishTables.js"
import { isCorrection, subjectless, third } from "./EnglishLeads.js"

const wordLike = (t: Token) => /[\p{L}\p{N}]/u.test(t.value)
const laughter = /^(lol|lmao|rofl|haha\w*|hehe\w*|xd|:\)|:d|;\)|:p)$/i
const plainOf = (tokens: ReadonlyArray<Token>) =>
  tokens
    .map((t, i) => (i === 0 ? "" : t.space === "" ? "" : " ") + t.lower)
    .join("")
    .trim()

const trimEnds = (tokens: ReadonlyArray<Token>): ReadonlyArray<Token> => {
  let end = tokens.length
  while (end > 0) {
    const t = tokens[end - 1]
    if (t === undefined || (wordLike(t) && !laughter.test(t.value))) break
    end--
  }
  return tokens.slice(0, end)
}

const startsWith = (tokens: ReadonlyArray<Token>, phrase: ReadonlyArray<string>) =>
  phrase.every((w, i) => tokens[i]?.lower === w)

/** Drops interjections, hedges and a vocative at the start ("Oh, Tian, I think …" → "…"). */
const dropLead = (tokens: ReadonlyArray<Token>, voice: Voice): ReadonlyArray<Token> => {
  let rest = tokens
  const names = new Set([voice.self.toLowerCase(), voice.other.toLowerCase()])
  for (let guard = 0; guard < 8 && rest.length > 0; guard++) {
    const first = rest[0]
    if (first === undefined) break
    const phrase = T.leadPhrases.find((p) => startsWith(rest, p) && rest.length > p.length + 1)
    if (phrase) rest = rest.slice(phrase.length)
    else if (T.leadWords.has(first.lower) || first.pos === "INTJ" || !wordLike(first)) rest = rest.slice(1)
    else if (T.fillerWords.has(first.lower) && /^[,.!~]+$/.test(rest[1]?.value ?? "")) rest = rest.slice(1)
    else if (names.has(first.lower) && rest[1]?.value === ",") rest = rest.slice(2)
    else break
    while (rest[0] !== undefined && /^[,.!:;~-]+$/.test(rest[0].value)) rest = rest.slice(1)
  }
  const last = rest.length - 1
  if (rest[last - 1]?.value === "," && names.has(rest[last]?.lower ?? "")) rest = rest.slice(0, last - 1)
  return rest
}

const isFiller = (tokens: ReadonlyArray<Token>, voice: Voice) => {
  const words = tokens.filter(wordLike)
  if (words.length === 0) return true
  const rest = plainOf(words)
    .replace(T.fillerPhrases, " ")
    .split(/\s+/)
    .filter((w) => w !== "" && !T.fillerWords.has(w) && !laughter.test(w))
    .filter((w) => w !== voice.self.toLowerCase() && w !== voice.other.toLowerCase())
  return rest.length === 0
}

/** A question; its statement part before the last comma when that part speaks of the speaker (or has no subject). */
const splitQuestion = (
  tokens: ReadonlyArray<Token>,
  asked: boolean,
  voice: Voice
): ReadonlyArray<Token> | undefined => {
  const first = tokens[0]?.lower ?? ""
  const second = tokens[1]?.lower ?? ""
  const inverted =
    T.questionStarts.has(first) &&
    !T.whWords.has(first) &&
    /^(you|u|i|we|they|he|she|it|there|that|this|anyone|ya)$/.test(second)
  if (!asked && !inverted) return tokens
  let cut = -1
  tokens.forEach((t, i) => {
    if (/^[,;—–-]$/.test(t.value) && i < tokens.length - 1) cut = i
  })
  if (cut <= 0) return undefined
  const head = tokens.slice(0, cut)
  const self =
    head.some((t) => T.selfWords.has(t.lower) || T.groupWords.has(t.lower)) || subjectless(head, voice) !== undefined
  return self && !T.questionStarts.has(head[0]?.lower ?? "") ? head : undefined
}

interface Context {
  readonly voice: Voice
  readonly shared: boolean
  readonly family: boolean
  readonly past: boolean
}

/** "We" as the speaker's household ("family" cue) or as the speaker and people not named: never invented friends. */
const groupPhrase = (ctx: Context, possessive: boolean, afterCoordination: boolean, object: boolean) => {
  const { self, other } = ctx.voice
  if (afterCoordination) return possessive ? "their" : object ? "them" : "they"
  if (ctx.shared) return possessive ? `${self} and ${other}'s` : `${self} and ${other}`
  if (possessive) return `${self}'s`
  return ctx.family ? `${self}'s family` : `${self} and others`
}

/** A verb between the start of the clause and `end`: "…my life and I've made" is two clauses, "Ines and I" one subject. */
const afterVerb = (tokens: ReadonlyArray<Token>, end: number) => {
  for (let j = end - 1; j >= 0; j--) {
    const t = tokens[j]
    if (t === undefined || /PUNCT|SCONJ/.test(t.pos)) return false
    if (/VERB|AUX/.test(t.pos)) return true
  }
  return false
}

/** Rewrites the tokens in the third person; the result has no first-person pronoun. */
export const rewrite = (tokens: ReadonlyArray<Token>, ctx: Context, capitalise = true): string => {
  const out: Array<string> = []
  const { self, other } = ctx.voice
  let pending = false
  let chain = false
  let conjugated = -1
  let coordinated = false
  const put = (t: Token, text: string, space = t.space === "" ? "" : " ") => out.push(space + text)
  tokens.forEach((t, i) => {
    const l = t.lower
    const prev = tokens[i - 1]
    const next = tokens[i + 1]
    const before = tokens[i - 2]
    if (l === "i" || l === "i'm" || (l === "im" && t.value === "Im")) {
      const plural =
        prev?.lower === "and" && before !== undefined && /NOUN|PROPN|PRON/.test(before.pos) && !afterVerb(tokens, i - 1)
      if (plural) coordinated = true
      put(t, self, out.length === 0 ? "" : " ")
      if (l !== "i") put(t, "is", " ")
      pending = l === "i" && !plural
      chain = false
      return
    }
    if (l === "me") {
      if (next?.lower === "and") coordinated = true
      return put(t, self)
    }
    if (l === "my" || l === "mine") return put(t, `${self}'s`)
    if (l === "myself") {
      if (prev?.lower === "by") out[out.length - 1] = " alone"
      else put(t, "themself")
      return
    }
    if (l === "you" || l === "u") {
      const subject =
        (next !== undefined && /AUX|VERB/.test(next.pos)) ||
        (next !== undefined && T.agreementSkips.has(next.lower) && /AUX|VERB/.test(tokens[i + 2]?.pos ?? ""))
      const head =
        prev === undefined || /CCONJ|SCONJ|PUNCT/.test(prev.pos) || /^(that|because|if|when)$/.test(prev.lower)
      put(t, other)
      pending = subject && head
      chain = false
      return
    }
    if (l === "your" || l === "yours" || l === "ur") return put(t, `${other}'s`)
    if (l === "yourself") return put(t, "themself")
    if (T.groupWords.has(l)) {
      const possessive = l === "our" || l === "ours"
      const phrase = l === "ourselves" ? "themselves" : groupPhrase(ctx, possessive, coordinated, l === "us")
      if (l === "we") coordinated = true
      return put(t, phrase)
    }
    const expanded = prev?.lower === "we" ? T.groupContractions[l] : undefined
    if (expanded !== undefined) return put(t, expanded, " ")
    if (pending) {
      if (T.agreementSkips.has(l) || (t.pos === "ADV" && !/^(so|then|there|here|now)$/.test(l))) return put(t, t.value)
      pending = false
      if (l === "am" || l === "'m" || l === "are" || l === "'re") return put(t, "is", " ")
      if (l === "were") return put(t, "was")
      if (l === "have" || l === "'ve") return put(t, "has", " ")
      if (l === "do") return put(t, "does")
      if (l === "'d") return put(t, next?.lower === "been" || /(ed|en)$/.test(next?.lower ?? "") ? "had" : "would", " ")
      if (l === "'ll") return put(t, "will", " ")
      if (T.modals.has(l) || l === "was") return put(t, t.value)
      const verbLike = /VERB|AUX/.test(t.pos) || (t.pos === "X" && /^[a-z]+$/.test(l) && !/(ing|ed)$/.test(l))
      if (verbLike && l === t.lemma && !(ctx.past && T.sameInPast.has(l))) {
        chain = true
        conjugated = i
        return put(t, third(l))
      }
      return put(t, t.value)
    }
    if (chain) {
      if (l === "to" || T.modals.has(l) || /SCONJ/.test(t.pos) || T.otherWords.has(l)) chain = false
      else if (
        /^(and|or|but|,)$/.test(prev?.lower ?? "") &&
        ((/VERB/.test(t.pos) && l === t.lemma && /VERB|NOUN|PROPN|ADV|ADJ|PRON|NUM/.test(before?.pos ?? "")) ||
          (i - 2 === conjugated && /^[a-z]+$/.test(l) && !/NOUN|PROPN|PRON|DET|NUM/.test(t.pos)))
      ) {
        conjugated = i
        return put(t, third(l))
      }
    }
    put(t, t.value)
  })
  const text = out
    .join("")
    .trim()
    .replace(/[\s.!?,;:~…]+$/u, "")
  return capitalise ? text.charAt(0).toUpperCase() + text.slice(1) : text
}

const pastCue = /\b(yesterday|ago|last|earlier|once|when (i|we) was|back then|used to)\b/
const familyCue = /\b(kids?|children|wife|husband|family|fam|mom|mum|dad|parents|sons?|daughters?|baby|partner)\b/

/**
 * Analyses one English sentence spoken by `voice`; `utterance` (the whole turn, lower-cased) tells whether
 * "we" in it is the speaker's family ("Here's my family at the beach. We love it").
 */
export const analyseEnglish = (sentence: ReadonlyArray<Token>, voice: Voice, utterance = ""): Analysis => {
  const original = plainOf(sentence)
  if (isFiller(sentence, voice)) return notFact("filler", original)
  const asked = sentence.some((t) => t.value.includes("?"))
  const stated = splitQuestion(trimEnds(dropLead(trimEnds(sentence), voice)), asked, voice)
  if (stated === undefined) return notFact("question", original)
  if (stated.length === 0 || isFiller(stated, voice)) return notFact("filler", original)
  const plain = plainOf(stated)
  const other = voice.other.toLowerCase()
  const shared =
    T.sharedCue.test(plain) ||
    (T.otherWords.has(stated[0]?.lower ?? "") && stated.some((t) => T.selfWords.has(t.lower))) ||
    /\blet's\b/.test(plain) ||
    (stated.some((t) => T.groupWords.has(t.lower)) &&
      stated.some((t) => T.otherWords.has(t.lower) || t.lower === other))
  const family = familyCue.test(plain) || (!T.sharedCue.test(plain) && familyCue.test(utterance))
  const ctx: Context = { voice, shared: shared || (!voice.human && !family), family, past: pastCue.test(plain) }
  const called = T.callMe.exec(plain)
  if (called?.[1] !== undefined) {
    const name = stated
      .slice(-called[1].split(" ").length)
      .map((t) => t.value)
      .join(" ")
    return { kind: "fact", text: `${voice.self} wants to be called ${name}`, topics: ["identity"], shared: false }
  }
  const at = (index: number) => {
    let offset = 0
    return stated.findIndex((t, i) => {
      offset += (i === 0 ? 0 : t.space === "" ? 0 : 1) + t.lower.length
      return offset > index
    })
  }
  const directive = T.directive.exec(plain)
  if (directive?.[1] !== undefined) {
    const from = plain.lastIndexOf(directive[1])
    const what = rewrite(stated.slice(at(from), at(from + directive[1].length - 1) + 1), ctx, false)
    return {
      kind: "directive",
      text: `${voice.self} does not want to talk about ${what}`,
      topics: ["directive"],
      shared
    }
  }
  const remember = T.remember.exec(plain)
  if (remember?.[1] !== undefined) {
    const what = rewrite(stated.slice(at(plain.lastIndexOf(remember[1]))), ctx)
    return {
      kind: "fact",
      text: `${voice.self} asked ${voice.other} to remember: ${what}`,
      topics: ["remember"],
      shared: false
    }
  }
  if (T.remarks.some((re) => re.test(plain))) return notFact("remark", original)
  const speaks = stated.some((t) => T.selfWords.has(t.lower) || T.groupWords.has(t.lower))
  if (!speaks && isCorrection(plainOf(trimEnds(sentence)), plain) && stated.filter(wordLike).length >= 3) {
    const what = rewrite(stated, ctx, false)
    return { kind: "fact", text: `${voice.self} corrected: ${what}`, topics: topicsIn(what, T.topics), shared: false }
  }
  const lead = subjectless(stated, voice)
  if (lead === undefined && !speaks) return notFact("remark", original)
  if (lead !== undefined && lead.implied !== "") {
    const implied = `${lead.implied} ${plain}`
    if (T.remarks.some((re) => re.test(implied)) || isFiller(stated, voice)) return notFact("remark", original)
  }
  if (stated.filter(wordLike).length < 3) return notFact("remark", original)
  const body = rewrite(lead === undefined ? stated : stated.slice(lead.drop), ctx, false)
  const text =
    lead === undefined || lead.text === ""
      ? body.charAt(0).toUpperCase() + body.slice(1)
      : `${lead.text}${/^(n't|')/.test(body) ? "" : " "}${body.charAt(0).toLowerCase()}${body.slice(1)}`
  const found = topicsIn(text.toLowerCase(), T.topics)
  const together = ctx.shared && stated.some((t) => T.groupWords.has(t.lower))
  const both = shared || together
  return {
    kind: "fact",
    text,
    topics: both && !found.includes("relationship") ? [...found, "relationship"] : found,
    shared: both
  }
}
