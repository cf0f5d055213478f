/**
 * The shared vocabulary of the `local` extraction engine: who is speaking (the speaker's own name and the
 * addressee's), what one analysed sentence is (a fact, a directive, or something that is not a fact), the
 * topics a fact can be about, and N.E.K.O.'s importance rubric over those topics (names, birthdays and
 * "remember this" 10; health, family, work, home 8; plans and pets 7; preferences, habits and notable
 * events 6; a plain statement 5; a one-off daily event 3). Each language module fills an `Analysis`.
 */
import type { EventWhenRaw } from "../../Fact.js"

export type Entity = "master" | "neko" | "relationship"

export interface Names {
  readonly master: string
  readonly character: string
}

/** The speaker of an utterance, as the rewriting needs them: "I" is `self`, "you" is `other`. */
export interface Voice {
  readonly human: boolean
  readonly self: string
  readonly other: string
}

export const voiceOf = (speaker: "human" | "ai", names: Names): Voice =>
  speaker === "human"
    ? { human: true, self: names.master, other: names.character }
    : { human: false, self: names.character, other: names.master }

export type Topic =
  | "remember"
  | "identity"
  | "directive"
  | "health"
  | "family"
  | "work"
  | "home"
  | "plan"
  | "pet"
  | "relationship"
  | "preference"
  | "habit"
  | "milestone"
  | "daily"

const weight: Readonly<Record<Topic, number>> = {
  remember: 10,
  identity: 10,
  directive: 9,
  health: 8,
  family: 8,
  work: 8,
  home: 8,
  plan: 7,
  pet: 7,
  relationship: 7,
  preference: 6,
  habit: 6,
  milestone: 6,
  daily: 3
}

/**
 * What one sentence is. `fact`: a third-person statement worth keeping. `directive`: a request not to
 * bring something up (kept by the memo whatever the budget). `filler`: greetings, thanks, acknowledgements,
 * laughter. `question`. `remark`: reactions and passing remarks, and statements about nobody in particular.
 */
export type Kind = "fact" | "directive" | "filler" | "question" | "remark"

export interface Analysis {
  readonly kind: Kind
  /** The third-person text for facts and directives; the cleaned sentence otherwise. */
  readonly text: string
  readonly topics: ReadonlyArray<Topic>
  /** The fact is about both of them (shared activities, feelings between them). */
  readonly shared: boolean
}

export interface Analysed extends Analysis {
  readonly source: string
  readonly importance: number
  readonly entity: Entity
  readonly event_when: EventWhenRaw
}

export const notFact = (kind: Exclude<Kind, "fact" | "directive">, text: string): Analysis => ({
  kind,
  text,
  topics: [],
  shared: false
})

/** Importance from the topics: the weightiest one; a plain statement is 5, a past one-off event 4. */
export const importanceOf = (topics: ReadonlyArray<Topic>, when: EventWhenRaw): number => {
  const ranked = topics.filter((t) => t !== "daily").map((t) => weight[t])
  if (ranked.length > 0) return Math.max(...ranked)
  if (topics.includes("daily")) return weight.daily
  const offset = when?.start?.offset
  return offset !== undefined && offset < 0 ? 4 : 5
}

export const entityOf = (voice: Voice, shared: boolean): Entity =>
  shared ? "relationship" : voice.human ? "master" : "neko"

/** The topics whose table entry matches `text`, in table order. */
export const topicsIn = (text: string, table: ReadonlyArray<readonly [Topic, RegExp]>): Array<Topic> => {
  const out: Array<Topic> = []
  for (const [topic, re] of table) if (re.test(text) && !out.includes(topic)) out.push(topic)
  return out
}
