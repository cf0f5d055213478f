import { assert, describe, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { cardLines, reservedFields, syncCard } from "../../src/persona/CardSync.js"
import { cardEntryId, newEntry, type PersonaEntry } from "../../src/persona/Persona.js"
import { applyOps } from "../../src/persona/PersonaStore.js"

const T0 = "2026-11-30T12:00:00.000000"
const T1 = "2026-12-01T09:30:00.000000"
const idOf = (entity: string, field: string) =>
  `card_${createHash("sha256").update(`${entity}:${field}`).digest("hex").slice(0, 8)}`
const texts = (entries: ReadonlyArray<{ readonly text: string }>) => entries.map((e) => e.text)

describe("character-card sync", () => {
  it("ids a card line card_<first 8 hex of sha256('<entity>:<field>')>", () => {
    assert.strictEqual(cardEntryId("neko", "性格"), idOf("neko", "性格"))
    assert.strictEqual(cardEntryId("master", "档案名"), idOf("master", "档案名"))
    assert.match(cardEntryId("neko", "性格"), /^card_[0-9a-f]{8}$/)
    assert.notStrictEqual(cardEntryId("neko", "性格"), cardEntryId("master", "性格"))
  })

  it("turns each non-reserved, non-empty scalar or list field into one line, in card order", () => {
    const card = {
      name: "Tian",
      性格: "温柔",
      live2d: "tian_model",
      voice_id: "voice-1",
      爱好: ["唱歌", "画画", 3],
      年龄: 17,
      空: "",
      空白: "   ",
      无: null,
      空列表: [],
      外观: { 发色: "黑" },
      "__ai_context.profile_rename_events": "主人把名字从A改成了B",
      __ai_contextual: "kept with its key",
      口头禅: "喵"
    }
    const lines = cardLines("neko", card)
    assert.deepStrictEqual(texts(lines), [
      "性格: 温柔",
      "爱好: 唱歌、画画、3",
      "年龄: 17",
      "主人把名字从A改成了B",
      "__ai_contextual: kept with its key",
      "口头禅: 喵"
    ])
    assert.deepStrictEqual(
      lines.map((l) => l.id),
      ["性格", "爱好", "年龄", "__ai_context.profile_rename_events", "__ai_contextual", "口头禅"].map((f) =>
        idOf("neko", f)
      )
    )
  })

  it("skips every reserved field", () => {
    const card = Object.fromEntries([...reservedFields].map((f) => [f, `value of ${f}`]))
    assert.deepStrictEqual(cardLines("neko", card), [])
    for (const f of [
      "_reserved",
      "live2d",
      "voice_id",
      "system_prompt",
      "description",
      "tags",
      "name",
      "描述",
      "关键词"
    ]) {
      assert.isTrue(reservedFields.has(f), f)
    }
  })

  it("creates protected character_card entries from an empty section", () => {
    const next = syncCard("master", [], { 档案名: "Alex", 昵称: ["小A", "阿历"] }, T0)
    assert.isDefined(next)
    assert.deepStrictEqual(
      next?.map((e) => [e.id, e.text, e.source, e.protected, e.created_at, e.reinforcement, e.suppress]),
      [
        [idOf("master", "档案名"), "档案名: Alex", "character_card", true, T0, 0, false],
        [idOf("master", "昵称"), "昵称: 小A、阿历", "character_card", true, T0, 0, false]
      ]
    )
  })

  it("returns undefined when nothing changed, and ignores the section's other entries", () => {
    const card = { 性格: "温柔", 爱好: ["唱歌"] }
    const first = syncCard("neko", [], card, T0) ?? []
    const manual = newEntry({ id: "manual_1", text: "likes tea", source: "manual", createdAt: T0 })
    assert.isUndefined(syncCard("neko", [...first, manual], card, T1))
    assert.isUndefined(syncCard("neko", [manual, ...first], card, T1))
    assert.isUndefined(syncCard("neko", [], {}, T1))
  })

  it("updates a changed text in place, keeping id, evidence and mentions, clearing text-derived caches", () => {
    const [old] = syncCard("neko", [], { 性格: "温柔" }, T0) ?? []
    assert.isDefined(old)
    if (old === undefined) return
    const used: PersonaEntry = {
      ...old,
      reinforcement: 1.5,
      rein_last_signal_at: T0,
      recent_mentions: [T0],
      token_count: 4,
      token_count_text_sha256: "abc",
      token_count_tokenizer: "heuristic:v1",
      embedding: [0.1, 0.2],
      embedding_text_sha256: "abc",
      embedding_model_id: "m"
    }
    const next = syncCard("neko", [used], { 性格: "活泼" }, T1)
    assert.strictEqual(next?.length, 1)
    const [updated] = next ?? []
    assert.strictEqual(updated?.id, old.id)
    assert.strictEqual(updated?.text, "性格: 活泼")
    assert.strictEqual(updated?.created_at, T0)
    assert.strictEqual(updated?.reinforcement, 1.5)
    assert.strictEqual(updated?.rein_last_signal_at, T0)
    assert.deepStrictEqual(updated?.recent_mentions, [T0])
    assert.isTrue(updated?.protected)
    for (const key of [
      "token_count",
      "token_count_text_sha256",
      "token_count_tokenizer",
      "embedding",
      "embedding_text_sha256",
      "embedding_model_id"
    ]) {
      assert.isNull(updated?.[key], key)
    }
  })

  it("drops the entry of a removed field and follows the card's new field order", () => {
    const first = syncCard("neko", [], { 性格: "温柔", 爱好: "唱歌", 口头禅: "喵" }, T0) ?? []
    const removed = syncCard("neko", first, { 性格: "温柔", 口头禅: "喵" }, T1)
    assert.deepStrictEqual(texts(removed ?? []), ["性格: 温柔", "口头禅: 喵"])
    assert.strictEqual(removed?.[0], first[0], "an unchanged entry is the same object")
    const reordered = syncCard("neko", first, { 口头禅: "喵", 性格: "温柔", 爱好: "唱歌" }, T1)
    assert.deepStrictEqual(texts(reordered ?? []), ["口头禅: 喵", "性格: 温柔", "爱好: 唱歌"])
    assert.deepStrictEqual(syncCard("neko", first, {}, T1), [])
    const emptied = syncCard("neko", first, { 性格: "温柔", 爱好: "", 口头禅: [] }, T1)
    assert.deepStrictEqual(texts(emptied ?? []), ["性格: 温柔"], "a field emptied out counts as removed")
  })

  it("places the synced card lines first in the section, before the other entries", () => {
    const manual = newEntry({ id: "manual_1", text: "likes tea", source: "manual", createdAt: T0 })
    const stale = { ...newEntry({ id: idOf("neko", "旧"), text: "旧: x", source: "character_card", createdAt: T0 }) }
    const entries = syncCard("neko", [manual, stale], { 性格: "温柔" }, T1) ?? []
    const persona = applyOps({ neko: { facts: [manual, stale] } }, [{ op: "card", section: "neko", entries }])
    assert.deepStrictEqual(texts(persona["neko"]?.facts ?? []), ["性格: 温柔", "likes tea"])
  })
})
