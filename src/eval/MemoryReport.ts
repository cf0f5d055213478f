/**
 * The report of `kioku eval memory`: per language and in total, extraction recall (statements whose facts kept
 * every key detail), facts made from fillers and from the character's replies, facts in the first person,
 * and question hit@8 over all rows and over fact/reflection rows only. `summaryOf` is the `--json` object;
 * `formatMemoryRun` the text table.
 */
import type { LanguageRun } from "./RunMemory.js"

const ratio = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 1000) / 1000)

interface Counts {
  readonly statements: number
  readonly recalled: number
  readonly withFacts: number
  readonly fillers: number
  readonly fillerFacts: number
  readonly ackFacts: number
  readonly unattributedFacts: number
  readonly facts: number
  readonly firstPersonFacts: number
  readonly questions: number
  readonly hits: number
  readonly memoryHits: number
}

const figures = (c: Counts) => ({
  statements: c.statements,
  recall: ratio(c.recalled, c.statements),
  recalled: c.recalled,
  statementsWithFacts: c.withFacts,
  fillers: c.fillers,
  fillerFacts: c.fillerFacts,
  ackFacts: c.ackFacts,
  unattributedFacts: c.unattributedFacts,
  facts: c.facts,
  firstPersonFacts: c.firstPersonFacts,
  questions: c.questions,
  "hit@8": ratio(c.hits, c.questions),
  "hit@8 memory": ratio(c.memoryHits, c.questions)
})

const zero: Counts = {
  statements: 0,
  recalled: 0,
  withFacts: 0,
  fillers: 0,
  fillerFacts: 0,
  ackFacts: 0,
  unattributedFacts: 0,
  facts: 0,
  firstPersonFacts: 0,
  questions: 0,
  hits: 0,
  memoryHits: 0
}

const countKeys: ReadonlyArray<keyof Counts> = [
  "statements",
  "recalled",
  "withFacts",
  "fillers",
  "fillerFacts",
  "ackFacts",
  "unattributedFacts",
  "facts",
  "firstPersonFacts",
  "questions",
  "hits",
  "memoryHits"
]

const total = (runs: ReadonlyArray<LanguageRun>): Counts => {
  const sum: Record<keyof Counts, number> = { ...zero }
  for (const r of runs) for (const k of countKeys) sum[k] += r.score[k]
  return sum
}

/** The `--json` object: one entry per language (with its misses), then the totals. */
export const summaryOf = (runs: ReadonlyArray<LanguageRun>) => ({
  languages: Object.fromEntries(
    runs.map((r) => [
      r.language,
      {
        character: r.character,
        ...figures(r.score),
        reflections: r.reflections,
        maintenancePasses: r.maintenancePasses,
        vectors: r.vectors,
        seconds: Math.round(r.seconds * 10) / 10,
        misses: r.score.misses
      }
    ])
  ),
  total: figures(total(runs))
})

const fmt = (x: number) => x.toFixed(3)

export const formatMemoryRun = (runs: ReadonlyArray<LanguageRun>): string => {
  const header = "lang   statements  recall  filler facts  reply facts  1st person  questions  hit@8  hit@8 memory"
  const line = (name: string, c: Counts) =>
    [
      name.padEnd(6),
      String(c.statements).padStart(10),
      fmt(c.statements === 0 ? 0 : c.recalled / c.statements).padStart(7),
      `${c.fillerFacts} (${c.fillers})`.padStart(12),
      String(c.ackFacts).padStart(11),
      `${c.firstPersonFacts}/${c.facts}`.padStart(10),
      String(c.questions).padStart(9),
      fmt(c.questions === 0 ? 0 : c.hits / c.questions).padStart(6),
      fmt(c.questions === 0 ? 0 : c.memoryHits / c.questions).padStart(13)
    ].join("  ")
  const vectors = runs.map((r) => `${r.language} ${r.vectors.model ?? "off"}`).join(", ")
  return [
    `kioku eval memory: ${runs.length} languages; vectors: ${vectors}`,
    header,
    ...runs.map((r) => line(r.language, r.score)),
    ...(runs.length > 1 ? [line("total", total(runs))] : []),
    "recall: statements whose facts keep every key detail; filler facts (fillers sent); 1st person: facts/all facts",
    ...runs.map(
      (r) =>
        `${r.language}: ${r.score.facts} facts (${r.vectors.factsWithVectors} with vectors), ${r.reflections} ` +
        `reflections, ${r.score.withFacts} statements with any fact, ${r.score.unattributedFacts} unattributed; ` +
        `${r.seconds.toFixed(1)} s`
    )
  ].join("\n")
}
