/**
 * Joins an English sentence that only continues the one before it ("It's like therapy for me", "They
 * were so excited…": a pronoun for a subject, nothing named of its own) to the fact of that previous
 * sentence in the same utterance, so the fact keeps what "it" or "they" stands for ("Master signed up for
 * a pottery class; it's like therapy for Master"). A continuation that is a remark joins only when it
 * speaks of nobody in the first or second person and has some content; questions and fillers end a run.
 */
import { entityOf, importanceOf, type Analysed, type Voice } from "./Clause.js"
import { fillerPhrases } from "./EnglishTables.js"

const pronounLed =
  /^(it|it's|this|that|that's|they|they're|they've|these|those|she|she's|he|he's|his|her|their|there)\b/i
const personal = /\b(i|i'm|me|my|mine|we|us|our|you|your|u|ur)\b/i
const words = (text: string) => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length

/** The continuation text of `a`, or undefined when `a` does not continue the sentence before it. */
const continuation = (a: Analysed): string | undefined => {
  if (a.kind === "fact") return pronounLed.test(a.text) && !a.topics.includes("remember") ? a.text : undefined
  if (a.kind !== "remark" || !pronounLed.test(a.source) || personal.test(a.source)) return undefined
  const rest = a.source.toLowerCase().replace(fillerPhrases, " ")
  return words(rest) >= 5 ? a.source.replace(/[\s.!?,;:~…]+$/u, "") : undefined
}

export const joinContinuations = (analysed: ReadonlyArray<Analysed>, voice: Voice): Array<Analysed> => {
  const out: Array<Analysed> = []
  let previous: Analysed | undefined
  for (const a of analysed) {
    const text = previous === undefined ? undefined : continuation(a)
    if (previous !== undefined && text !== undefined) {
      const topics = [...previous.topics, ...a.topics.filter((t) => !previous?.topics.includes(t))]
      const event_when = previous.event_when ?? a.event_when
      const shared = previous.shared || a.shared
      const joined: Analysed = {
        ...previous,
        text: `${previous.text}; ${text.charAt(0).toLowerCase()}${text.slice(1)}`,
        source: `${previous.source} ${a.source}`,
        topics,
        shared,
        event_when,
        importance: importanceOf(topics, event_when),
        entity: entityOf(voice, shared)
      }
      out[out.length - 1] = joined
      previous = joined
      continue
    }
    out.push(a)
    previous = a.kind === "fact" && !a.topics.includes("remember") ? a : undefined
  }
  return out
}
