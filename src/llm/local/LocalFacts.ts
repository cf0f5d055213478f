/**
 * The `local` provider's fact extraction: first-person statements matched by patterns, rewritten in the
 * third person about the speaker. English sentences come from wink-nlp's sentence boundaries; Chinese and
 * Japanese are split on their sentence punctuation. Importance follows N.E.K.O.'s rubric (names and
 * "remember this" 10, stable facts 8, preferences 6-7, events 6, other informative first-person lines 4);
 * `event_when` comes from time cue words. A statement by the character is an `ai_disclosure` about `neko`.
 */
import { eventWhenOf } from "./EventCues.js"
import type { EventWhenRaw } from "../../memory/facts/Fact.js"

export interface Extracted {
  readonly text: string
  readonly importance: number
  readonly entity: "master" | "neko" | "relationship"
  readonly event_when: EventWhenRaw
  readonly source: "user_observation" | "ai_disclosure"
}

export interface Utterance {
  readonly speaker: "human" | "ai"
  readonly text: string
}

type Rule = readonly [RegExp, (m: RegExpExecArray, s: string) => string, number]

const clean = (x: string | undefined) => (x ?? "").trim().replace(/[\s.!?。！？,，、~～]+$/u, "")
const third: Readonly<Record<string, string>> = {
  love: "loves",
  like: "likes",
  enjoy: "enjoys",
  adore: "adores",
  prefer: "prefers",
  hate: "hates",
  went: "went",
  visited: "visited",
  started: "started",
  finished: "finished",
  quit: "quit",
  bought: "bought",
  met: "met",
  traveled: "traveled",
  travelled: "travelled",
  adopted: "adopted",
  lost: "lost",
  won: "won"
}

