/**
 * The `local` extraction engine: each utterance is cut into sentences in its language (wink-nlp for
 * English, `Intl.Segmenter` for the others), each sentence analysed by its language's rules with the
 * speaker as "I" and the listener as "you" (an English sentence that only continues the one before joins
 * its fact), and every fact given its importance (from its topics), its
 * entity and its `event_when`. The memo reuses the same analysis.
 */
import { textLanguage, type TextLanguage } from "../../../domain/TextLanguage.js"
import { eventWhenOf } from "../EventCues.js"
import { entityOf, importanceOf, type Analysed, type Analysis, type Voice } from "./Clause.js"
import { analyseEnglish } from "./English.js"
import { joinContinuations } from "./EnglishJoin.js"
import type { EnglishNlp } from "../../../domain/EnglishNlp.js"
import { chinese } from "./Chinese.js"
import { japanese } from "./Japanese.js"
import { korean } from "./Korean.js"
import { portuguese } from "./Portuguese.js"
import { russian } from "./Russian.js"
import { spanish } from "./Spanish.js"
import { analyseTabled, sentencesIn, type LanguageTable } from "./Tabled.js"

const tables: Partial<Record<TextLanguage, LanguageTable>> = {
  ja: japanese,
  zh: chinese,
  ko: korean,
  es: spanish,
  pt: portuguese,
  ru: russian
}

const finish = (source: string, analysis: Analysis, voice: Voice): Analysed => {
  const event_when = eventWhenOf(source)
  return {
    ...analysis,
    source,
    importance: importanceOf(analysis.topics, event_when),
    entity: entityOf(voice, analysis.shared),
    event_when
  }
}

const english = (text: string, voice: Voice, nlp: EnglishNlp): Array<Analysed> =>
  joinContinuations(
    nlp.sentences(text).map((tokens) => {
      const source = tokens
        .map((t, i) => (i === 0 ? "" : t.space) + t.value)
        .join("")
        .trim()
      return finish(source, analyseEnglish(tokens, voice, text.toLowerCase()), voice)
    }),
    voice
  )

/** Every sentence of one utterance, analysed. */
export const analyseUtterance = (text: string, voice: Voice, nlp: EnglishNlp): Array<Analysed> => {
  const table = tables[textLanguage(text)]
  if (table === undefined) return english(text, voice, nlp)
  return sentencesIn(text, table).flatMap((sentence) => {
    const own = tables[textLanguage(sentence)]
    if (own === undefined) return english(sentence, voice, nlp)
    return [finish(sentence, analyseTabled(sentence, voice, own), voice)]
  })
}
