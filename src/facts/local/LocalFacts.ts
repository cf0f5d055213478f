/**
 * The `local` provider's fact extraction: every sentence of every utterance goes through the extraction
 * engine (extract/Engine.ts); the facts and directives it finds become extracted facts, third-person about
 * the speaker, with importance, entity and `event_when`. A statement by the character is an `ai_disclosure`
 * (about `neko`, or `relationship` when it is about the two of them); the master's are `user_observation`.
 * The same text said twice in one call is returned once.
 */
import type { EventWhenRaw } from "../Fact.js"
import { voiceOf, type Names } from "./extract/Clause.js"
import { analyseUtterance } from "./extract/Engine.js"
import type { EnglishNlp } from "../../domain/EnglishNlp.js"

export interface Extracted {
  readonly text: string
  readonly importance: number
  readonly entity: "master" | "neko" | "relationship"
  readonly event_when: EventWhenRaw
  readonly source: "user_observation" | "ai_disclosure"
}

export interface Utterance {
  readonly speaker: "human" | "ai"
  readonly text: string
}

export const extractFacts = (
  utterances: ReadonlyArray<Utterance>,
  names: Names,
  english: EnglishNlp
): Array<Extracted> => {
  const out: Array<Extracted> = []
  const seen = new Set<string>()
  for (const u of utterances) {
    const voice = voiceOf(u.speaker, names)
    for (const a of analyseUtterance(u.text, voice, english)) {
      if ((a.kind !== "fact" && a.kind !== "directive") || seen.has(a.text)) continue
      seen.add(a.text)
      out.push({
        text: a.text,
        importance: a.importance,
        entity: a.entity,
        event_when: a.event_when,
        source: u.speaker === "human" ? "user_observation" : "ai_disclosure"
      })
    }
  }
  return out
}
