import { assert, describe, it } from "@effect/vitest"
import { heuristic } from "../../src/llm/Tokenizer.js"
import {
  entryTag,
  recallMemoryTool,
  recallMemoryToolFor,
  renderRecallBlock,
  renderToolAnswer,
  sinceLabel
} from "../../src/recall/RecallRender.js"
import type { QueryResult } from "../../src/recall/RecallTypes.js"
import { t } from "../support/recall.js"

const NOW = new Date(2026, 10, 30, 12).getTime()
const DAY = 86_400_000
const opts = (language: "en" | "zh" | "ja" | "ko" = "en") => ({
  language,
  nowMillis: NOW,
  tokens: heuristic,
  tunables: t
})

describe("recall rendering", () => {
  it("numbers the entries with tier/entity labels, the event date and how long ago", () => {
    const block = renderRecallBlock(
      [
        { text: "Master loves ramen", tier: "fact", entity: "master", created_at: "2026-11-28T09:00:00" },
        { text: "  ", tier: "fact", entity: "master" },
        {
          text: "Tian and Master hike together",
          tier: "reflection",
          entity: "relationship",
          created_at: "2026-11-29T09:00:00",
          event_start_at: "2026-10-01T08:00:00",
          event_end_at: "not a date"
        },
        { text: "Old news", tier: "fact_archive", entity: "neko", created_at: null },
        { text: "Odd", tier: "brand_new_tier", entity: "" }
      ],
      opts()
    )
    assert.strictEqual(
      block.text,
      [
        "Found 4 relevant memories:",
        "1. [fact/about the user] Master loves ramen  (2026-11-28, 2d ago)",
        "2. [impression/relationship] Tian and Master hike together  (2026-10-01, 2mo ago)",
        "3. [archived fact/about self] Old news",
        "4. [brand_new_tier/-] Odd"
      ].join("\n")
    )
    assert.deepStrictEqual([block.kept, block.dropped], [4, 0])
  })

  it("localizes the header, the labels and the relative time", () => {
    assert.strictEqual(entryTag("fact", "group_chat", "zh"), "[事实/群聊]")
    assert.strictEqual(entryTag("reflection", "master", "zh"), "[印象/关于用户]")
    assert.strictEqual(entryTag("fact", "master", "ja"), "[事実/ユーザーについて]")
    assert.strictEqual(entryTag("fact", "master", "ko"), "[fact/about the user]")
    assert.strictEqual(entryTag(null, "x", "en"), "[?/x]")
    const zh = renderRecallBlock(
      [{ text: "喜欢猫", tier: "fact", entity: "master", created_at: "2026-11-30T08:00:00" }],
      opts("zh")
    )
    assert.strictEqual(zh.text, "找到 1 条相关记忆：\n1. [事实/关于用户] 喜欢猫  (2026-11-30, 当下)")
    assert.strictEqual(sinceLabel(NOW - 6 * DAY, NOW, "en"), "6d ago")
    assert.strictEqual(sinceLabel(NOW - 29 * DAY, NOW, "en"), "4w ago")
    assert.strictEqual(sinceLabel(NOW - 65 * DAY, NOW, "ja"), "2 ヶ月前")
    assert.strictEqual(sinceLabel(NOW + DAY, NOW, "en"), "now")
  })

  it("caps each text, each line and the whole block, and counts only the kept entries in the header", () => {
    const long = (i: number) => ({ text: `${i} ${"word ".repeat(2000)}`, tier: "fact", entity: "master" })
    const block = renderRecallBlock(
      Array.from({ length: 10 }, (_, i) => long(i)),
      opts()
    )
    const lines = block.text.split("\n")
    assert.isBelow(block.kept, 10)
    assert.strictEqual(block.kept + block.dropped, 10)
    assert.strictEqual(lines[0], `Found ${block.kept} relevant memories:`)
    assert.strictEqual(lines.length, block.kept + 1)
    assert.isAtMost(heuristic.count(block.text), t.recall_render_total_max_tokens + lines.length)
    for (const line of lines.slice(1)) assert.isAtMost(heuristic.count(line), 440)
    const one = renderRecallBlock([long(1)], { ...opts(), tunables: { ...t, recall_render_total_max_tokens: 10 } })
    assert.strictEqual(one.kept, 1)
  })

  it("answers the tool call as N.E.K.O.'s handler does", () => {
    const result = (rows: QueryResult["results"], extra: Partial<QueryResult> = {}): QueryResult => ({
      results: rows,
      query: "ramen",
      candidates_total: rows.length,
      elapsed_ms: 1,
      ...extra
    })
    assert.strictEqual(renderToolAnswer({}, undefined, opts()), "No relevant memory found.")
    assert.strictEqual(renderToolAnswer({ query: "ramen" }, result([]), opts()), "No relevant memory found.")
    assert.strictEqual(
      renderToolAnswer({ query: "ramen", time: "2026-05" }, result([]), opts()),
      'No memory matched "ramen" within that time range. Try loosening the filter and querying once more: either with time only (recall memories from that period) or with query only (semantic search without a time limit).'
    )
    assert.strictEqual(
      renderToolAnswer({ query: "ramen" }, result([], { error_code: "hybrid_recall_failed" }), opts("zh")),
      "没有找到相关记忆。"
    )
  })

  it("exports the recall_memory tool schema", () => {
    assert.strictEqual(recallMemoryTool.name, "recall_memory")
    assert.deepStrictEqual(Object.keys(recallMemoryTool.parameters.properties), ["query", "time"])
    assert.deepStrictEqual(recallMemoryTool.parameters.required, [])
    assert.strictEqual(recallMemoryTool.parameters.type, "object")
    assert.include(recallMemoryTool.parameters.properties.time.description, "2026-05-01T14")
    assert.include(recallMemoryToolFor("zh-CN").description, "回忆")
    assert.strictEqual(recallMemoryToolFor("ru").description, recallMemoryTool.description)
  })
})
