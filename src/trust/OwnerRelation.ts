/**
 * Whether an owner's statement confirms or corrects a stored fact, decided by code alone and deliberately
 * conservative (N.E.K.O.'s `deterministic_relation`): after whitespace and case folding, the same text is a
 * confirmation; a correction is the same proposition with its polarity flipped — an English auxiliary-led
 * `not`/`never`/`no` (`is not`, `has no`, `did not`), or a Chinese negated predicate (`不喜欢`/`喜欢`, `不是`/`是`,
 * `没有`/`有`…) on a clause without a relative `的` or a second predicate. No answer at all for a question, a
 * disjunction, a quantified or frequency-qualified claim (`some`, `two`, `often`, `有些`, `经常`), or a negation
 * under a conditional, temporal, embedded, reported or uncertain clause (`if`, `before`, `that`, `said`,
 * `maybe`, `might`, `如果`, `之前`, `可能`, `认为`). A false negative is always preferred to a fabricated penalty.
 */
const NEGATED_PREDICATES: ReadonlyArray<readonly [string, string]> = [
  ["不喜欢", "喜欢"],
  ["不爱", "爱"],
  ["不是", "是"],
  ["没有", "有"],
  ["没在", "在"],
  ["不会", "会"],
  ["不能", "能"],
  ["不想", "想"],
  ["不需要", "需要"],
  ["不支持", "支持"],
  ["不同意", "同意"],
  ["不接受", "接受"],
  ["不相信", "相信"],
  ["不认识", "认识"],
  ["不住", "住"]
]
const PREDICATE_FORMS = [...new Set(NEGATED_PREDICATES.flat())]
const words = (s: string): ReadonlySet<string> => new Set(s.split(" "))
const NEGATIONS = words("not never no")
const AUXILIARIES = words(
  "am are can could did do does had has have is may might must shall should was were will would"
)
const FOCUS = words("only just merely necessarily")
const CONDITIONALS = words("assuming if provided supposing unless whether")
const CONDITIONAL_PHRASES = ["as long as", "even if", "in case", "on condition that", "only if"].map((p) =>
  p.split(" ")
)
const TEMPORALS = words("after before until whenever while")
const EMBEDDING = words("that when where which who whom whose")
const REPORTING = words(
  "acknowledge acknowledged acknowledges admit admits admitted allege alleged alleges announce announced announces " +
    "assert asserted asserts believe believed believes claim claimed claims confirm confirmed confirms declare " +
    "declared declares discover discovered discovers explain explained explains find finds found hear heard hears " +
    "indicate indicated indicates mention mentioned mentions note noted notes observe observed observes recall " +
    "recalled recalls remember remembered remembers report reported reports say said says state stated states " +
    "suggest suggested suggests tell tells think thinks thought told understand understands understood write writes wrote"
)
const MODALS = words("could may might")
const UNCERTAIN = words("maybe perhaps possible possibly probable probably")
const FREQUENCIES = words("frequently generally occasionally often periodically rarely seldom sometimes usually")
const FREQUENCY_PHRASES = [
  ["at", "times"],
  ["from", "time", "to", "time"]
]
const CJK_FREQUENCIES = ["偶尔", "偶爾", "经常", "經常", "时常", "時常", "通常"]
const QUANTIFIERS = words("few many several some")
const CARDINALS = words(
  "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen " +
    "eighteen nineteen twenty"
)
const CJK_QUANTIFIERS = ["有些", "几个", "幾個", "很多", "若干", "许多", "許多"]
const CJK_CONDITIONALS = ["如果", "若", "假如", "假设", "倘若", "要是", "只要", "一旦", "即使", "除非"]
const CJK_TEMPORALS = ["之前", "之後", "之后", "以前", "以後", "以后", "期间", "期間"]
const CJK_UNCERTAIN = ["也许", "或许", "大概", "可能"]
const CJK_REPORTING =
  "说,表示,声称,认为,觉得,相信,报告,告诉,宣布,写道,指出,承认,提到,透露,强调,回忆,发现,证实,确认".split(",")

type Tokens = ReadonlyArray<string>

/** Latin words and digits as runs, each CJK ideograph alone, lower-cased. */
const tokensOf = (text: string): Tokens => text.toLowerCase().match(/[a-z0-9]+|[\u3400-\u9fff]/g) ?? []
const isDigits = (t: string) => /^[0-9]+$/.test(t)
const hasAny = (text: string, markers: ReadonlyArray<string>) => markers.some((m) => text.includes(m))
const hasPhrase = (tokens: Tokens, phrase: Tokens) => tokens.some((_, i) => phrase.every((p, k) => tokens[i + k] === p))
const cjkNegated = (text: string) => NEGATED_PREDICATES.some(([negative]) => text.includes(negative))

/** Whether `tokens[i]` negates its predicate: only right after an auxiliary, never `not only`, never `no 5`. */
const isNegation = (tokens: Tokens, i: number): boolean => {
  const t = tokens[i] ?? ""
  if (!NEGATIONS.has(t)) return false
  const afterAuxiliary = i > 0 && AUXILIARIES.has(tokens[i - 1] ?? "")
  const next = tokens[i + 1]
  if (t === "no") return afterAuxiliary && next !== undefined && !isDigits(next)
  if (t === "not" && next !== undefined && FOCUS.has(next)) return false
  return afterAuxiliary
}
const negations = (tokens: Tokens) => tokens.flatMap((_, i) => (isNegation(tokens, i) ? [i] : []))
const negative = (text: string) => cjkNegated(text) || negations(tokensOf(text)).length > 0
const propositionOf = (text: string) => {
  const tokens = tokensOf(text)
  const negated = new Set(negations(tokens))
  return tokens.filter((_, i) => !negated.has(i)).join(" ")
}

