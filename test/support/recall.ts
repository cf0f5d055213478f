/** Pure recall fixtures: tunables, fact and reflection records, a corpus over given pools, a query helper. */
import { Schema } from "effect"
import { tunablesFrom } from "../../src/Config.js"
import { Fact } from "../../src/facts/Fact.js"
import { hybridRecall } from "../../src/recall/Hybrid.js"
import * as Corpus from "../../src/recall/RecallCorpus.js"
import { factEntry, reflectionEntry } from "../../src/recall/RecallEntry.js"
import { Reflection } from "../../src/reflection/Reflection.js"

export const t = tunablesFrom({})
export const fact = (id: string, text: string, extra: Readonly<Record<string, unknown>> = {}) =>
  Schema.decodeUnknownSync(Fact)({ id, text, hash: id, created_at: "2026-05-01T10:00:00.000000", ...extra })
export const reflection = (id: string, text: string, extra: Readonly<Record<string, unknown>> = {}) =>
  Schema.decodeUnknownSync(Reflection)({ id, text, created_at: "2026-05-01T10:00:00.000000", ...extra })

/** A corpus over the given pools; texts are taken as already folded. */
export const corpusOf = (
  pools: {
    readonly facts?: ReadonlyArray<Fact>
    readonly reflections?: ReadonlyArray<Reflection>
    readonly archive?: ReadonlyArray<Fact>
  },
  corpus = Corpus.make(["Master", "Tian"])
) => {
  const sync = <R extends Corpus.Row>(
    tier: "fact" | "reflection" | "fact_archive",
    rows: ReadonlyArray<R>,
    project: (r: R) => ReturnType<typeof factEntry>
  ) => {
    const changes = corpus.diff(tier, rows)
    corpus.apply(
      tier,
      changes,
      changes.changed.map((r) => r.text),
      project
    )
  }
  sync("fact", pools.facts ?? [], (f) => factEntry(f, "fact"))
  sync("reflection", pools.reflections ?? [], reflectionEntry)
  sync("fact_archive", pools.archive ?? [], (f) => factEntry(f, "fact_archive"))
  return corpus
}

export const NOW = new Date(2026, 10, 30, 12).getTime()
export const recall = (
  corpus: Corpus.RecallCorpus,
  query: string,
  extra: Partial<Parameters<typeof hybridRecall>[1]> = {}
) =>
  hybridRecall(corpus, { partitions: ["legacy_private"], nowMillis: NOW, tokens: corpus.tokenize(query), ...extra }, t)
