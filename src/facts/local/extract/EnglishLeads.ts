/**
 * English statements whose subject is left out or implied, read as being about the speaker: a dropped "I"
 * before a verb ("Went hiking…", "Still working on…", "Love this series", "Can't wait…"), before a state
 * ("Allergic to shellfish", "Pretty proud of it"), before a preference noun ("Favourite colour is…", "Big
 * fan of…"); the speaker's household named with "the" ("The kids' hamster…"); a named person or pet as
 * the subject, already in the third person ("Leo has a hamster…"); and corrections without a
 * subject ("Actually it's Tuesdays, not Mondays"). Each lead says how the subject is written and which
 * pronoun it stands for, so reactions ("Glad to hear it") are still told apart by the remark patterns.
 */
import type { Token } from "../../../domain/EnglishNlp.js"
import type { Voice } from "./Clause.js"

export interface Lead {
  /** The written subject (and verb) put before the rest. */
  readonly text: string
  /** How many leading tokens the subject text replaces. */
  readonly drop: number
  /** The pronoun the lead stands for ("i", "i'm"), for the remark patterns; "" when there is none. */
  readonly implied: string
}

export const third = (verb: string): string => {
  if (verb === "have") return "has"
  if (verb === "be") return "is"
  if (/(s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`
  return `${verb}s`
}

const dropped: Readonly<Record<string, string>> = {
  gonna: "is going to",
  wanna: "wants to",
  gotta: "has to",
  been: "has been"
}

const adverbs = new Set(
  "just still finally really also currently recently actually totally literally already always usually never sometimes often mostly honestly kinda basically lately now seriously definitely".split(
    " "
  )
)
const liking = new Set("love like hate enjoy prefer miss adore appreciate need want dig".split(" "))
const states = new Set(
  (
    "allergic glad happy proud excited scared afraid terrified nervous worried anxious sad thrilled grateful thankful " +
    "lucky ready keen eager interested obsessed addicted stuck busy new tired sick stoked pumped psyched hooked " +
    "determined curious intolerant"
  ).split(" ")
)
/** States that stand without a preposition ("Vegetarian since 2015"). */
const standing = new Set("vegetarian vegan pregnant married engaged divorced single retired".split(" "))
/** Skill adjectives, only with "at" ("Terrible at maths"). */
const skilled = new Set("good great bad terrible awful hopeless".split(" "))
const degree = new Set("so really very pretty super kinda quite totally a bit little kind of".split(" "))
const household = new Set(
  (
    "kids kid children baby babies twins boys girls dog dogs cat cats puppy puppies kitten kittens hamster hamsters " +
    "bunny rabbit parrot bird fish pets pet hubby missus wife husband"
  ).split(" ")
)
/** Third-person verbs that show an -ing lead is a subject ("Creating a family … is lovely"). */
const predicate =
  /^(is|was|'s|has|does|makes|keeps|helps|gives|seems|sounds|looks|feels|means|takes|brings|can|will|would|could|should|must)$/
const clauseEnd = /^[,;:—–-]$/

const isPast = (t: Token) =>
  t.pos === "VERB" && t.lower !== t.lemma && /^[a-z]+$/.test(t.lower) && !/(ing|s)$/.test(t.lower)

const calendar =
  /^(mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|january|february|march|april|may|june|july|august|september|october|november|december|christmas|god)$/

/** A named person or pet as the subject ("Biscuit is terrified of…", "Leo has a hamster…"), not a judgement ("Leo is so cute"). */
const namedSubject = (tokens: ReadonlyArray<Token>, voice: Voice): boolean => {
  const names = new Set([voice.self.toLowerCase(), voice.other.toLowerCase()])
  const isName = (t: Token | undefined) =>
    t !== undefined && t.pos === "PROPN" && /^\p{Lu}/u.test(t.value) && !names.has(t.lower) && !calendar.test(t.lower)
  let k = 0
  while (isName(tokens[k]) || (k > 0 && tokens[k]?.lower === "and" && isName(tokens[k + 1]))) k++
  if (k === 0 || k > 4) return false
  while (adverbs.has(tokens[k]?.lower ?? "")) k++
  const verb = tokens[k]
  if (verb === undefined || !/AUX|VERB/.test(verb.pos)) return false
  if (verb.lemma !== "be") return true
  let j = k + 1
  while (tokens[j]?.pos === "ADV" || degree.has(tokens[j]?.lower ?? "")) j++
  return tokens[j] !== undefined && !/ADJ|PUNCT/.test(tokens[j]?.pos ?? "")
}

/** The lead of a statement with no subject of its own, or undefined (then the sentence needs a subject word). */
export const subjectless = (tokens: ReadonlyArray<Token>, voice: Voice): Lead | undefined => {
  const words = tokens.filter((t) => /[\p{L}\p{N}]/u.test(t.value))
  const first = tokens[0]
  if (first === undefined || words.length < 3) return undefined
  if (words.length >= 4 && namedSubject(tokens, voice)) return { text: "", drop: 0, implied: "" }
  if (tokens.some((t) => /^(i|i'm|we|he|she|they)$/.test(t.lower))) return undefined
  const self = voice.self
  const fixed = dropped[first.lower]
  if (fixed !== undefined) return { text: `${self} ${fixed}`, drop: 1, implied: "i" }
  if (first.lower === "the" && household.has(tokens[1]?.lower ?? "")) return { text: `${self}'s`, drop: 1, implied: "" }
  const addressed = tokens.some((t) => /^(you|u|your|ur)$/.test(t.lower))
  if (/^(favou?rite|fave)$/.test(first.lower)) return { text: `${self}'s`, drop: 0, implied: "my" }
  const fan = tokens.findIndex((t) => t.lower === "fan")
  if (fan >= 0 && fan <= 2 && tokens[fan + 1]?.lower === "of") {
    const article = first.lower === "not" || first.lower === "a" ? "" : " a"
    return { text: `${self} is${article}`, drop: 0, implied: "i'm" }
  }
  let k = 0
  while (k < tokens.length && adverbs.has(tokens[k]?.lower ?? "")) k++
  const verb = tokens[k]
  const next = tokens[k + 1]
  if (verb === undefined) return undefined
  const before = tokens
    .slice(0, k)
    .map((t) => t.lower)
    .join(" ")
  const spaced = before === "" ? "" : ` ${before}`
  if (isPast(verb)) return { text: self, drop: 0, implied: "i" }
  if (verb.pos === "VERB" && /ing$/.test(verb.lower) && verb.lower !== verb.lemma && !addressed) {
    const end = tokens.findIndex((t, i) => i > k && clauseEnd.test(t.value))
    const clause = tokens.slice(k + 1, end < 0 ? tokens.length : end)
    if (clause.some((t) => predicate.test(t.lower))) return undefined
    return { text: `${self} is`, drop: 0, implied: "i'm" }
  }
  if (liking.has(verb.lower) && next !== undefined && !/PUNCT|AUX/.test(next.pos) && !addressed) {
    return { text: `${self}${spaced} ${third(verb.lower)}`, drop: k + 1, implied: "i" }
  }
  if (/^(ca|can|wo|did|was|have|has|could)$/.test(verb.lower) && /^(n't|not|never)$/.test(next?.lower ?? "")) {
    if (verb.lower === "have") return { text: `${self}${spaced} has`, drop: k + 1, implied: "i" }
    return { text: self, drop: 0, implied: "i" }
  }
  let s = k
  while (s < tokens.length && degree.has(tokens[s]?.lower ?? "")) s++
  const state = tokens[s]?.lower ?? ""
  const after = tokens[s + 1]
  const linked = after !== undefined && /^(to|of|about|with|for|at|in|on|from)$/.test(after.lower)
  if (addressed) return undefined
  if ((states.has(state) && linked) || standing.has(state) || (skilled.has(state) && after?.lower === "at")) {
    return { text: `${self} is`, drop: 0, implied: "i'm" }
  }
  return undefined
}

const correctionLead = /^(actually|sorry|correction|oops|no wait|wait|i meant|i mean|no,)\b/
const contrast = /(, not \S|\bnot \S+(?: \S+)?,? but \S|\binstead of \S|\brather than \S)/

/** A correction that names the new value: "Actually it's Tuesdays, not Mondays". */
export const isCorrection = (original: string, plain: string): boolean =>
  correctionLead.test(original) && (contrast.test(plain) || /^(correction|i meant|no wait)\b/.test(original))
