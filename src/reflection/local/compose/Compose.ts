/**
 * The text and ontology of a `local` reflection over one cluster: in the facts' own language (English,
 * Japanese, Simplified or Traditional Chinese; other languages get a generic form), a sentence naming what
 * the facts show together ("Master is a dedicated runner") followed by up to three of them as clauses
 * ("jogs every morning before work, ran a first full marathon in Kyoto, and is training for the Tokyo
 * marathon"). The kind of statement most of the facts make picks the sentence, the relation type and the
 * temporal scope (habits → habit/pattern, preferences → preference, identity facts → identity/state…).
 */
import type { Language } from "../../../domain/Locale.js"
import type { Drafted } from "../../Synthesis.js"
import { clauseOf, nominal, type Clause, type Kind } from "./Clauses.js"
import type { Cluster, Clusterable } from "./Cluster.js"
import type { ThemeLabel } from "./Themes.js"
import { langOf, traditional, type Lang } from "./Words.js"
import { withFields } from "../../../domain/Shapes.js"

type Primary = "activity" | "preference" | "boundary" | "identity" | "feeling"
type Script = "en" | "ja" | "hans" | "hant"

interface Names {
  readonly master: string
  readonly character: string
}

const primaryOf = (kind: Kind): Primary => (kind === "habit" || kind === "episode" ? "activity" : kind)

const ontology = (entity: string, primary: Primary, habitual: boolean): readonly [string, string] => {
  const scope = primary === "identity" || primary === "feeling" ? "state" : "pattern"
  if (entity === "neko") return ["self_awareness", scope]
  if (entity === "master") {
    const master = { preference: "preference", boundary: "boundary", identity: "identity", feeling: "emotional" }
    return [primary === "activity" ? (habitual ? "habit" : "trait") : master[primary], scope]
  }
  if (primary === "activity") return habitual ? ["dynamic", "pattern"] : ["shared_memory", "episode"]
  const shared = { preference: "dynamic", boundary: "agreement", identity: "milestone", feeling: "dynamic" }
  return [shared[primary], scope]
}

const subjects = (entity: string, names: Names): ReadonlyArray<string> => {
  const { master: m, character: c } = names
  if (entity === "neko") return [c]
  if (entity !== "relationship") return [m]
  return [
    `${m} and ${c}`,
    `${c} and ${m}`,
    `${m}と${c}`,
    `${c}と${m}`,
    `${m}和${c}`,
    `${c}和${m}`,
    "We",
    "我们",
    "我們"
  ]
}

const subjectIn = (entity: string, names: Names, lang: Lang): string => {
  if (entity === "neko") return names.character
  if (entity !== "relationship") return names.master
  const joiner = lang === "ja" ? "と" : lang === "zh" ? "和" : " and "
  return `${names.master}${joiner}${names.character}`
}

const series = (items: ReadonlyArray<string>, mark: string) =>
  items.length <= 2
    ? items.join(mark === "," ? " and " : "; and ")
    : `${items.slice(0, -1).join(`${mark} `)}${mark} and ${items[items.length - 1]}`

/**
 * "a, b, and c" ("a; b; and c" when a clause has a comma of its own); clauses opening with the same verb
 * share it ("loves ramen, sushi, and udon").
 */
const englishList = (items: ReadonlyArray<string>) => {
  const mark = items.some((c) => c.includes(",")) ? ";" : ","
  const verbs = new Set(items.map((c) => c.split(" ")[0]))
  const [verb] = verbs
  const shared =
    mark === "," && items.length > 1 && verbs.size === 1 && verb !== undefined && items.every((c) => c.includes(" "))
  return shared
    ? `${verb} ${series(
        items.map((c) => c.slice(verb.length + 1)),
        mark
      )}`
    : series(items, mark)
}

type Label = { readonly _tag: "theme"; readonly label: ThemeLabel } | { readonly _tag: "word"; readonly word: string }

const english = (s: string, plural: boolean, primary: Primary, label: Label | undefined, list: string) => {
  const [be, have, talks] = plural ? ["are", "have", "talk"] : ["is", "has", "talks"]
  if (label === undefined) return `${s} ${have} shared a few things: ${list}.`
  if (label._tag === "word") return `${s} often ${talks} about ${label.word}: ${list}.`
  const { domain, engaged } = label.label
  const [one, many] = engaged.split("|")
  const lead: Readonly<Record<Primary, string>> = {
    activity: `${s} ${be} ${plural ? (many ?? one) : one}`,
    preference: `${s} ${have} firm favourites when it comes to ${domain}`,
    boundary: `${s} ${be} careful about ${domain}`,
    identity: `Much of ${s}'s life centres on ${domain}`,
    feeling: `${s} ${have} strong feelings about ${domain}`
  }
  return `${lead[primary]}: ${list}.`
}

const japanese = (s: string, primary: Primary, label: Label | undefined, list: string) => {
  const from = `${list}から、`
  if (label === undefined) return `${from}${s}のことが少しずつわかってきた。`
  if (label._tag === "word") return `${from}${s}にとって${label.word}は大事な話題のようだ。`
  const { domain, engaged } = label.label
  const tail: Readonly<Record<Primary, string>> = {
    activity: `${s}は${engaged}ようだ。`,
    preference: `${s}は${domain}の好みがはっきりしているようだ。`,
    boundary: `${s}は${domain}に気をつけているようだ。`,
    identity: `${domain}は${s}の生活の大きな部分を占めているようだ。`,
    feeling: `${s}は${domain}のことで思うところがあるようだ。`
  }
  return from + tail[primary]
}

