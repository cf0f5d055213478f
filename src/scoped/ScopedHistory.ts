/**
 * Extraction for `scoped_history` (neko-compat §1.7): each segment's messages go through the facts'
 * extraction task (a model when one is configured, else the `local` provider), one call per segment, with
 * the segment's speaker in the master's place, so a member's statements become facts about that member, not
 * about the private-chat master. A group digest without a speaker names the group's members collectively;
 * for the `local` provider its lines that begin with a speaker header (`[Alice] …`, `Alice: …`) are read as
 * that speaker's own words. Messages longer than 500 tokens keep their head and tail; the bodies of a
 * `segments` batch also share N.E.K.O.'s 8,000-token content budget (BatchBudget.ts). Runs outside the
 * character's mailbox: only the write that follows is serialised.
 */
import { Effect, Option } from "effect"
import type { Language } from "../domain/Locale.js"
import { contentText } from "../domain/Message.js"
import { FactTasks } from "../facts/FactTasks.js"
import type { Utterance } from "../facts/local/LocalFacts.js"
import type { LlmError } from "../llm/LlmClient.js"
import { Tokenizer } from "../llm/Tokenizer.js"
import { makeBudget, PER_MESSAGE_MAX_TOKENS } from "./BatchBudget.js"
import { sanitizeLabel, type Segment } from "./ScopedRequests.js"
import type { ScopedCandidate } from "./ScopedWrite.js"

const groupMembers: Readonly<Record<Language, string>> = {
  zh: "群里的成员（每条消息开头写着说话的人）",
  "zh-TW": "群組裡的成員（每則訊息開頭寫著說話的人）",
  en: "the group's members (each message starts with who said it)",
  ja: "グループのメンバー（各メッセージの先頭に話した人の名前）",
  ko: "그룹 멤버들 (각 메시지 앞에 말한 사람의 이름)",
  ru: "участники группы (в начале каждого сообщения указано, кто говорит)",
  es: "los miembros del grupo (cada mensaje empieza con quién lo dijo)",
  pt: "os membros do grupo (cada mensagem começa com quem a disse)"
}

const omitted: Readonly<Record<Language, string>> = {
  zh: "…（省略）…",
  "zh-TW": "…（省略）…",
  en: "…(omitted)…",
  ja: "…（省略）…",
  ko: "…(생략)…",
  ru: "…(пропущено)…",
  es: "…(omitido)…",
  pt: "…(omitido)…"
}

const header =
  /^\s*(?:\[([^\]\n]{1,64})\]\s*[:：]?|【([^】\n]{1,64})】\s*[:：]?|([^\s:：[\]【】][^:：\n]{0,39})[:：])\s*(\S[\s\S]*)$/u

/** A digest line split into its speaker header (without a trailing `(id)`) and the words, when it has one. */
export const splitHeader = (text: string): { readonly speaker: string; readonly words: string } | undefined => {
  const m = header.exec(text)
  const name = m?.[1] ?? m?.[2] ?? m?.[3]
  const words = m?.[4]
  if (name === undefined || words === undefined) return undefined
  const speaker = sanitizeLabel(name.replace(/\s*[(（][^)）]*[)）]\s*$/u, ""))
  return speaker === "" ? undefined : { speaker, words }
}

export const make = Effect.gen(function* () {
  const tasks = yield* FactTasks
  const tokens = yield* Tokenizer

  const clip = (text: string, lang: Language) => {
    if (text.length < PER_MESSAGE_MAX_TOKENS) return text
    const count = tokens.count(text)
    if (count <= PER_MESSAGE_MAX_TOKENS) return text
    const keep = Math.max(1, Math.floor((text.length * PER_MESSAGE_MAX_TOKENS) / count / 2))
    return `${text.slice(0, keep)}${omitted[lang]}${text.slice(-keep)}`
  }

  const spoken = (segment: Segment) =>
    segment.messages.flatMap(
      (m): ReadonlyArray<Utterance> =>
        m.type === "human" || m.type === "ai" ? [{ speaker: m.type, text: contentText(m.data.content) }] : []
    )

  /**
   * The candidates of one segment, its message bodies clipped to 500 tokens (or given, already budgeted);
   * fails when the model's answer is unusable (the route's 502).
   */
  const extract = (
    segment: Segment,
    options: { readonly language: Language; readonly character: string },
    bodies?: ReadonlyArray<string>
  ): Effect.Effect<ReadonlyArray<ScopedCandidate>, LlmError> =>
    Effect.gen(function* () {
      const lang = options.language
      const utterances = spoken(segment).flatMap((u, i): ReadonlyArray<Utterance> => {
        const text = (bodies?.[i] ?? clip(u.text, lang)).trim()
        return text === "" ? [] : [{ speaker: u.speaker, text }]
      })
      if (utterances.length === 0) return []
      const master = segment.speakerLabel ?? groupMembers[lang]
      const run = (us: ReadonlyArray<Utterance>, speaker: string) =>
        tasks.extractFacts({ utterances: us, language: lang, names: { master: speaker, character: options.character } })
      const split =
        segment.speakerLabel === undefined && tasks.extractsLocally()
          ? utterances.map((u) => (u.speaker === "human" ? Option.fromNullable(splitHeader(u.text)) : Option.none()))
          : []
      const found = split.some(Option.isSome)
        ? yield* Effect.forEach(utterances, (u, i) => {
            const h = split[i]
            return h !== undefined && Option.isSome(h)
              ? run([{ speaker: "human", text: h.value.words }], h.value.speaker)
              : run([u], master)
          }).pipe(Effect.map((xs) => xs.flat()))
        : yield* run(utterances, master)
      return found.map((e) => ({
        text: e.text,
        importance: e.importance,
        source: e.source,
        event_when: e.event_when
      }))
    })

  /** Every segment's candidates or failure; a `segments` batch's bodies share its content budget first. */
  const extractAll = (
    segments: ReadonlyArray<Segment>,
    options: { readonly language: Language; readonly character: string }
  ) => {
    const budgeted = segments.some((s) => s.batched)
      ? makeBudget(tokens, omitted[options.language]).apply(segments.map((s) => spoken(s).map((u) => u.text)))
      : undefined
    return Effect.forEach(segments, (s, i) => Effect.either(extract(s, options, budgeted?.[i])))
  }

  return { extract, extractAll }
})
