/**
 * Which facts a `local` reflection is drawn from: facts about one entity that name the same family of life
 * themes (Themes.ts), joined by theme-less facts that share a content word recurring in that group ("Mochi"
 * in two facts about the cat brings in "Mochi sleeps on the windowsill"); theme-less facts sharing one
 * content word form a group of their own. Joins take one step, so chains of loosely similar facts never
 * grow a group. Groups rank by size, then theme groups before word groups, then importance, then age.
 * Deterministic; the order of the input is the facts' age order.
 */
import type { Language } from "../../../domain/Locale.js"
import { familyHead, themes, type Theme } from "./Themes.js"
import { contentWords, langOf, themesOf } from "./Words.js"

export interface Clusterable {
  readonly text: string
  readonly importance: number
  readonly entity: string
}

export type ClusterLabel =
  | { readonly _tag: "theme"; readonly theme: Theme }
  | { readonly _tag: "word"; readonly word: string }
  | { readonly _tag: "none" }

export interface Cluster {
  readonly entity: string
  /** Indexes into the input, ascending. */
  readonly members: ReadonlyArray<number>
  readonly label: ClusterLabel
}

/** The fewest related facts one reflection needs. */
export const MIN_RELATED = 5

interface Names {
  readonly master: string
  readonly character: string
}

interface Read {
  readonly index: number
  readonly themes: ReadonlyArray<string>
  readonly words: ReadonlyMap<string, string>
}

const familyOf = new Map(themes.map((t) => [t.id, t.family]))

const groupsOf = (entity: string, reads: ReadonlyArray<Read>): Array<Cluster> => {
  const out: Array<Cluster> = []
  const themeless = reads.filter((r) => r.themes.length === 0)
  const families = [...new Set(reads.flatMap((r) => r.themes.map((t) => familyOf.get(t) ?? t)))]
  for (const family of families) {
    const core = reads.filter((r) => r.themes.some((t) => familyOf.get(t) === family))
    const seen = new Map<string, number>()
    for (const r of core) for (const w of r.words.keys()) seen.set(w, (seen.get(w) ?? 0) + 1)
    const joiners = themeless.filter((r) => [...r.words.keys()].some((w) => (seen.get(w) ?? 0) >= 2))
    const counts = themes
      .filter((t) => t.family === family)
      .map((t) => [t, core.filter((r) => r.themes.includes(t.id)).length] as const)
    const [top, n] = counts.reduce((best, c) => (c[1] > best[1] ? c : best))
    const theme = n * 5 >= core.length * 3 ? top : (familyHead(family) ?? top)
    const members = [...core, ...joiners].map((r) => r.index).sort((a, b) => a - b)
    out.push({ entity, members, label: { _tag: "theme", theme } })
  }
  const byWord = new Map<string, Array<Read>>()
  for (const r of themeless)
    for (const w of r.words.keys()) {
      const group = byWord.get(w)
      if (group === undefined) byWord.set(w, [r])
      else group.push(r)
    }
  for (const [w, group] of byWord) {
    out.push({ entity, members: group.map((r) => r.index), label: { _tag: "word", word: group[0]?.words.get(w) ?? w } })
  }
  return out
}

const labelKey = (c: Cluster) =>
  `${c.entity}/${c.label._tag === "theme" ? c.label.theme.id : c.label._tag === "word" ? c.label.word : ""}`

/** Every candidate group, best first. */
export const clustersOf = (
  facts: ReadonlyArray<Clusterable>,
  names: Names,
  language: Language
): ReadonlyArray<Cluster> => {
  const reads = facts.map((f, index): Read & { readonly entity: string } => {
    const lang = langOf(f.text, language)
    return {
      index,
      entity: f.entity,
      themes: themesOf(f.text, lang),
      words: contentWords(f.text, lang, [names.master, names.character])
    }
  })
  const entities = [...new Set(reads.map((r) => r.entity))]
  const weights = new Map<Cluster, number>()
  const weight = (c: Cluster) => {
    const known = weights.get(c)
    if (known !== undefined) return known
    const sum = c.members.reduce((total, i) => total + (facts[i]?.importance ?? 0), 0)
    weights.set(c, sum)
    return sum
  }
  return entities
    .flatMap((e) =>
      groupsOf(
        e,
        reads.filter((r) => r.entity === e)
      )
    )
    .sort(
      (a, b) =>
        b.members.length - a.members.length ||
        Number(b.label._tag === "theme") - Number(a.label._tag === "theme") ||
        weight(b) - weight(a) ||
        (a.members[0] ?? 0) - (b.members[0] ?? 0) ||
        labelKey(a).localeCompare(labelKey(b))
    )
}

/**
 * The group a synthesis over `facts` is written about: the best candidate, or — when no two facts share
 * anything — the facts of the most frequent entity under no label.
 */
export const mainCluster = (facts: ReadonlyArray<Clusterable>, names: Names, language: Language): Cluster => {
  const best = clustersOf(facts, names, language)[0]
  if (best !== undefined && best.members.length > 1) return best
  const counts = new Map<string, number>()
  for (const f of facts) counts.set(f.entity, (counts.get(f.entity) ?? 0) + 1)
  const entity = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "master"
  const members = facts.flatMap((f, i) => (f.entity === entity ? [i] : []))
  return { entity, members, label: { _tag: "none" } }
}

/**
 * How many facts of the pool (oldest first) the focus groups: a pool beyond it (a large import not yet
 * reflected on) is worked through from its oldest end, without analysing every fact at every synthesis.
 */
export const FOCUS_POOL_MAX = 2000

/** The facts of the best group, among the pool's oldest `FOCUS_POOL_MAX`, when it has at least five; otherwise none. */
export const relatedFacts = <F extends Clusterable>(
  all: ReadonlyArray<F>,
  names: Names,
  language: Language
): ReadonlyArray<F> => {
  const pool = all.length > FOCUS_POOL_MAX ? all.slice(0, FOCUS_POOL_MAX) : all
  const best = clustersOf(pool, names, language)[0]
  if (best === undefined || best.members.length < MIN_RELATED) return []
  return best.members.flatMap((i) => (pool[i] === undefined ? [] : [pool[i]]))
}
