/**
 * One fact read as a clause for a `local` reflection: the subject taken off ("Master jogs every morning" →
 * "jogs every morning"; a possessive subject, "Master's club meets…", kept as a whole clause), relative time
 * words dropped (a "last month" would be wrong once the reflection is older), and what kind of statement it
 * is — a habit, an episode, a preference, a boundary, an identity fact or a feeling — from per-language cue
 * tables. Japanese clauses also get the nominal form that `…こと` needs. Pure.
 */
import type { Lang } from "./Words.js"

export type Kind = "habit" | "episode" | "preference" | "boundary" | "identity" | "feeling"

export interface Clause {
  /** The clause without its subject, when the fact opens with it ("jogs every morning before work"). */
  readonly predicate: string | undefined
  /** The whole fact as a clause, time words dropped; a possessive subject becomes "their" in English. */
  readonly whole: string
  readonly kind: Kind
}

type Cues = ReadonlyArray<readonly [Exclude<Kind, "episode">, RegExp]>

const cues: Readonly<Record<Exclude<Lang, "other">, Cues>> = {
  en: [
    [
      "boundary",
      /\b(dislikes?|hates?|can(?:no|')t (?:eat|stand|drink|have)|avoids?|allergic|does(?: not|n't) (?:want|like|eat|drink)|never (?:eats|drinks)|is afraid of|steers? clear|is intolerant|gave up)\b/i
    ],
    [
      "preference",
      /\b(loves?|likes?|enjoys?|adores?|prefers?|is (?:a )?(?:big |huge )?fan of|is into|favou?rite|is fond of|is crazy about|is obsessed with)\b/i
    ],
    [
      "feeling",
      /\b(feels?|felt|worried|worries|anxious|stressed|nervous|excited|upset|lonely|proud|scared|frustrated)\b/i
    ],
    [
      "habit",
      /\b(every|always|usually|often|regularly|daily|weekly|nightly|each (?:morning|day|night|week|weekend)|most (?:days|mornings|evenings|weekends)|on (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends)|tends to|(?:is|are) (?:training|practicing|practising|learning|studying|preparing|working on|saving))\b/i
    ],
    [
      "identity",
      /^(?:is (?:an?|the) |is \d|is from|comes from|was born|grew up|works (?:as|at|for|in)|lives (?:in|with|near)|has (?:an?|two|three|four|\d+) |owns|studies (?:at|in)|is called|is married|is single|is retired)|\bname is\b/i
    ]
  ],
  ja: [
    ["boundary", /苦手|嫌い|アレルギー|避けて|食べられない|飲めない|してほしくない|触れないで|やめた|怖い/],
    ["preference", /好き|好み|ハマって|はまって|気に入|推し|ファン|夢中/],
    ["feeling", /不安|心配|悩ん|寂し|嬉し|うれし|楽しみ|緊張|ストレス|悲し/],
    ["habit", /毎[朝日晩週月年夜]|いつも|よく|週に|月に|日おき|たびに|習慣|通って|練習して|続けて|目指して|向けて/],
    ["identity", /住んで|働いて|勤めて|飼って|出身|生まれ|歳|名前|所属|[\p{Script=Han}\p{Script=Katakana}]$/u]
  ],
  zh: [
    ["boundary", /讨厌|討厭|不喜欢|不喜歡|过敏|過敏|不能吃|不吃|不喝|不希望|受不了|害怕|不想|戒了|避免/],
    ["preference", /喜欢|喜歡|爱吃|愛吃|爱喝|愛喝|最爱|最愛|偏爱|偏愛|迷上|着迷|著迷|热爱|熱愛|爱上|愛上|钟爱|鍾愛/],
    ["feeling", /担心|擔心|焦虑|焦慮|难过|難過|开心|開心|压力|壓力|紧张|緊張|孤独|孤獨|失落|期待/],
    [
      "habit",
      /每[天周週个個晚早年月]|经常|經常|总是|總是|常常|一直|习惯|習慣|平时|平時|正在|坚持|堅持|准备|準備|备战|備戰/
    ],
    [
      "identity",
      /^是|住在|在.{1,12}(?:工作|上班|上学|上學|读书|讀書)|有[一二三四五六七八九十两兩\d]+[只隻条條个個位]|岁|歲|名字|来自|來自|出生/
    ]
  ]
}

