/**
 * Prompt templates of the recent-memory tasks (summary, detailed summary, further summary, stale hint,
 * history review), written for kioku in English, Simplified and Traditional Chinese and Japanese. Other
 * languages use the English text. Placeholders: {MASTER_NAME}, {LANLAN_NAME}, {CONVERSATION}, {LIMIT}.
 * Every task answers JSON; the contract is stated at the end of each template.
 */
import type { Language } from "../domain/Locale.js"
import type { PromptLanguage } from "../llm/prompts/templates.js"

type Templates = Readonly<Record<PromptLanguage, string>>

export const summaryPrompt: Templates = {
  en: `You keep the running memory of a conversation between {MASTER_NAME} and {LANLAN_NAME}.
Condense the conversation below into a short memo that {LANLAN_NAME} can rely on later.
Keep: who did or said what, when it happened, names, places, numbers and dates exactly as stated.
When something was corrected, keep both in the form "X, later Y". If {MASTER_NAME} asked not to mention
something, copy that request word for word. Leave out greetings and small talk.

<conversation>
{CONVERSATION}
</conversation>

Answer with JSON only: {"summary": "<the memo>"}`,
  zh: `你负责记录{MASTER_NAME}与{LANLAN_NAME}之间对话的持续记忆。
请把下面的对话浓缩成一份简短的备忘，供{LANLAN_NAME}以后参考。
保留：谁做了或说了什么、发生的时间、人名、地点、数字和日期（按原样保留）。
若有内容被更正，用“X，后来改为Y”的形式同时保留两者。若{MASTER_NAME}要求不要再提某事，请逐字保留该要求。
省略问候和闲聊。

<conversation>
{CONVERSATION}
</conversation>

只用 JSON 回答：{"summary": "<备忘>"}`,
  "zh-TW": `你負責記錄{MASTER_NAME}與{LANLAN_NAME}之間對話的持續記憶。
請把下面的對話濃縮成一份簡短的備忘，供{LANLAN_NAME}日後參考。
保留：誰做了或說了什麼、發生的時間、人名、地點、數字和日期（照原樣保留）。
若有內容被更正，用「X，後來改為Y」的形式同時保留兩者。若{MASTER_NAME}要求不要再提某事，請逐字保留該要求。
省略問候與閒聊。

<conversation>
{CONVERSATION}
</conversation>

只用 JSON 回答：{"summary": "<備忘>"}`,
  ja: `あなたは{MASTER_NAME}と{LANLAN_NAME}の会話の記憶係です。
以下の会話を、{LANLAN_NAME}が後で頼りにできる短いメモにまとめてください。
残すもの：誰が何をした・言ったか、いつのことか、名前・場所・数字・日付（そのまま）。
訂正があった場合は「X、のちにY」の形で両方を残してください。{MASTER_NAME}が「〇〇には触れないで」と頼んだ場合は、その依頼を一字一句そのまま残してください。
挨拶や雑談は省いてください。

<conversation>
{CONVERSATION}
</conversation>

JSON のみで答えてください：{"summary": "<メモ>"}`
}

export const detailedSummaryPrompt: Templates = {
  en: summaryPrompt.en.replace(
    "Leave out greetings and small talk.",
    "This memo closes a session: be thorough about plans, promises, feelings and open questions, and keep their order. Leave out greetings."
  ),
  zh: summaryPrompt.zh.replace(
    "省略问候和闲聊。",
    "这份备忘用于结束一次会话：请完整保留计划、约定、情绪和悬而未决的问题，并保持先后顺序。省略问候。"
  ),
  "zh-TW": summaryPrompt["zh-TW"].replace(
    "省略問候與閒聊。",
    "這份備忘用於結束一次對話：請完整保留計畫、約定、情緒和懸而未決的問題，並保持先後順序。省略問候。"
  ),
  ja: summaryPrompt.ja.replace(
    "挨拶や雑談は省いてください。",
    "このメモはセッションの締めくくりです。予定・約束・気持ち・未解決の話題を順番どおり漏れなく残し、挨拶は省いてください。"
  )
}