const chinese = (s: string, hant: boolean, primary: Primary, label: Label | undefined, list: string) => {
  const t = (hans: string, tw: string) => (hant ? tw : hans)
  if (label === undefined) return `${t("关于", "關於")}${s}：${list}。`
  if (label._tag === "word") return `${s}${t("经常聊到", "經常聊到")}${label.word}：${list}。`
  const { domain, engaged } = label.label
  const lead: Readonly<Record<Primary, string>> = {
    activity: `${s}${engaged}`,
    preference: `${s}${t("对", "對")}${domain}很有自己的偏好`,
    boundary: `${s}在${domain}方面很${t("谨慎", "謹慎")}`,
    identity: `${domain}是${s}生活的重心之一`,
    feeling: `${s}${t("对", "對")}${domain}有很多${t("感触", "感觸")}`
  }
  return `${lead[primary]}：${list}。`
}

const budget: Readonly<Record<Lang, number>> = { en: 320, ja: 100, zh: 90, other: 320 }

interface Read {
  readonly i: number
  readonly fact: Clusterable
  readonly clause: Clause
}

/**
 * Up to three clauses within the language's budget, in age order: those that make the cluster's main kind
 * of statement first (habits before episodes), short ones before long ones, then by importance and age. The
 * clauses are the facts without their subject when at least two read that way, else the whole facts (raw
 * facts for other languages, or Japanese that stays polite).
 */
const citations = (read: ReadonlyArray<Read>, lang: Lang, primary: Primary) => {
  const usable = (text: string | undefined) => text !== undefined && (lang !== "ja" || nominal(text) !== undefined)
  const predicates = read.filter((r) => usable(r.clause.predicate))
  const wholes = read.filter((r) => usable(r.clause.whole))
  const form =
    lang === "other" || (predicates.length === 0 && wholes.length === 0)
      ? "raw"
      : predicates.length >= 2 || predicates.length === read.length
        ? "predicate"
        : "whole"
  const candidates = (form === "predicate" ? predicates : form === "whole" ? wholes : read).map((r) => ({
    ...r,
    text:
      form === "predicate"
        ? (r.clause.predicate ?? "")
        : form === "whole"
          ? r.clause.whole
          : r.fact.text.trim().replace(/[\s.。!！?？]+$/u, "")
  }))
  type Candidate = (typeof candidates)[number]
  const fit = (r: Candidate) =>
    primaryOf(r.clause.kind) !== primary ? 0 : primary === "activity" && r.clause.kind === "habit" ? 2 : 1
  const long = (r: Candidate) => Number([...r.text].length > budget[lang] / 3)
  const ranked = [...candidates].sort(
    (a, b) => fit(b) - fit(a) || long(a) - long(b) || b.fact.importance - a.fact.importance || a.i - b.i
  )
  const chosen: Array<Candidate> = []
  let used = 0
  for (const r of ranked) {
    if (chosen.length === 3 || chosen.some((c) => c.text.toLowerCase() === r.text.toLowerCase())) continue
    if (chosen.length > 0 && used + [...r.text].length > budget[lang]) continue
    chosen.push(r)
    used += [...r.text].length
  }
  return { raw: form === "raw", items: chosen.sort((a, b) => a.i - b.i).map((c) => c.text) }
}

const labelOf = (cluster: Cluster, script: Script): Label | undefined =>
  cluster.label._tag === "theme"
    ? { _tag: "theme", label: cluster.label.theme.label[script] }
    : cluster.label._tag === "word"
      ? { _tag: "word", word: cluster.label.word }
      : undefined

/** The reflection over `cluster`, one of the groups of `facts` (in age order). */
export const compose = (
  facts: ReadonlyArray<Clusterable>,
  cluster: Cluster,
  names: Names,
  language: Language
): Drafted => {
  const members = cluster.members.flatMap((i) => (facts[i] === undefined ? [] : [{ i, fact: facts[i] }]))
  const langs = members.map((m) => langOf(m.fact.text, language))
  const lang = (["en", "ja", "zh", "other"] as const).reduce((best, l) =>
    langs.filter((x) => x === l).length > langs.filter((x) => x === best).length ? l : best
  )
  const own = subjects(cluster.entity, names)
  const read = members.map((m): Read => withFields(m, { clause: clauseOf(m.fact.text, lang, own) }))
  const tally = (p: Primary) => read.filter((r) => primaryOf(r.clause.kind) === p).length
  const primary = (["activity", "preference", "boundary", "identity", "feeling"] as const).reduce((best, p) =>
    tally(p) > tally(best) ? p : best
  )
  const [relation_type, temporal_scope] = ontology(
    cluster.entity,
    primary,
    read.some((r) => r.clause.kind === "habit")
  )
  const { raw, items } = citations(read, lang, primary)
  if (raw) return { entity: cluster.entity, relation_type: null, temporal_scope: null, text: `${items.join("; ")}.` }
  const subject = subjectIn(cluster.entity, names, lang)
  const hant = lang === "zh" && traditional(items, language)
  const label = labelOf(cluster, lang === "ja" ? "ja" : lang === "zh" ? (hant ? "hant" : "hans") : "en")
  const text =
    lang === "en"
      ? english(subject, cluster.entity === "relationship", primary, label, englishList(items))
      : lang === "ja"
        ? japanese(subject, primary, label, items.map((c) => nominal(c) ?? c).join("、"))
        : chinese(subject, hant, primary, label, items.join(items.some((c) => /[，,]/.test(c)) ? "；" : "，"))
  return { entity: cluster.entity, relation_type, temporal_scope, text }
}
