/**
 * The localized strings of the `recall_memory` tool (neko-compat §1.9): the "found n" header, the tier and
 * entity labels of each line, the relative-time labels, the no-result and "loosen the filter" answers and
 * the tool's descriptions. Chinese, Traditional Chinese, English and Japanese are complete; Korean,
 * Russian, Spanish and Portuguese have their own header, time labels and answers and use the English
 * labels and descriptions (Traditional Chinese uses the Simplified descriptions).
 */
import type { Language } from "../domain/Locale.js"

type Table = Readonly<Record<Language, string>>
export type SomeLanguages = Readonly<{ readonly [L in Language]?: string }>

export const foundHeader: Table = {
  zh: "找到 {n} 条相关记忆：",
  "zh-TW": "找到 {n} 條相關記憶：",
  en: "Found {n} relevant memories:",
  ja: "関連する記憶を {n} 件見つけました：",
  ko: "관련된 기억 {n} 건을 찾았습니다:",
  ru: "Найдено {n} релевантных воспоминаний:",
  es: "Se encontraron {n} memorias relevantes:",
  pt: "Foram encontradas {n} memórias relevantes:"
}

export const noResult: Table = {
  zh: "没有找到相关记忆。",
  "zh-TW": "沒有找到相關記憶。",
  en: "No relevant memory found.",
  ja: "関連する記憶が見つかりませんでした。",
  ko: "관련된 기억을 찾지 못했습니다.",
  ru: "Соответствующих воспоминаний не найдено.",
  es: "No se encontró ninguna memoria relevante.",
  pt: "Nenhuma memória relevante encontrada."
}

export const loosen: Table = {
  zh: "在该时间范围内没有找到匹配「{query}」的记忆。建议放宽过滤条件重试一次：要么只用 time（按时间回溯该时段的记忆），要么只用 query（不限时间地语义检索）。",
  "zh-TW":
    "在該時間範圍內沒有找到符合「{query}」的記憶。建議放寬過濾條件重試一次：要麼只用 time（按時間回溯該時段的記憶），要麼只用 query（不限時間地語義檢索）。",
  en: 'No memory matched "{query}" within that time range. Try loosening the filter and querying once more: either with time only (recall memories from that period) or with query only (semantic search without a time limit).',
  ja: "その時間範囲で「{query}」に一致する記憶は見つかりませんでした。フィルタを緩めてもう一度試してください：time だけ（その期間の記憶を回想）か、query だけ（時間制限なしの意味検索）のどちらかで。",
  ko: '해당 시간 범위에서 "{query}"에 일치하는 기억을 찾지 못했습니다. 필터를 완화해 다시 시도해 보세요: time만 사용(해당 기간의 기억 회상)하거나 query만 사용(시간 제한 없는 의미 검색)하세요.',
  ru: "В этом диапазоне времени не нашлось воспоминаний по запросу «{query}». Попробуйте ослабить фильтр и запросить ещё раз: либо только time (вспомнить воспоминания за тот период), либо только query (семантический поиск без ограничения по времени).",
  es: 'No se encontró ninguna memoria que coincidiera con "{query}" en ese rango de tiempo. Prueba a aflojar el filtro y consultar de nuevo: con solo time (recordar memorias de ese período) o con solo query (búsqueda semántica sin límite de tiempo).',
  pt: 'Nenhuma memória correspondeu a "{query}" nesse intervalo de tempo. Tente afrouxar o filtro e consultar novamente: apenas com time (recordar memórias daquele período) ou apenas com query (busca semântica sem limite de tempo).'
}

export const tierLabels: Readonly<Record<string, SomeLanguages>> = {
  fact: { zh: "事实", "zh-TW": "事實", en: "fact", ja: "事実" },
  reflection: { zh: "印象", "zh-TW": "印象", en: "impression", ja: "印象" },
  fact_archive: { zh: "归档事实", "zh-TW": "歸檔事實", en: "archived fact", ja: "アーカイブ済みの事実" },
  turn: { zh: "对话", "zh-TW": "對話", en: "conversation", ja: "会話" }
}

export const entityLabels: Readonly<Record<string, SomeLanguages>> = {
  master: { zh: "关于用户", "zh-TW": "關於使用者", en: "about the user", ja: "ユーザーについて" },
  neko: { zh: "关于自己", "zh-TW": "關於自己", en: "about self", ja: "自分について" },
  relationship: { zh: "关系", "zh-TW": "關係", en: "relationship", ja: "関係" },
  group_chat: { zh: "群聊", "zh-TW": "群聊", en: "group chat", ja: "グループチャット" },
  participant: { zh: "参与者", "zh-TW": "參與者", en: "participant", ja: "参加者" },
  group_participant: { zh: "群成员", "zh-TW": "群成員", en: "group member", ja: "グループメンバー" },
  user_said: { zh: "用户说", "zh-TW": "使用者說", en: "the user said", ja: "ユーザーの発言" },
  self_said: { zh: "自己说", "zh-TW": "自己說", en: "I said", ja: "自分の発言" }
}