export const furtherSummaryPrompt: Templates = {
  en: `The memo below is too long. Rewrite it in at most {LIMIT} words, keeping names, numbers, dates,
corrections ("X, later Y") and any "do not mention" request word for word. Drop what is least important.

<memo>
{CONVERSATION}
</memo>

Answer with JSON only: {"summary": "<the shorter memo>"}`,
  zh: `下面的备忘太长了。请改写为不超过{LIMIT}字，保留人名、数字、日期、更正（“X，后来改为Y”）以及任何“不要再提”的要求（逐字保留），删去最不重要的内容。

<memo>
{CONVERSATION}
</memo>

只用 JSON 回答：{"summary": "<更短的备忘>"}`,
  "zh-TW": `下面的備忘太長了。請改寫為不超過{LIMIT}字，保留人名、數字、日期、更正（「X，後來改為Y」）以及任何「不要再提」的要求（逐字保留），刪去最不重要的內容。

<memo>
{CONVERSATION}
</memo>

只用 JSON 回答：{"summary": "<更短的備忘>"}`,
  ja: `以下のメモは長すぎます。{LIMIT}字以内に書き直してください。名前・数字・日付・訂正（「X、のちにY」）と「触れないで」という依頼（一字一句そのまま）は残し、重要度の低いものから削ってください。

<memo>
{CONVERSATION}
</memo>

JSON のみで答えてください：{"summary": "<短いメモ>"}`
}

export const staleHint: Templates = {
  en: `Note: part of the earlier memo may be out of date. Put what no longer holds into a separate "older" paragraph at the end, after a line containing only ---.\n\n`,
  zh: `注意：之前备忘中的部分内容可能已经过时。请把不再成立的内容放到末尾单独的“较早”段落中，并在它前面单独一行写 ---。\n\n`,
  "zh-TW": `注意：先前備忘中的部分內容可能已經過時。請把不再成立的內容放到結尾單獨的「較早」段落中，並在它前面單獨一行寫 ---。\n\n`,
  ja: `注意：以前のメモの一部は古くなっている可能性があります。もう当てはまらない内容は、--- だけの行の後に「以前のこと」として別の段落にまとめて末尾に置いてください。\n\n`
}

export const historyReviewPrompt: Templates = {
  en: `Below is the recent history between {MASTER_NAME} and {LANLAN_NAME}, one block per message as "role: content".
Clean it up: remove repeated messages, fix statements the conversation itself later contradicts, and keep
everything else unchanged — the memo at the top, game records, names and numbers. Do not invent content.

{CONVERSATION}

Answer with JSON only: {"explanation": "<what you changed, or 'nothing'>", "corrected_dialogue": [{"role": "system|user|assistant", "content": "..."}]}`,
  zh: `以下是{MASTER_NAME}与{LANLAN_NAME}之间的近期记录，每条消息写作“角色: 内容”。
请整理：删除重复消息，修正被后续对话推翻的说法，其余内容保持不变——包括顶部的备忘、游戏记录、人名和数字。不要编造内容。

{CONVERSATION}

只用 JSON 回答：{"explanation": "<改了什么，或“无”>", "corrected_dialogue": [{"role": "system|user|assistant", "content": "..."}]}`,
  "zh-TW": `以下是{MASTER_NAME}與{LANLAN_NAME}之間的近期紀錄，每則訊息寫作「角色: 內容」。
請整理：刪除重複訊息，修正被後續對話推翻的說法，其餘內容保持不變——包括頂部的備忘、遊戲紀錄、人名與數字。不要編造內容。

{CONVERSATION}

只用 JSON 回答：{"explanation": "<改了什麼，或「無」>", "corrected_dialogue": [{"role": "system|user|assistant", "content": "..."}]}`,
  ja: `以下は{MASTER_NAME}と{LANLAN_NAME}の最近の記録です。各メッセージは「役割: 内容」の形です。
整理してください：重複したメッセージを削除し、後の会話で覆された発言を直し、それ以外（冒頭のメモ、ゲームの記録、名前、数字）はそのまま残してください。内容を作らないでください。

{CONVERSATION}

JSON のみで答えてください：{"explanation": "<変更点、なければ「なし」>", "corrected_dialogue": [{"role": "system|user|assistant", "content": "..."}]}`
}

/** The memo prefix of N.E.K.O.'s recent.json (index 0, a system message). */
export const memoPrefix: Readonly<Record<Language, string>> = {
  zh: "先前对话的备忘录: ",
  "zh-TW": "先前對話的備忘錄: ",
  en: "Memo from prior conversations: ",
  ja: "これまでの会話のメモ: ",
  ko: "이전 대화 메모: ",
  ru: "Заметка о прошлых разговорах: ",
  es: "Nota de conversaciones anteriores: ",
  pt: "Nota de conversas anteriores: "
}
