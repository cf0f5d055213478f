/**
 * Section headers and frames of the persona block of `/new_dialog`, in every supported language. N.E.K.O.
 * prints the Chinese headers for every locale except zh-TW; kioku uses the request's language.
 */
import type { Language } from "../domain/Locale.js"

type Table = Readonly<Record<Language, string>>

export const headers: Readonly<
  Record<"neko" | "master" | "relationship" | "pending" | "confirmed" | "stale" | "suppressed", Table>
> = {
  neko: {
    zh: "关于{ai}",
    "zh-TW": "關於{ai}",
    en: "About {ai}",
    ja: "{ai}について",
    ko: "{ai}에 대해",
    ru: "О персонаже {ai}",
    es: "Sobre {ai}",
    pt: "Sobre {ai}"
  },
  master: {
    zh: "关于{master}",
    "zh-TW": "關於{master}",
    en: "About {master}",
    ja: "{master}について",
    ko: "{master}에 대해",
    ru: "О {master}",
    es: "Sobre {master}",
    pt: "Sobre {master}"
  },
  relationship: {
    zh: "关系动态",
    "zh-TW": "關係動態",
    en: "Relationship",
    ja: "関係性",
    ko: "관계",
    ru: "Отношения",
    es: "Relación",
    pt: "Relação"
  },
  pending: {
    zh: "{ai}最近的印象（还不太确定）",
    "zh-TW": "{ai}最近的印象（還不太確定）",
    en: "{ai}'s recent impressions (not yet certain)",
    ja: "{ai}の最近の印象（まだ確かではない）",
    ko: "{ai}의 최근 인상 (아직 확실하지 않음)",
    ru: "Недавние впечатления {ai} (пока не точно)",
    es: "Impresiones recientes de {ai} (aún no seguras)",
    pt: "Impressões recentes de {ai} (ainda incertas)"
  },
  confirmed: {
    zh: "{ai}比较确定的印象",
    "zh-TW": "{ai}比較確定的印象",
    en: "{ai}'s fairly certain impressions",
    ja: "{ai}がほぼ確かだと思う印象",
    ko: "{ai}가 꽤 확신하는 인상",
    ru: "Довольно уверенные впечатления {ai}",
    es: "Impresiones bastante seguras de {ai}",
    pt: "Impressões bastante certas de {ai}"
  },
  stale: {
    zh: "较早的记忆（可能已经过时，只作背景）",
    "zh-TW": "較早的記憶（可能已經過時，只作背景）",
    en: "Older memories (may be out of date; background only)",
    ja: "以前の記憶（古くなっているかもしれない。背景としてのみ）",
    ko: "예전 기억 (지금은 다를 수 있음, 배경으로만)",
    ru: "Более старые воспоминания (могли устареть; только как фон)",
    es: "Recuerdos más antiguos (pueden estar desactualizados; solo de contexto)",
    pt: "Memórias mais antigas (podem estar desatualizadas; apenas contexto)"
  },
  suppressed: {
    zh: "最近已多次提到，不要主动提起",
    "zh-TW": "最近已多次提到，不要主動提起",
    en: "Mentioned a lot lately: do not bring these up unprompted",
    ja: "最近何度も話題にしたので、自分からは持ち出さないこと",
    ko: "최근 여러 번 언급함: 먼저 꺼내지 말 것",
    ru: "Недавно упоминалось много раз: не поднимать самому",
    es: "Mencionado mucho últimamente: no sacarlo por iniciativa propia",
    pt: "Mencionado muitas vezes ultimamente: não puxar o assunto"
  }
}

const ago: Readonly<
  Record<Language, readonly [months: string, weeks: string, days: string, hours: string, now: string]>
> = {
  zh: ["{n}个月前", "{n}周前", "{n}天前", "{n}小时前", "刚才"],
  "zh-TW": ["{n}個月前", "{n}週前", "{n}天前", "{n}小時前", "剛才"],
  en: ["{n} months ago", "{n} weeks ago", "{n} days ago", "{n} hours ago", "just now"],
  ja: ["{n}か月前", "{n}週間前", "{n}日前", "{n}時間前", "さっき"],
  ko: ["{n}개월 전", "{n}주 전", "{n}일 전", "{n}시간 전", "방금"],
  ru: ["{n} мес. назад", "{n} нед. назад", "{n} дн. назад", "{n} ч. назад", "только что"],
  es: ["hace {n} meses", "hace {n} semanas", "hace {n} días", "hace {n} horas", "ahora mismo"],
  pt: ["há {n} meses", "há {n} semanas", "há {n} dias", "há {n} horas", "agora mesmo"]
}

/** How long ago: months from 60 days, weeks from 14 days, then days, hours, or "just now". */
export const relative = (millis: number, lang: Language): string => {
  const [mo, w, d, h, now] = ago[lang]
  const hours = Math.floor(Math.max(0, millis) / 3_600_000)
  const days = Math.floor(hours / 24)
  const n = (s: string, v: number) => s.replace("{n}", String(v))
  if (days >= 60) return n(mo, Math.floor(days / 30))
  if (days >= 14) return n(w, Math.floor(days / 7))
  if (days >= 1) return n(d, days)
  return hours >= 1 ? n(h, hours) : now
}
