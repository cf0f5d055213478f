/**
 * Prompt templates of the reflection tasks: synthesis, feedback on surfaced reflections, the signal mapping
 * of new facts to existing observations, the recall reranker, the negative-target check and the v1→v2
 * reflection recheck. English, Simplified Chinese, Japanese (Traditional derived).
 */
import type { TemplateSet } from "../llm/prompts/templates.js"

export const reflection: TemplateSet = {
  en: `Here are facts {LANLAN_NAME} has learned about {MASTER_NAME}{CONTEXT_NOTE}. Draw ONE insight that several of them
support together: a pattern, a lasting state or a notable episode — not a restatement of a single fact.
entity: "master" | "neko" | "relationship". temporal_scope: "pattern" (recurring), "state" (true for now),
"episode" (one event). relation_type: a short label such as "preference", "habit", "feeling". Keep it under
two sentences. event_when: relative time of an episode, else null.

Facts:
{FACTS}
{CONTEXT}
Answer with JSON only: {"entity": "master", "relation_type": "habit", "reflection": "...", "temporal_scope": "pattern", "event_when": null}`,
  zh: `以下是{LANLAN_NAME}了解到的关于{MASTER_NAME}的事实{CONTEXT_NOTE}。请归纳出一条由其中多条事实共同支持的洞察：
一种规律、一种持续的状态或一次值得注意的经历——不要只是复述某一条事实。entity："master" | "neko" | "relationship"。
temporal_scope："pattern"（反复出现）、"state"（目前成立）、"episode"（一次事件）。relation_type：简短标签，如
“preference”“habit”“feeling”。不超过两句话。event_when：经历的相对时间，否则为 null。

事实：
{FACTS}
{CONTEXT}
只用 JSON 回答：{"entity": "master", "relation_type": "habit", "reflection": "...", "temporal_scope": "pattern", "event_when": null}`,
  ja: `以下は{LANLAN_NAME}が{MASTER_NAME}について知った事実です{CONTEXT_NOTE}。複数の事実がともに裏付ける気づきを一つ導いてください：
繰り返すパターン、続いている状態、または印象的な出来事——一つの事実の言い換えではなく。entity："master" | "neko" | "relationship"。
temporal_scope："pattern"（繰り返し）、"state"（今のところ当てはまる）、"episode"（一度の出来事）。relation_type：
「preference」「habit」「feeling」などの短いラベル。二文以内。event_when：出来事の相対時期、なければ null。

事実：
{FACTS}
{CONTEXT}
JSON のみで答えてください：{"entity": "master", "relation_type": "habit", "reflection": "...", "temporal_scope": "pattern", "event_when": null}`
}

/** The related-context frame of the reflection prompt, per prompt language: the note and the list header. */
export const reflectionContext: Readonly<
  Record<"en" | "zh" | "zh-TW" | "ja", { readonly note: string; readonly header: (character: string) => string }>
> = {
  en: {
    note: " (with related earlier impressions)",
    header: (c) => `What ${c} already believes (context only; do not repeat it):`
  },
  zh: { note: "（附有相关的既有印象）", header: (c) => `${c}已有的看法（仅供参考，不要重复）：` },
  "zh-TW": { note: "（附有相關的既有印象）", header: (c) => `${c}已有的看法（僅供參考，不要重複）：` },
  ja: {
    note: "（関連する以前の印象つき）",
    header: (c) => `${c}がすでに抱いている印象（参考のみ、繰り返さないこと）：`
  }
}

export const reflectionFeedback: TemplateSet = {
  en: `{LANLAN_NAME} brought up the impressions below. Read {MASTER_NAME}'s messages after that and judge each
one: "confirmed" ({MASTER_NAME} agreed or showed it is right), "denied" (disagreed or corrected it),
"ignored" (did not react to it).

Impressions:
{REFLECTIONS}

{MASTER_NAME}'s messages:
{MESSAGES}

Answer with a JSON array only: [{"reflection_id": "ref_…", "feedback": "confirmed|denied|ignored"}]`,
  zh: `{LANLAN_NAME}提到了下面这些印象。请阅读{MASTER_NAME}随后的消息，逐条判断："confirmed"（{MASTER_NAME}认同或表明它是对的）、
"denied"（不认同或纠正了它）、"ignored"（没有回应）。

印象：
{REFLECTIONS}

{MASTER_NAME}的消息：
{MESSAGES}

只用 JSON 数组回答：[{"reflection_id": "ref_…", "feedback": "confirmed|denied|ignored"}]`,
  ja: `{LANLAN_NAME}は以下の印象を話題にしました。その後の{MASTER_NAME}のメッセージを読み、それぞれ判断してください：
"confirmed"（{MASTER_NAME}が同意した・正しいと示した）、"denied"（否定した・訂正した）、"ignored"（反応しなかった）。

印象：
{REFLECTIONS}

{MASTER_NAME}のメッセージ：
{MESSAGES}

JSON 配列のみで答えてください：[{"reflection_id": "ref_…", "feedback": "confirmed|denied|ignored"}]`
}