const english: ReadonlyArray<Rule> = [
  [/\bmy name is ([A-Z][\w'-]*(?: [A-Z][\w'-]*)?)/i, (m, s) => `${s}'s name is ${clean(m[1])}`, 10],
  [/\b(?:you can )?call me ([\w'-]+)/i, (m, s) => `${s} wants to be called ${clean(m[1])}`, 10],
  [/\bI(?:'m| am) (\d{1,3}) (?:years old|yo)\b/i, (m, s) => `${s} is ${m[1]} years old`, 9],
  [/\bmy birthday is (.+)/i, (m, s) => `${s}'s birthday is ${clean(m[1])}`, 10],
  [/\b(?:please )?remember (?:that )?(.+)/i, (m, s) => `${s} asked to remember: ${clean(m[1])}`, 10],
  [
    /\b(?:please )?(?:don't|do not|never|stop) (?:mention|bring up|talk about|ask about) (.+)/i,
    (m, s) => `${s} does not want to talk about ${clean(m[1])}`,
    9
  ],
  [
    /\bI (?:really |absolutely |truly )?(love|like|enjoy|adore|prefer) (.+)/i,
    (m, s) => `${s} ${third[(m[1] ?? "").toLowerCase()] ?? "likes"} ${clean(m[2])}`,
    6
  ],
  [
    /\bI (?:really )?(?:hate|dislike|can't stand|cannot stand|don't like|do not like) (.+)/i,
    (m, s) => `${s} dislikes ${clean(m[1])}`,
    6
  ],
  [/\bI (?:work|am working|'m working) (?:at|for|in) (.+)/i, (m, s) => `${s} works at ${clean(m[1])}`, 8],
  [/\bI work as (?:an? )?(.+)/i, (m, s) => `${s} works as ${clean(m[1])}`, 8],
  [/\bI (?:live|am living|'m living) in (.+)/i, (m, s) => `${s} lives in ${clean(m[1])}`, 8],
  [/\bI (?:just |recently )?moved to (.+)/i, (m, s) => `${s} moved to ${clean(m[1])}`, 8],
  [
    /\bI (?:have|own|got|adopted) (an? |two |three |\d+ )(.+)/i,
    (m, s) => `${s} has ${(m[1] ?? "").trim()} ${clean(m[2])}`,
    7
  ],
  [
    /\bmy ((?:\w+ )?\w+) (?:is|are|was|were) (.+)/i,
    (m, s) => `${s}'s ${clean(m[1])} ${/s$/.test(m[1] ?? "") ? "are" : "is"} ${clean(m[2])}`,
    7
  ],
  [/\bI(?:'m| am) (?:an? )([\w -]{2,40})$/i, (m, s) => `${s} is a ${clean(m[1])}`, 7],
  [
    /\bI (went|visited|traveled|travelled|started|finished|quit|bought|met|lost|won) (.+)/i,
    (m, s) => `${s} ${third[(m[1] ?? "").toLowerCase()] ?? m[1]} ${clean(m[2])}`,
    6
  ]
]

const chinese: ReadonlyArray<Rule> = [
  [/我(?:叫|的名字是|的名字叫)(.+)/, (m, s) => `${s}的名字是${clean(m[1])}`, 10],
  [/我(?:今年)?(\d{1,3})岁/, (m, s) => `${s}今年${m[1]}岁`, 9],
  [/我的生日是(.+)/, (m, s) => `${s}的生日是${clean(m[1])}`, 10],
  [/(?:请|請)?记住(.+)|(?:請)?記住(.+)/, (m, s) => `${s}希望记住：${clean(m[1] ?? m[2])}`, 10],
  [/(?:不要|别|別)(?:再)?(?:提|说|說|问|問)(.+)/, (m, s) => `${s}不希望再提起${clean(m[1])}`, 9],
  [
    /我(?:很|非常|最|特别|特別|超)?(喜欢|喜歡|爱|愛|讨厌|討厭|不喜欢|不喜歡)(.+)/,
    (m, s) => `${s}${m[1]}${clean(m[2])}`,
    6
  ],
  [/我(?:住在|家在)(.+)/, (m, s) => `${s}住在${clean(m[1])}`, 8],
  [/我(?:搬到|搬去)了?(.+)/, (m, s) => `${s}搬到了${clean(m[1])}`, 8],
  [/我在(.+?)(工作|上班|上学|上學|读书|讀書)/, (m, s) => `${s}在${clean(m[1])}${m[2]}`, 8],
  [/我有(.+)/, (m, s) => `${s}有${clean(m[1])}`, 7],
  [/我的(.{1,8}?)是(.+)/, (m, s) => `${s}的${clean(m[1])}是${clean(m[2])}`, 7],
  [/我是(.{1,15})$/, (m, s) => `${s}是${clean(m[1])}`, 7],
  [/我(去了|买了|買了|开始|開始|参加了|參加了|见了|見了)(.+)/, (m, s) => `${s}${m[1]}${clean(m[2])}`, 6]
]

const japanese: ReadonlyArray<Rule> = [
  [
    /(?:私|僕|俺)の名前は(.+?)(?:です|だ)?$|(.+?)と(?:申します|いいます)/,
    (m, s) => `${s}の名前は${clean(m[1] ?? m[2])}`,
    10
  ],
  [/(\d{1,3})歳/, (m, s) => `${s}は${m[1]}歳`, 9],
  [/覚えて(?:おいて|ね|ください)?[、,]?(.*)/, (m, s) => `${s}が覚えてほしいこと：${clean(m[1])}`, 10],
  [
    /(.+?)(?:には|のことは|は)?(?:触れないで|言わないで|話さないで)/,
    (m, s) => `${s}は${clean(m[1])}の話をしてほしくない`,
    9
  ],
  [/(?:私は|僕は|俺は)?(.+?)が(?:大)?好き/, (m, s) => `${s}は${clean(m[1])}が好き`, 6],
  [/(?:私は|僕は|俺は)?(.+?)が(?:嫌い|苦手)/, (m, s) => `${s}は${clean(m[1])}が苦手`, 6],
  [/(.+?)に住んでいます|(.+?)に住んでる/, (m, s) => `${s}は${clean(m[1] ?? m[2])}に住んでいる`, 8],
  [/(.+?)で働いて/, (m, s) => `${s}は${clean(m[1])}で働いている`, 8],
  [/(.+?)を飼って/, (m, s) => `${s}は${clean(m[1])}を飼っている`, 7],
  [/(?:私|僕|俺)は(.{1,15})です$/, (m, s) => `${s}は${clean(m[1])}`, 7]
]

const hasCjk = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]/
const hasKana = /[\u3040-\u30ff]/
const informative = /\d|\b[A-Z][a-z]+\b/
const firstPerson = /\b(I|I'm|I've|my|me)\b/
const we = /\b(we|us|our)\b|我们|我們|私たち|僕たち/i

const splitCjk = (text: string) =>
  text
    .split(/(?<=[。！？!?])|\n+/)
    .map((s) => s.trim())
    .filter((s) => s !== "")

export const extractFacts = (
  utterances: ReadonlyArray<Utterance>,
  names: { readonly master: string; readonly character: string },
  sentencesOf: (text: string) => ReadonlyArray<string>
): Array<Extracted> => {
  const out: Array<Extracted> = []
  const seen = new Set<string>()
  for (const u of utterances) {
    const speaker = u.speaker === "human" ? names.master : names.character
    const cjk = hasCjk.test(u.text)
    const rules = cjk ? (hasKana.test(u.text) ? japanese : chinese) : english
    for (const raw of cjk ? splitCjk(u.text) : sentencesOf(u.text)) {
      const sentence = clean(raw)
      let matched = false
      for (const [re, render, importance] of rules) {
        const m = re.exec(sentence)
        if (!m) continue
        const text = render(m, speaker)
        if (clean(text).length < speaker.length + 2) continue
        matched = true
        if (seen.has(text)) break
        seen.add(text)
        out.push({
          text,
          importance,
          entity: we.test(sentence) ? "relationship" : u.speaker === "human" ? "master" : "neko",
          event_when: eventWhenOf(sentence),
          source: u.speaker === "human" ? "user_observation" : "ai_disclosure"
        })
        break
      }
      if (
        !matched &&
        !cjk &&
        firstPerson.test(sentence) &&
        informative.test(sentence) &&
        sentence.split(/\s+/).length >= 4
      ) {
        const text = `${speaker} said: ${clean(sentence)}`
        if (!seen.has(text)) {
          seen.add(text)
          out.push({
            text,
            importance: 4,
            entity: u.speaker === "human" ? "master" : "neko",
            event_when: eventWhenOf(sentence),
            source: u.speaker === "human" ? "user_observation" : "ai_disclosure"
          })
        }
      }
    }
  }
  return out
}
