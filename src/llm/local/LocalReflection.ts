/**
 * The `local` provider's reflection synthesis: the facts are grouped by theme (likes, things avoided,
 * background, everything else) from their wording; the largest theme about the dominant entity becomes a
 * template insight that cites up to three of its facts. Deterministic; no inference beyond the grouping.
 */
import type { Drafted } from "../../memory/reflection/Synthesis.js"

type Theme = "preference" | "boundary" | "identity" | "habit"

const themes: ReadonlyArray<readonly [Theme, RegExp]> = [
  ["boundary", /dislikes|does not want|hates|讨厌|討厭|不喜欢|不喜歡|不希望|苦手|嫌い|してほしくない/],
  ["preference", /\b(loves|likes|enjoys|adores|prefers)\b|喜欢|喜歡|爱|愛|好き/],
  ["identity", /name|works|lives|moved|years old|birthday|名字|住在|工作|岁|歳|名前|住んで|働いて/]
]

const lead: Readonly<Record<Theme, (s: string) => string>> = {
  preference: (s) => `${s} has clear likes`,
  boundary: (s) => `${s} has things to steer clear of`,
  identity: (s) => `Key facts of ${s}'s life`,
  habit: (s) => `${s} has shared several things`
}

const relation: Readonly<Record<Theme, string>> = {
  preference: "preference",
  boundary: "boundary",
  identity: "identity",
  habit: "habit"
}

const themeOf = (text: string): Theme => themes.find(([, re]) => re.test(text))?.[0] ?? "habit"

export const synthesise = (
  facts: ReadonlyArray<{ readonly text: string; readonly importance: number; readonly entity: string }>,
  names: { readonly master: string; readonly character: string }
): Drafted => {
  const counts = new Map<string, number>()
  for (const f of facts) counts.set(f.entity, (counts.get(f.entity) ?? 0) + 1)
  const entity = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? "master"
  const mine = facts.filter((f) => f.entity === entity)
  const groups = new Map<Theme, Array<string>>()
  for (const f of [...mine].sort((a, b) => b.importance - a.importance)) {
    const theme = themeOf(f.text)
    groups.set(theme, [...(groups.get(theme) ?? []), f.text])
  }
  const [theme, texts] = [...groups.entries()].sort((a, b) => b[1].length - a[1].length)[0] ?? ["habit", []]
  const subject =
    entity === "neko"
      ? names.character
      : entity === "relationship"
        ? `${names.master} and ${names.character}`
        : names.master
  const cited = texts.slice(0, 3).map((t) => t.replace(new RegExp(`^${subject}('s)?\\s*`), "").replace(/[.。]$/, ""))
  return {
    entity,
    relation_type: entity === "master" ? relation[theme] : entity === "neko" ? "learned" : "dynamic",
    text: `${lead[theme](subject)}: ${cited.join("; ")}.`,
    temporal_scope: theme === "identity" ? "state" : "pattern"
  }
}