const fragmentEmbedsNegation = (fragment: string): boolean => {
  const tokens = tokensOf(fragment)
  const negated = negations(tokens)
  if (negated.length === 0) return false
  if (
    tokens.some((t) => CONDITIONALS.has(t) || TEMPORALS.has(t)) ||
    CONDITIONAL_PHRASES.some((p) => hasPhrase(tokens, p))
  )
    return true
  const first = tokens.findIndex((t) => EMBEDDING.has(t) || REPORTING.has(t))
  return first >= 0 && negated.some((i) => i > first)
}
const embedsNegation = (text: string) =>
  text
    .split(/[.!?;。！？；\r\n]+/)
    .filter((f) => f.trim() !== "")
    .some(fragmentEmbedsNegation)

const modalNegation = (text: string): boolean => {
  const tokens = tokensOf(text)
  const negated = negations(tokens)
  const wordForm = tokens.some(
    (t, m) => MODALS.has(t) && negated.some((i) => m < i && tokens.slice(m + 1, i).every((x) => AUXILIARIES.has(x)))
  )
  return (
    wordForm ||
    [...MODALS].some((m) => NEGATED_PREDICATES.some(([n]) => new RegExp(`\\b${m}\\b\\s*${n}`, "i").test(text)))
  )
}
const uncertainNegation = (text: string): boolean => {
  const tokens = tokensOf(text)
  const first = tokens.findIndex((t) => UNCERTAIN.has(t))
  return first >= 0 && negations(tokens).some((i) => i > first)
}
/** A negation anywhere after the first of `markers` (an uncertain or a reporting CJK clause). */
const negatedAfter = (text: string, markers: ReadonlyArray<string>) =>
  markers.some((m) => {
    const at = text.indexOf(m)
    if (at < 0) return false
    const rest = text.slice(at + m.length)
    return cjkNegated(rest) || negations(tokensOf(rest)).length > 0
  })
const guardedNegation = (text: string) =>
  modalNegation(text) || uncertainNegation(text) || negatedAfter(text, CJK_UNCERTAIN)

/** The text with one negated CJK predicate made positive, for each occurrence that is safely the main one. */
const positiveVariants = (text: string): ReadonlySet<string> => {
  const out = new Set<string>()
  for (const [negated, positive] of NEGATED_PREDICATES) {
    for (let at = text.indexOf(negated); at >= 0; at = text.indexOf(negated, at + negated.length)) {
      const before = text.slice(0, at)
      const after = text.slice(at + negated.length)
      if (after.includes("的")) continue
      if (PREDICATE_FORMS.some((f) => before.includes(f) || after.includes(f))) continue
      out.add(before + positive + after)
    }
  }
  return out
}

const quantified = (text: string) => {
  const tokens = tokensOf(text)
  return (
    tokens[0] === "a" ||
    tokens[0] === "an" ||
    tokens.some((t) => QUANTIFIERS.has(t) || CARDINALS.has(t) || isDigits(t)) ||
    hasAny(text, CJK_QUANTIFIERS)
  )
}
const frequent = (text: string) => {
  const tokens = tokensOf(text)
  return (
    tokens.some((t) => FREQUENCIES.has(t)) ||
    FREQUENCY_PHRASES.some((p) => hasPhrase(tokens, p)) ||
    hasAny(text, CJK_FREQUENCIES)
  )
}
const disjunctive = (text: string) => tokensOf(text).includes("or") || hasAny(text, ["或者", "还是", "或"])

export type Relation = "confirmation" | "correction"

const KEY_DROPPED: ReadonlySet<string> = new Set(["not", "never", "no", "不", "没"])
/**
 * The tokens of a text without any negation word: equal for any two texts `deterministicRelation` pairs (a
 * necessary condition, so candidates can be looked up by it instead of tried one by one).
 */
export const relationKey = (text: string): string =>
  tokensOf(text)
    .filter((t) => !KEY_DROPPED.has(t))
    .join(" ")

const normal = (text: string) =>
  text
    .split(/\s+/)
    .filter((w) => w !== "")
    .join(" ")
    .toLowerCase()

/** `newText` (the owner's) against `oldText` (the stored fact); undefined when code cannot tell safely. */
export const deterministicRelation = (oldText: string, newText: string): Relation | undefined => {
  const old = normal(oldText)
  const said = normal(newText)
  if (old === "" || said === "") return undefined
  if (old.includes("?") || old.includes("？") || said.includes("?") || said.includes("？")) return undefined
  if (old === said) return "confirmation"
  const both = [old, said]
  if (both.some((t) => disjunctive(t) || quantified(t) || frequent(t))) return undefined
  const cjkFlip = positiveVariants(said).has(old) || positiveVariants(old).has(said)
  if (
    cjkFlip &&
    !both.some(
      (t) =>
        (cjkNegated(t) && (hasAny(t, CJK_CONDITIONALS) || hasAny(t, CJK_TEMPORALS))) ||
        negatedAfter(t, CJK_REPORTING) ||
        guardedNegation(t)
    )
  )
    return "correction"
  const proposition = propositionOf(old)
  if (
    proposition !== "" &&
    proposition === propositionOf(said) &&
    negative(old) !== negative(said) &&
    !both.some((t) => embedsNegation(t) || guardedNegation(t))
  )
    return "correction"
  return undefined
}
