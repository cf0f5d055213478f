/**
 * The `local` provider's signal detection (§4.5): a new fact bears on an observation (reflection or persona
 * entry) of the same entity when their keyword sets overlap by |A∩B| / min(|A|,|B|) ≥ 0.5. It "negates" the
 * observation when exactly one of the two texts carries a negation cue (en "not", "never", "n't", "stopped"…,
 * zh 不/没/不再/别, ja ない/ません/やめた), else it "reinforces" it. One signal at most per (fact, target).
 * It only sees shared words: a paraphrase goes unnoticed, and a cue word used in another sense flips polarity.
 */
import type { Signals } from "../../llm/prompts/contracts.js"
import { isNegated, keywords, type Observation, overlap } from "../../persona/local/LocalOverlap.js"
import { withFields } from "../../domain/Shapes.js"

type Signal = (typeof Signals.Type)["signals"][number]

export const localSignals = (input: {
  readonly facts: ReadonlyArray<{ readonly id: string; readonly text: string; readonly entity: string }>
  readonly observations: ReadonlyArray<Observation>
  readonly names: ReadonlyArray<string>
}): typeof Signals.Type => {
  const observations = input.observations.map((o) => withFields(o, { keys: keywords(o.text, input.names) }))
  const seen = new Set<string>()
  const signals: Array<Signal> = []
  for (const fact of input.facts) {
    const keys = keywords(fact.text, input.names)
    for (const o of observations) {
      const pair = JSON.stringify([fact.id, o.type, o.id])
      if (o.entity !== fact.entity || seen.has(pair) || overlap(keys, o.keys) < 0.5) continue
      seen.add(pair)
      const negates = isNegated(fact.text, input.names) !== isNegated(o.text, input.names)
      signals.push({
        source_fact_id: fact.id,
        target_type: o.type,
        target_id: o.id,
        signal: negates ? "negates" : "reinforces",
        reason: negates ? "local_negation_mismatch" : "local_keyword_overlap"
      })
    }
  }
  return { signals }
}
