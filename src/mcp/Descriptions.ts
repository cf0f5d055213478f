/**
 * The localized descriptions of `kioku mcp`'s tools and their arguments, in English, Japanese and Chinese
 * (other languages fall back as `pick` does: Traditional Chinese to Simplified, the rest to English).
 * `recall_memory` keeps N.E.K.O.'s own wording (recall/RecallLabels.ts).
 */
import { pick, queryDescription, timeDescription, toolDescription, type SomeLanguages } from "../recall/RecallLabels.js"
import type { Language } from "../domain/Locale.js"

const table = {
  character: {
    en: "The character whose memory to use (a kioku character name, e.g. the companion's name).",
    ja: "記憶を使うキャラクターの名前（kioku のキャラクター名、例：コンパニオンの名前）。",
    zh: "使用其记忆的角色名（kioku 的角色名，例如陪伴角色的名字）。"
  },
  characterDefault: {
    en: "The character whose memory to use; defaults to {name}.",
    ja: "記憶を使うキャラクターの名前。省略時は {name}。",
    zh: "使用其记忆的角色名；默认为 {name}。"
  },
  remember: {
    en: "Store something the character should remember: a statement the user made, or a short exchange. It is saved durably at once; facts are extracted from it by the memory's maintenance (at once with extract_now).",
    ja: "キャラクターに覚えてほしいことを保存します：ユーザーの発言、または短いやり取り。すぐに永続的に保存され、事実はメモリのメンテナンスで抽出されます（extract_now ならすぐに）。",
    zh: "保存角色应当记住的内容：用户说过的一句话，或一小段对话。内容会立即持久保存；事实由记忆的维护过程提取（设置 extract_now 则立即提取）。"
  },
  statement: {
    en: 'One thing the user said, in their own words (first person is fine), e.g. "My cat is called Mochi."',
    ja: "ユーザーが言ったこと一つ、本人の言葉で（一人称で可）。例：「うちの猫はモチという名前です。」",
    zh: "用户说过的一句话，用其原话（可用第一人称），例如“我的猫叫麻糬。”"
  },
  messages: {
    en: "A short exchange instead of a statement: 1 to 20 turns of the user and the character, in order.",
    ja: "発言の代わりに短いやり取り：ユーザーとキャラクターの発話を順に 1〜20 件。",
    zh: "代替单句的一小段对话：按顺序排列的用户与角色的 1 到 20 条发言。"
  },
  role: {
    en: "user: the person talking to the character; assistant: the character.",
    ja: "user：キャラクターと話している人。assistant：キャラクター本人。",
    zh: "user：与角色对话的人；assistant：角色本身。"
  },
  content: { en: "What was said.", ja: "発言の内容。", zh: "说话的内容。" },
  language: {
    en: "Optional language code of the conversation (en, ja, zh, …); it becomes the character's prompt language.",
    ja: "任意。会話の言語コード（en, ja, zh など）。キャラクターのプロンプト言語になります。",
    zh: "可选。对话的语言代码（en、ja、zh 等），会成为角色的提示语言。"
  },
  extractNow: {
    en: "Extract facts right away instead of in the background (slower with a language model).",
    ja: "バックグラウンドではなく今すぐ事実を抽出します（言語モデル使用時は時間がかかります）。",
    zh: "立即提取事实，而不是在后台进行（使用语言模型时较慢）。"
  },
  subjects: {
    en: "Optional: recall only these group-chat subjects (1 to 8, in priority order).",
    ja: "任意：これらのグループチャットの対象だけを思い出します（優先順に 1〜8 件）。",
    zh: "可选：只回忆这些群聊对象（按优先级 1 到 8 个）。"
  },
  getContext: {
    en: "The character's memory context for starting a conversation: long-term memory (persona), the current time, recent conversation and the gap since the last one — the text N.E.K.O. puts into its system prompt.",
    ja: "会話を始めるためのキャラクターの記憶コンテキスト：長期記憶（ペルソナ）、現在時刻、最近の会話、前回からの間隔。N.E.K.O. がシステムプロンプトに入れるテキストです。",
    zh: "开始对话时角色的记忆上下文：长期记忆（人设）、当前时间、近期对话以及距上次对话的间隔——即 N.E.K.O. 放入系统提示词的文本。"
  },
  contextLanguage: {
    en: "Optional language of the headers (en, ja, zh, …); default: the character's prompt language.",
    ja: "任意。見出しの言語（en, ja, zh など）。既定はキャラクターのプロンプト言語。",
    zh: "可选。标题的语言（en、ja、zh 等）；默认为角色的提示语言。"
  },
  listCharacters: {
    en: "List the characters that have a memory.",
    ja: "記憶を持つキャラクターの一覧を返します。",
    zh: "列出拥有记忆的角色。"
  },
  forget: {
    en: "Forget one fact, or one persona entry, by its id (ids are in the kioku://{character}/facts and kioku://{character}/persona resources). Its text is removed from every memory file, the journal included; character-card entries cannot be forgotten.",
    ja: "事実一件、またはペルソナ項目一件を id で忘れます（id は kioku://{character}/facts と kioku://{character}/persona のリソースにあります）。その文面はジャーナルを含むすべての記憶ファイルから消されます。キャラクターカードの項目は忘れられません。",
    zh: "按 id 忘记一条事实或一条人设条目（id 见资源 kioku://{character}/facts 与 kioku://{character}/persona）。其文本会从所有记忆文件（包括日志）中删除；角色卡条目不能忘记。"
  },
  kind: {
    en: "fact: an extracted fact; persona: a persona entry.",
    ja: "fact：抽出された事実。persona：ペルソナ項目。",
    zh: "fact：提取出的事实；persona：人设条目。"
  },
  id: { en: "The id of the fact or persona entry.", ja: "事実またはペルソナ項目の id。", zh: "事实或人设条目的 id。" },
  personaResource: {
    en: "The character's persona (persona.json) as JSON.",
    ja: "キャラクターのペルソナ（persona.json）の JSON。",
    zh: "角色的人设（persona.json），JSON 格式。"
  },
  factsResource: {
    en: "The character's active facts as JSON (id, text, importance, entity, absorbed, created_at).",
    ja: "キャラクターの有効な事実の JSON（id, text, importance, entity, absorbed, created_at）。",
    zh: "角色当前的事实，JSON 格式（id、text、importance、entity、absorbed、created_at）。"
  }
} satisfies Record<string, SomeLanguages>

export type DescriptionKey = keyof typeof table | "recall" | "query" | "time"

const recall: Readonly<Record<"recall" | "query" | "time", SomeLanguages>> = {
  recall: toolDescription,
  query: queryDescription,
  time: timeDescription
}

/** The description `key` in `lang`, `{name}` filled with `name`. */
export const describe = (key: DescriptionKey, lang: Language, name = ""): string =>
  pick(key === "recall" || key === "query" || key === "time" ? recall[key] : table[key], lang).replace("{name}", name)
