/**
 * The `scoped_context` text (neko-compat §1.7): for the requested subjects only, in the caller's order — the
 * order is the budget priority — one section per subject holding its persona entries (the `@subject/…`
 * section, entries stamped with that subject) and its pending and confirmed reflections, best first. The
 * subjects share `scoped_render_total_max_tokens`; a subject reached with less than
 * `scoped_render_subject_min_tokens` left is dropped whole (half a persona reads as a whole one). Suppressed
 * entries of the rendered subjects close the text in a do-not-raise section, outside the budget and capped
 * by count. Private memory never appears. A pure function.
 */
import type { Language } from "../domain/Locale.js"
import { personaSectionKey, stampedWith, subjectMarker, type MemorySubject } from "../domain/Subject.js"
import type { PersonaFile } from "../persona/Persona.js"
import { headers } from "../persona/PersonaHeaders.js"
import { score, type EvidenceTunables } from "../reflection/evidence/Evidence.js"
import type { Reflection } from "../reflection/Reflection.js"

type Table = Readonly<Record<Language, string>>

const kindHeaders: Readonly<Record<MemorySubject["kind"], Table>> = {
  group_chat: {
    zh: "群聊记忆",
    "zh-TW": "群組聊天記憶",
    en: "Group chat memory",
    ja: "グループチャットの記憶",
    ko: "그룹 채팅 기억",
    ru: "Память группового чата",
    es: "Memoria del chat grupal",
    pt: "Memória do chat em grupo"
  },
  participant: {
    zh: "成员记忆",
    "zh-TW": "成員記憶",
    en: "Participant memory",
    ja: "メンバーの記憶",
    ko: "멤버 기억",
    ru: "Память об участнике",
    es: "Memoria del participante",
    pt: "Memória do participante"
  },
  group_participant: {
    zh: "群成员记忆",
    "zh-TW": "群組成員記憶",
    en: "Group member memory",
    ja: "グループメンバーの記憶",
    ko: "그룹 멤버 기억",
    ru: "Память об участнике группы",
    es: "Memoria del miembro del grupo",
    pt: "Memória do membro do grupo"
  }
}

const wide = (lang: Language) => lang === "zh" || lang === "zh-TW" || lang === "ja"

/** `Group chat memory (name, qq:42)`: the kind's header with the display name, when known, and the id. */
export const subjectHeader = (s: MemorySubject, lang: Language, displayName: string | undefined): string => {
  const inner = displayName === undefined ? s.subjectId : `${displayName}${wide(lang) ? "，" : ", "}${s.subjectId}`
  return wide(lang) ? `${kindHeaders[s.kind][lang]}（${inner}）` : `${kindHeaders[s.kind][lang]} (${inner})`
}

export interface ContextTunables extends EvidenceTunables {
  readonly scoped_render_total_max_tokens: number
  readonly scoped_render_subject_min_tokens: number
  readonly persona_render_suppressed_max_entries: number
}

export interface ContextInput {
  readonly subjects: ReadonlyArray<MemorySubject>
  readonly persona: PersonaFile
  readonly reflections: ReadonlyArray<Reflection>
  readonly displayNames: ReadonlyMap<string, string>
  readonly language: Language
  readonly names: { readonly character: string; readonly master: string }
  readonly nowMillis: number
  readonly tunables: ContextTunables
  readonly count: (text: string) => number
}

const MARKUP_TOKENS = 12

export const renderContext = (input: ContextInput): string => {
  const { tunables: t, nowMillis: now, count, language: lang } = input
  let left = t.scoped_render_total_max_tokens
  const out: Array<string> = []
  const quiet: Array<string> = []
  for (const s of input.subjects) {
    const mine = stampedWith([s])
    const section = input.persona[personaSectionKey(s)]
    const entries = (section?.facts ?? []).filter((e) => mine(e) && e.text.trim() !== "")
    const suppressed = entries.filter((e) => e.suppress).map((e) => e.text)
    const ranked = [
      ...entries.filter((e) => e.protected && !e.suppress).map((e) => ({ text: e.text, rank: Infinity })),
      ...entries.filter((e) => !e.protected && !e.suppress).map((e) => ({ text: e.text, rank: score(e, now, t) })),
      ...input.reflections
        .filter((r) => mine(r) && r.text.trim() !== "" && !r.suppress)
        .filter((r) => r.status === "pending" || (r.status === "confirmed" && score(r, now, t) > 0))
        .map((r) => ({ text: r.text, rank: score(r, now, t) }))
    ].sort((a, b) => b.rank - a.rank)
    if (ranked.length > 0 && left < t.scoped_render_subject_min_tokens) continue
    quiet.push(...suppressed)
    const lines: Array<string> = []
    for (const item of ranked) {
      const cost = count(item.text) + MARKUP_TOKENS
      if (cost > left) continue
      left -= cost
      lines.push(`- ${item.text}`)
    }
    if (lines.length > 0)
      out.push(`### ${subjectHeader(s, lang, input.displayNames.get(subjectMarker(s)))}\n${lines.join("\n")}`)
  }
  const hidden = [...new Set(quiet)].slice(0, t.persona_render_suppressed_max_entries)
  if (hidden.length > 0) {
    const title = headers.suppressed[lang]
      .replaceAll("{ai}", input.names.character)
      .replaceAll("{master}", input.names.master)
    out.push(`### ${title}\n${hidden.map((x) => `- ${x}`).join("\n")}`)
  }
  return out.join("\n\n")
}
