/**
 * How an owner's message is read against a fact (kioku's reading around N.E.K.O.'s rule, OwnerRelation.ts):
 * the whole message first, exactly as N.E.K.O. does; else each sentence of it after one leading interjection
 * (`Yes, …`, `No, …`, `对，…`, `違う、…`), when the sentences that relate agree — and never a confirmation after
 * a negative interjection. A message with a question mark gives nothing. `keys` are the relation keys of the
 * whole and of each sentence, to find the facts worth trying.
 */
import { deterministicRelation, relationKey, type Relation } from "./OwnerRelation.js"

const LEADING_CUE =
  /^(yes|yeah|yep|right|true|correct|exactly|indeed|no|nope|nah|wrong|actually|对|对的|是的|没错|确实|確かに|不|不对|不是的|错了|そう|そうだ|はい|いいえ|違う|ちがう)\s*[,，、.。!！:：]+\s*/i
const NEGATIVE_CUE = /^(no|nope|nah|wrong|不|不对|不是的|错了|いいえ|違う|ちがう)$/i

export interface ReadMessage {
  readonly text: string
  /** The sentences after the leading interjection; none for a question. */
  readonly sentences: ReadonlyArray<string>
  /** The message opens with a negative interjection (`No, …`, `不，…`). */
  readonly refuting: boolean
  readonly keys: ReadonlySet<string>
}

export const readMessage = (message: string): ReadMessage => {
  const text = message.trim()
  const cue = LEADING_CUE.exec(text)
  const rest = cue === null ? text : text.slice(cue[0].length)
  const sentences = /[?？]/.test(text)
    ? []
    : rest
        .split(/[.!;。！；\n]+/)
        .map((s) => s.trim())
        .filter((s) => s !== "")
  return {
    text: message,
    sentences,
    refuting: cue !== null && NEGATIVE_CUE.test(cue[1] ?? ""),
    keys: new Set([relationKey(message), ...sentences.map(relationKey)])
  }
}

export const relationOf = (fact: string, m: ReadMessage): Relation | undefined => {
  const whole = deterministicRelation(fact, m.text)
  if (whole !== undefined) return whole
  const found = new Set(m.sentences.flatMap((s) => [deterministicRelation(fact, s)].filter((r) => r !== undefined)))
  if (found.size !== 1) return undefined
  const [only] = found
  return only === "confirmation" && m.refuting ? undefined : only
}

export const relationOfMessage = (fact: string, message: string): Relation | undefined =>
  relationOf(fact, readMessage(message))