/** [now, n days, n weeks, n months]. */
export const sinceLabels: Readonly<Record<Language, readonly [string, string, string, string]>> = {
  zh: ["当下", "{n} 天前", "{n} 周前", "{n} 月前"],
  "zh-TW": ["當下", "{n} 天前", "{n} 週前", "{n} 月前"],
  en: ["now", "{n}d ago", "{n}w ago", "{n}mo ago"],
  ja: ["今", "{n} 日前", "{n} 週間前", "{n} ヶ月前"],
  ko: ["지금", "{n}일 전", "{n}주 전", "{n}개월 전"],
  ru: ["сейчас", "{n} дн назад", "{n} нед назад", "{n} мес назад"],
  es: ["ahora", "hace {n}d", "hace {n}sem", "hace {n}mes"],
  pt: ["agora", "há {n}d", "há {n}sem", "há {n}mês"]
}

export const toolDescription: SomeLanguages = {
  zh: "回忆与当前对话相关的过往记忆。当你需要查阅之前的对话内容、用户偏好、过去发生的事情，或对当前话题缺少必要背景时调用此工具。",
  en: "Recall past memories relevant to the current conversation. Call this when you need earlier dialogue content, user preferences, things that happened before, or background context you currently lack.",
  ja: "現在の会話に関連する過去の記憶を呼び出します。以前の会話内容、ユーザーの好み、過去の出来事、または現在の話題に必要な背景が不足している時にこのツールを呼び出してください。"
}

export const queryDescription: SomeLanguages = {
  zh: '要回忆的关键词、问题或话题。用一两句话简洁概括，例如"上次提到的旅行计划"或"用户对咖啡的喜好"。query 和 time 至少提供一个：只想按时间回溯时可只填 time、留空 query。',
  en: 'Keyword, question, or topic to recall. Keep it to a sentence or two, e.g. "the travel plan mentioned earlier" or "the user\'s coffee preferences". Provide at least one of query / time: for a pure time lookup you may fill only time and leave query empty.',
  ja: "思い出したいキーワード、質問、話題。一、二文で簡潔にまとめてください。例：「以前話した旅行計画」「ユーザーのコーヒーの好み」。query と time は少なくとも一方を指定：時間でさかのぼるだけなら time のみ指定し query は空でも可。"
}

export const timeDescription: SomeLanguages = {
  zh: '可选。把检索限定在某个时间段。只填 time（不填 query）就返回离那段时间最近的若干条记忆（事实和印象都包含，适合"那天/那周发生了什么"）；同时填 query 则做"语义+时间"联合检索——在该时间段内按 query 语义找相关记忆（适合"五月聊过的旅行计划"）。支持整点小时 2026-05-01T14、单日 2026-05-01、整月 2026-05、整年 2026，或区间 2026-05-01/2026-05-07、2026-05-01T09/2026-05-01T18。不填则按 query 做全量语义检索。',
  en: 'Optional. Restrict recall to a time period. With time only (no query) it returns the memories closest to that period (both facts and impressions — good for "what happened that day/week"). With both query and time it runs a combined "semantic + time" search — finds memories relevant to query within that period (good for "the travel plan discussed in May"). Accepts an hour 2026-05-01T14, a day 2026-05-01, a month 2026-05, a year 2026, or a range 2026-05-01/2026-05-07, 2026-05-01T09/2026-05-01T18. Leave empty for full semantic recall by query.',
  ja: "任意。検索をある期間に限定します。time だけ（query なし）なら、その期間に最も近い記憶（事実も印象も含む。「その日/その週に何があったか」向け）を返します。query と time の両方を指定すると「意味＋時間」の複合検索になり、その期間内で query に関連する記憶を探します（「5月に話した旅行計画」向け）。整点時 2026-05-01T14、単日 2026-05-01、月 2026-05、年 2026、または期間 2026-05-01/2026-05-07・2026-05-01T09/2026-05-01T18 に対応。空欄なら query による全件の意味検索になります。"
}

/** The entry of `table` in `lang`, else (zh-TW) in Simplified Chinese, else in English. */
export const pick = (table: SomeLanguages, lang: Language): string =>
  table[lang] ?? (lang === "zh-TW" ? table.zh : undefined) ?? table.en ?? ""