export const signalDetection: TemplateSet = {
  en: `New facts were just learned. For each existing observation (reflection or persona entry) that a new
fact clearly supports or contradicts, output one signal: "reinforces" or "negates". Skip anything unrelated
or only loosely related; an empty list is a fine answer.

New facts:
{FACTS}

Existing observations:
{OBSERVATIONS}

Answer with JSON only: {"signals": [{"source_fact_id": "fact_…", "target_type": "reflection|persona", "target_id": "…", "signal": "reinforces|negates", "reason": "…"}]}`,
  zh: `刚刚得知了一些新事实。对于每条被新事实明确支持或否定的已有观察（印象或人设条目），输出一个信号："reinforces" 或
"negates"。无关或关系很弱的跳过；空列表也是合理的答案。

新事实：
{FACTS}

已有观察：
{OBSERVATIONS}

只用 JSON 回答：{"signals": [{"source_fact_id": "fact_…", "target_type": "reflection|persona", "target_id": "…", "signal": "reinforces|negates", "reason": "…"}]}`,
  ja: `新しい事実がわかりました。新しい事実がはっきり裏付ける、または否定する既存の観察（印象・人物設定の項目）ごとに、
"reinforces" か "negates" のシグナルを一つ出してください。無関係・関係の薄いものは飛ばし、空のリストでも構いません。

新しい事実：
{FACTS}

既存の観察：
{OBSERVATIONS}

JSON のみで答えてください：{"signals": [{"source_fact_id": "fact_…", "target_type": "reflection|persona", "target_id": "…", "signal": "reinforces|negates", "reason": "…"}]}`
}

export const recallRerank: TemplateSet = {
  en: `Pick at most {BUDGET} of the observations below that matter most for the query, most relevant first.
Use the score only to break ties.

Query:
{QUERY}

Observations:
{CANDIDATES}

Answer with a JSON array of ids only: [{"id": "…"}]`,
  zh: `请从下面的观察中挑出与查询最相关的至多 {BUDGET} 条，最相关的排在前面。分数只用于打破平局。

查询：
{QUERY}

观察：
{CANDIDATES}

只用 JSON 数组回答，仅包含 id：[{"id": "…"}]`,
  ja: `以下の観察から、クエリに最も関係するものを最大 {BUDGET} 件、関係の強い順に選んでください。スコアは同点時の判断にだけ使います。

クエリ：
{QUERY}

観察：
{CANDIDATES}

id だけの JSON 配列で答えてください：[{"id": "…"}]`
}

export const negativeTarget: TemplateSet = {
  en: `{MASTER_NAME} asked {LANLAN_NAME} to stop bringing something up. From the messages and the observations
below, name the observations that request is about. If none clearly matches, answer an empty list.

Messages:
{MESSAGES}

Observations:
{OBSERVATIONS}

Answer with JSON only: {"targets": [{"target_type": "reflection|persona", "target_id": "…", "reason": "…"}]}`,
  zh: `{MASTER_NAME}要求{LANLAN_NAME}不要再提某件事。请根据下面的消息和观察，指出这个要求针对的是哪些观察。没有明确匹配的就回答空列表。

消息：
{MESSAGES}

观察：
{OBSERVATIONS}

只用 JSON 回答：{"targets": [{"target_type": "reflection|persona", "target_id": "…", "reason": "…"}]}`,
  ja: `{MASTER_NAME}は{LANLAN_NAME}に、ある話題に触れないよう頼みました。以下のメッセージと観察から、その依頼が指す観察を挙げてください。はっきり当てはまるものがなければ空のリストで答えてください。

メッセージ：
{MESSAGES}

観察：
{OBSERVATIONS}

JSON のみで答えてください：{"targets": [{"target_type": "reflection|persona", "target_id": "…", "reason": "…"}]}`
}

export const recheckReflection: TemplateSet = {
  en: `The impression below was recorded at {CREATED_AT}. Label it: temporal_scope "pattern" (recurring), "state"
(true for a while) or "episode" (one event); event_when: relative time of an episode, else null.

Impression: {TEXT}

Answer with JSON only: {"temporal_scope": "pattern", "event_when": null}`,
  zh: `下面这条印象记录于 {CREATED_AT}。请标注：temporal_scope 为 "pattern"（反复出现）、"state"（一段时间内成立）或
"episode"（一次事件）；event_when：事件的相对时间，否则为 null。

印象：{TEXT}

只用 JSON 回答：{"temporal_scope": "pattern", "event_when": null}`,
  ja: `以下の印象は {CREATED_AT} に記録されました。ラベルを付けてください：temporal_scope は "pattern"（繰り返し）、"state"
（しばらく当てはまる）、"episode"（一度の出来事）。event_when：出来事の相対時期、なければ null。

印象：{TEXT}

JSON のみで答えてください：{"temporal_scope": "pattern", "event_when": null}`
}