const stative = /^(?:is|was|has|does|needs|wants|knows|seems|thinks|believes|means|owns|lives)\b/i

/** English: a predicate in the simple present ("works night shifts", "commutes by train") is a habit. */
export const kindOf = (clause: string, lang: Lang): Kind => {
  if (lang === "other") return "episode"
  const cued = cues[lang].find(([, re]) => re.test(clause))?.[0]
  if (cued !== undefined) return cued
  return lang === "en" && /^[a-z]+[^s]s\b/.test(clause) && !stative.test(clause) ? "habit" : "episode"
}

const relativeTime: Readonly<Record<Exclude<Lang, "other">, RegExp>> = {
  en: /,?\s*\b(?:yesterday|today|tonight|just now|recently|this (?:morning|afternoon|evening|week|month|year|weekend)|last (?:night|week|month|year|weekend|summer|winter|spring|fall|autumn|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(?:a few|a couple of|several|\d+|two|three|four|five) (?:days|weeks|months|years) ago|a (?:day|week|month|year) ago)\b/gi,
  ja: /(?:先月|先週|昨日|今日|今朝|昨夜|昨晩|去年|昨年|おととい|一昨日|この前|この間|さっき|\d+[日年]前|[一二三]日前)[、,]?/g,
  zh: /(?:上个月|上個月|上周|上週|上星期|昨天|今天|前天|去年|前几天|前幾天|刚才|剛才|今早|昨晚|\d+天前)[，,]?/g
}

const trimEnd = (s: string) => s.trim().replace(/[\s.!?。！？,，、~～]+$/u, "")

const dropTime = (s: string, lang: Lang) =>
  lang === "other" ? s : trimEnd(s.replace(relativeTime[lang], "").replace(/\s{2,}/g, " "))

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/**
 * Reads `text` as a clause about one of `subjects` (the entity's names as they open a fact: "Master",
 * "Master and Tian", "We"…).
 */
export const clauseOf = (text: string, lang: Lang, subjects: ReadonlyArray<string>): Clause => {
  const body = trimEnd(text)
  const alternatives = subjects.filter((s) => s !== "").map(escape)
  const names = alternatives.length === 0 ? "(?!)" : alternatives.join("|")
  const opener: Readonly<Record<Lang, RegExp>> = {
    en: new RegExp(`^(?:${names})\\s+(?!['’])`, "i"),
    ja: new RegExp(`^(?:${names})(?:は|が|も)、?`),
    zh: new RegExp(`^(?:${names})(?!的)\\s*`),
    other: new RegExp(`^(?:${names})\\s+`)
  }
  const m = opener[lang].exec(body)
  const rest = m === null ? undefined : body.slice(m[0].length)
  const owner = new RegExp(`^(?:${names})['’]s\\s+`, "i")
  const owned = new RegExp(`\\b(?:${names})['’]s\\b`, "gi")
  const predicate =
    rest === undefined || rest.trim() === ""
      ? undefined
      : dropTime(lang === "en" ? rest.replace(owned, "their") : rest, lang)
  const whole = lang === "en" && owner.test(body) ? dropTime(body.replace(owner, "their "), lang) : dropTime(body, lang)
  return { predicate, whole, kind: kindOf(predicate ?? whole, lang) }
}

const naAdjective = /(?:好き|嫌い|苦手|得意|上手|下手|大切|大事|元気|静か|有名|きれい|綺麗|心配|不安)$/

/** A Japanese clause in the plain form `…こと` can follow, or undefined when it stays polite. */
export const nominal = (clause: string): string | undefined => {
  const s = clause
    .replace(/ていました$/, "ていた")
    .replace(/ています$/, "ている")
    .replace(/でした$/, "だった")
    .replace(/です$/, "")
  if (/(?:ます|ました|ません|ましょう)$/.test(s)) return undefined
  if (naAdjective.test(s)) return `${s}なこと`
  if (/[んい]だ$/.test(s)) return `${s}こと`
  if (/だ$/.test(s)) return `${s.slice(0, -1)}であること`
  if (/[うくぐすずつづぬぶむるたい]$/.test(s)) return `${s}こと`
  return `${s}であること`
}
