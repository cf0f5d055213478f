/**
 * The word-by-word rewrite shared by the inflected languages (Spanish, Portuguese, Russian): the
 * first-person subject becomes the speaker's name and the first verb after it (or at the start, when the
 * subject is dropped) moves from the first to the third person through the language's verb table and
 * regular endings; possessives become "<noun> of <name>" in the language's own shape; object pronouns,
 * the listener and "we" are replaced from the language's table. No first-person word is left.
 */
import type { Voice } from "./Clause.js"
import type { Group } from "./Tabled.js"

export interface InflectedSpec {
  readonly subjects: ReadonlySet<string>
  /** Words kept between the subject and its verb (negation, adverbs). */
  readonly skips: ReadonlySet<string>
  readonly verbs: ReadonlyMap<string, string>
  /** Regular first → third person endings, tried after `verbs`; only right after an explicit subject. */
  readonly regular: (word: string) => string | undefined
  /** Replacements of whole words (object pronouns, the listener, "we"). */
  readonly words: (word: string, voice: Voice, group: Group) => string | undefined
  /** A possessive with the words after it: the replacement and how many following words it took. */
  readonly possessive: (
    word: string,
    following: ReadonlyArray<string>,
    voice: Voice,
    group: Group
  ) => { readonly text: string; readonly took: number } | undefined
  /** A reflexive/dative "me" before the verb: the replacement, and whether it needs "a <name>" in front. */
  readonly me?: (next: string) => { readonly text: string; readonly dative: boolean }
  readonly dativeLead?: (self: string) => string
  /** Object pronouns of the speaker that `words` replaces without the name ("me" → "le"). */
  readonly selfObjects?: ReadonlySet<string>
}

const isWord = (piece: string) => /[\p{L}\p{N}]/u.test(piece)
const keepCase = (from: string, to: string) =>
  from.charAt(0) === from.charAt(0).toUpperCase() && from.charAt(0) !== from.charAt(0).toLowerCase()
    ? to.charAt(0).toUpperCase() + to.slice(1)
    : to

/** The sentence rewritten about the speaker, or undefined when no word of it refers to the speaker. */
export const rewriteInflected = (
  sentence: string,
  voice: Voice,
  group: Group,
  spec: InflectedSpec
): string | undefined => {
  const pieces = sentence.split(/(\s+|[,.;:!?¡¿"“”«»()…]+)/u).filter((p) => p !== "")
  const out: Array<string> = []
  let pending = true
  let explicit = false
  let implicit = false
  let dative = false
  let self = false
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i] ?? ""
    if (!isWord(piece)) {
      out.push(piece)
      if (/[,;:]/.test(piece)) pending = false
      continue
    }
    const lower = piece.toLowerCase()
    const nextWords = pieces.slice(i + 1).filter(isWord)
    if (spec.subjects.has(lower)) {
      out.push(voice.self)
      pending = true
      explicit = true
      self = true
      continue
    }
    if (pending && spec.skips.has(lower)) {
      out.push(piece)
      continue
    }
    if (pending && lower === "me" && spec.me) {
      const m = spec.me(nextWords[0]?.toLowerCase() ?? "")
      out.push(keepCase(piece, m.text))
      dative = dative || (m.dative && !explicit)
      self = true
      continue
    }
    if (pending) {
      const verb = spec.verbs.get(lower) ?? (explicit ? spec.regular(lower) : undefined)
      pending = false
      if (verb !== undefined) {
        out.push(keepCase(piece, verb))
        if (!explicit && !dative) implicit = true
        self = true
        continue
      }
    }
    const owned = spec.possessive(lower, nextWords, voice, group)
    if (owned !== undefined) {
      out.push(keepCase(piece, owned.text))
      let took = owned.took
      while (took > 0 && i + 1 < pieces.length) {
        i++
        if (isWord(pieces[i] ?? "")) took--
      }
      self = true
      continue
    }
    const replaced = spec.words(lower, voice, group)
    if (replaced !== undefined) {
      if (replaced.includes(voice.self) || spec.selfObjects?.has(lower)) self = true
      out.push(keepCase(piece, replaced))
      continue
    }
    out.push(piece)
  }
  if (!self) return undefined
  let text = out.join("").trim()
  if (implicit) text = `${voice.self} ${text.charAt(0).toLowerCase()}${text.slice(1)}`
  else if (dative && spec.dativeLead)
    text = `${spec.dativeLead(voice.self)} ${text.charAt(0).toLowerCase()}${text.slice(1)}`
  return text.charAt(0).toUpperCase() + text.slice(1)
}

export const pairs = (list: string): ReadonlyMap<string, string> =>
  new Map(
    list
      .trim()
      .split(/\s+/)
      .map((pair) => {
        const [from, to] = pair.split(":")
        return [from ?? "", to ?? ""] as const
      })
  )
