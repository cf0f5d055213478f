/**
 * Concept terms of a text for recall (tables in ConceptTables.ts): a text naming a concept, or a kind of it,
 * gets the concept's term (`§id`) and those of its broader concepts, once each, so a question and a memory
 * that name one thing with different words (恋人 / 彼氏, 多大 / 三十一岁, 狗 / 柯基, sibling / brother) share a
 * term. The same function expands index texts and queries. English words are matched by their Porter2 stem;
 * Japanese and Chinese entries as substrings of the text, after folding them the way recall folds texts (to
 * Simplified Chinese), which is why a matcher is built from a fold function.
 */
import { Effect } from "effect"
import { concepts, type Concept } from "./ConceptTables.js"
import { stemWord } from "./TurnAnalyzer.js"

export type ConceptMatcher = (text: string) => Array<string>

/** The first character of every concept term. */
export const CONCEPT_MARK = "§"

export const none: ConceptMatcher = () => []

/** Each concept's own id with its broader ones, transitively. */
const closure = (all: ReadonlyArray<Concept>): Map<string, ReadonlyArray<string>> => {
  const byId = new Map(all.map((c) => [c.id, c]))
  const out = new Map<string, ReadonlyArray<string>>()
  for (const c of all) {
    const seen = new Set<string>()
    const walk = (id: string) => {
      if (seen.has(id)) return
      seen.add(id)
      for (const b of byId.get(id)?.broader ?? []) walk(b)
    }
    walk(c.id)
    out.set(
      c.id,
      [...seen].map((id) => `${CONCEPT_MARK}${id}`)
    )
  }
  return out
}

const words = (s: string) => s.split(/\s+/).filter((w) => w !== "")

/** A matcher over the tables, its CJK entries passed through `fold` first (one call for all of them). */
export const make = <E, R>(
  fold: (texts: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>, E, R>,
  tables: ReadonlyArray<Concept> = concepts
): Effect.Effect<ConceptMatcher, E, R> =>
  Effect.gen(function* () {
    const terms = closure(tables)
    const cjk = tables.flatMap((c) => words(c.cjk).map((w) => ({ word: w, id: c.id })))
    const folded = yield* fold(cjk.map((e) => e.word))
    const byFirst = new Map<string, Array<{ readonly word: string; readonly terms: ReadonlyArray<string> }>>()
    cjk.forEach((e, i) => {
      for (const word of new Set([e.word, folded[i] ?? e.word])) {
        const first = [...word][0] ?? ""
        byFirst.set(first, [...(byFirst.get(first) ?? []), { word, terms: terms.get(e.id) ?? [] }])
      }
    })
    const lowest = Math.min(...[...byFirst.keys()].filter((k) => k !== "").map((k) => k.charCodeAt(0)))
    const byStem = new Map<string, Array<string>>()
    for (const c of tables)
      for (const w of words(c.en)) {
        const stem = stemWord(w.toLowerCase())
        byStem.set(stem, [...new Set([...(byStem.get(stem) ?? []), ...(terms.get(c.id) ?? [])])])
      }
    return (text: string) => {
      const found = new Set<string>()
      for (const w of text.toLowerCase().split(/[^\p{L}\p{N}]+/u))
        if (w !== "" && /^[a-z]+$/.test(w)) for (const t of byStem.get(stemWord(w)) ?? []) found.add(t)
      // Only code units that can begin a table word are looked up (most text is below the CJK blocks).
      for (let i = 0; i < text.length; i++) {
        if (text.charCodeAt(i) < lowest) continue
        const cp = text.codePointAt(i) ?? 0
        for (const e of byFirst.get(String.fromCodePoint(cp)) ?? [])
          if (text.startsWith(e.word, i)) e.terms.forEach((t) => found.add(t))
        if (cp > 0xffff) i++
      }
      return [...found]
    }
  })
