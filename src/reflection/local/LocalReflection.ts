/**
 * The `local` provider's reflections. `relatedFacts` narrows the eligible pool to its best cluster of
 * related facts — five or more about one entity and one family of life themes, or sharing one content word
 * (reflect/Cluster.ts) — so one reflection is drawn from facts that belong together and the others stay
 * unabsorbed. `synthesise` writes the insight over the best cluster of the facts it is given, in their
 * language (reflect/Compose.ts). Deterministic; no inference beyond the grouping and the cue tables.
 */
import type { Language } from "../../domain/Locale.js"
import type { Drafted } from "../Synthesis.js"
import { mainCluster, type Clusterable } from "./compose/Cluster.js"
import { compose } from "./compose/Compose.js"

export { relatedFacts } from "./compose/Cluster.js"

export const synthesise = (
  facts: ReadonlyArray<Clusterable>,
  names: { readonly master: string; readonly character: string },
  language: Language
): Drafted => compose(facts, mainCluster(facts, names, language), names, language)
