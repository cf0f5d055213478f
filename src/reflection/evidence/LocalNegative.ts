/**
 * The `local` provider's negative-target check (§4.6 negative keyword hook): the user asked to stop bringing
 * something up, so every observation sharing a keyword with what the user said is a target. The request
 * phrase itself ("don't mention", "别提", "言わないで"…) is cut out first; only the messages carrying such a
 * phrase are read, or all of them when none does (the hook's own phrase list is wider than this one). A CJK
 * keyword counts when it is a substring of the messages, a latin one when it is one of their words. A shared
 * everyday word is enough to be targeted, and a topic named only in other words is missed.
 */
import { stripNames } from "../../recall/Tokenize.js"
import type { NegativeTargets } from "../../llm/prompts/contracts.js"
import { keywords, type Observation } from "../../persona/local/LocalOverlap.js"

const stopPhrases =
  /\b(?:please\s+)?(?:don['’]?t|do not|never|stop|quit)\s+(?:ever\s+)?(?:mention(?:ing)?|talk(?:ing)? about|bring(?:ing)? up|rais(?:e|ing)|ask(?:ing)? about)\b|(?:不要再|不要|别再|別再|别|別|不许|不許|不准|不想)(?:提起?|说|說|聊|谈|談|讲|講)|(?:言わないで|話さないで|触れないで|話題にしないで|の話はやめて|聞かないで)/gi

const cjk = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/

export const localNegativeTargets = (input: {
  readonly messages: ReadonlyArray<string>
  readonly observations: ReadonlyArray<Observation>
  readonly names: ReadonlyArray<string>
}): typeof NegativeTargets.Type => {
  const asking = input.messages.filter((m) => m.search(stopPhrases) >= 0)
  const said = (asking.length > 0 ? asking : input.messages)
    .map((m) => stripNames(m, input.names).replace(stopPhrases, " ").toLowerCase())
    .join("\n")
  const words = keywords(said, [])
  const appears = (k: string) => (cjk.test(k) ? said.includes(k) : words.has(k))
  return {
    targets: input.observations
      .filter((o) => [...keywords(o.text, input.names)].some(appears))
      .map((o) => ({ target_type: o.type, target_id: o.id, reason: "local_keyword_overlap" }))
  }
}
