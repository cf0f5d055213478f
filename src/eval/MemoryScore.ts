/**
 * The scores of `kioku eval memory` for one language, from what was said and what the server kept. A fact
 * belongs to the statements whose rows are in its `source_row_ids`; a fact without known rows falls back to
 * the statements whose every key group its text holds. A statement is recalled when every key group is held
 * by one of its facts. A fact is a filler's when its rows include a filler's row and it holds no key group of
 * a statement among its rows, an acknowledgement's when its rows are only the character's replies. First
 * person: English words (I, me, my, mine, myself, we, us, our, ours, ourselves), Japanese 私/わたし/僕/俺/あたし,
 * Chinese 我. A question hits when one of its expected strings is in the text of one of the top `k` rows (8, the
 * default result cap of `/query_memory`); the memory-only figure counts only fact, archived fact and
 * reflection rows among those `k`.
 */
import { containsAny, type MemoryLanguage, type MemorySet, type Question, type Statement } from "./MemorySet.js"
import type { ScoredFact } from "./MemoryFiles.js"

export type RowOwner =
  | { readonly kind: "statement"; readonly id: string }
  | { readonly kind: "filler"; readonly id: string }
  | { readonly kind: "ack"; readonly id: string }

export interface RecalledRow {
  readonly tier: string
  readonly text: string
}

export interface Answer {
  readonly question: Question
  readonly rows: ReadonlyArray<RecalledRow>
}

export interface LanguageScore {
  readonly statements: number
  readonly recalled: number
  /** Statements with at least one fact, whether or not it kept the key details. */
  readonly withFacts: number
  readonly fillers: number
  readonly fillerFacts: number
  readonly ackFacts: number
  /** Facts matched to no statement, filler or reply (no rows, and no statement's keys in their text). */
  readonly unattributedFacts: number
  readonly facts: number
  readonly firstPersonFacts: number
  readonly questions: number
  readonly hits: number
  readonly memoryHits: number
  readonly misses: {
    readonly statements: ReadonlyArray<string>
    readonly fillers: ReadonlyArray<string>
    readonly questions: ReadonlyArray<string>
  }
}

export const hitCap = 8

const englishFirstPerson = /(?<![\p{L}\p{N}])(?:i|me|my|mine|myself|we|our|ours|ourselves)(?![\p{L}\p{N}])/iu
const englishUs = /(?<![\p{L}\p{N}])us(?![\p{L}\p{N}])/u
const firstPersonOf: Readonly<Record<MemoryLanguage, (text: string) => boolean>> = {
  en: (t) => englishFirstPerson.test(t) || englishUs.test(t),
  ja: (t) => /私|わたし|僕|俺|あたし/.test(t),
  zh: (t) => t.includes("我")
}

export const isFirstPerson = (language: MemoryLanguage, text: string): boolean => firstPersonOf[language](text)

const keepsAll = (text: string, s: Statement) => s.keys.every((group) => containsAny(text, group))
const keepsSome = (text: string, s: Statement) => s.keys.some((group) => containsAny(text, group))

export const scoreLanguage = (input: {
  readonly set: MemorySet
  readonly owners: ReadonlyMap<number, RowOwner>
  readonly facts: ReadonlyArray<ScoredFact>
  readonly answers: ReadonlyArray<Answer>
  readonly cap?: number | undefined
}): LanguageScore => {
  const { set, owners, facts } = input
  const cap = input.cap ?? hitCap
  const byId = new Map(set.statements.map((s) => [s.id, s]))
  const factsOf = new Map<string, Array<string>>()
  const fillerIds = new Set<string>()
  let fillerFacts = 0
  let ackFacts = 0
  let unattributed = 0
  for (const fact of facts) {
    const rows = (fact.source_row_ids ?? []).flatMap((id) => {
      const owner = owners.get(id)
      return owner === undefined ? [] : [owner]
    })
    const statements = rows.flatMap((o) => (o.kind === "statement" ? [o.id] : []))
    const fillers = rows.flatMap((o) => (o.kind === "filler" ? [o.id] : []))
    const linked = rows.length > 0 ? statements : set.statements.filter((s) => keepsAll(fact.text, s)).map((s) => s.id)
    for (const id of new Set(linked)) factsOf.set(id, [...(factsOf.get(id) ?? []), fact.text])
    const keepsStatement = linked.some((id) => {
      const s = byId.get(id)
      return s !== undefined && keepsSome(fact.text, s)
    })
    if (fillers.length > 0 && !keepsStatement) {
      fillerFacts++
      for (const id of fillers) fillerIds.add(id)
    } else if (rows.length > 0 && statements.length === 0 && fillers.length === 0) ackFacts++
    else if (linked.length === 0) unattributed++
  }
  const missedStatements = set.statements.filter((s) =>
    s.keys.some((group) => !(factsOf.get(s.id) ?? []).some((text) => containsAny(text, group)))
  )
  const hitOf = (rows: ReadonlyArray<RecalledRow>, q: Question) => rows.some((r) => containsAny(r.text, q.expected))
  const memoryTiers = new Set(["fact", "fact_archive", "reflection"])
  const scored = input.answers.map((a) => {
    const top = a.rows.slice(0, cap)
    return {
      id: a.question.id,
      hit: hitOf(top, a.question),
      memoryHit: hitOf(
        top.filter((r) => memoryTiers.has(r.tier)),
        a.question
      )
    }
  })
  return {
    statements: set.statements.length,
    recalled: set.statements.length - missedStatements.length,
    withFacts: set.statements.filter((s) => factsOf.has(s.id)).length,
    fillers: set.fillers.length,
    fillerFacts,
    ackFacts,
    unattributedFacts: unattributed,
    facts: facts.length,
    firstPersonFacts: facts.filter((f) => isFirstPerson(set.language, f.text)).length,
    questions: scored.length,
    hits: scored.filter((q) => q.hit).length,
    memoryHits: scored.filter((q) => q.memoryHit).length,
    misses: {
      statements: missedStatements.map((s) => s.id),
      fillers: [...fillerIds].sort(),
      questions: scored.filter((q) => !q.hit).map((q) => q.id)
    }
  }
}
