import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { tunablesFrom } from "../../src/Config.js"
import type { Language } from "../../src/domain/Locale.js"
import { localIso } from "../../src/domain/LocalTime.js"
import { newEntry, type PersonaEntry, type PersonaFile } from "../../src/persona/Persona.js"
import { relative } from "../../src/persona/PersonaHeaders.js"
import {
  isStale,
  preparePersona,
  renderPersona,
  renderPrepared,
  type RenderTunables
} from "../../src/persona/PersonaRender.js"
import { Reflection } from "../../src/reflection/Reflection.js"

const DAY = 86_400_000
const NOW = new Date(2026, 10, 30, 12).getTime()
const ago = (days: number) => localIso(NOW - days * DAY)
const names = { character: "Tian", master: "Alex" }

const tunables = (overrides: Partial<RenderTunables> = {}): RenderTunables =>
  tunablesFrom({
    persona_render_max_tokens: 1000,
    reflection_render_max_tokens: 1000,
    persona_render_protected_max_entries: 80,
    persona_render_suppressed_max_entries: 40,
    ...overrides
  })

/** A persona entry; its score is `reinforcement - disputation` (no signal timestamps, so no decay). */
const entry = (
  id: string,
  text: string,
  fields: Partial<{
    reinforcement: number
    disputation: number
    importance: number
    protected: boolean
    suppress: boolean
  }> = {}
): PersonaEntry => ({
  ...newEntry({
    id,
    text,
    source: fields.protected ? "character_card" : "manual",
    createdAt: ago(30),
    protected: fields.protected ?? false
  }),
  reinforcement: fields.reinforcement ?? 0,
  disputation: fields.disputation ?? 0,
  suppress: fields.suppress ?? false,
  ...(fields.importance === undefined ? {} : { importance: fields.importance })
})

const decodeReflection = Schema.decodeUnknownSync(Reflection)
const reflection = (id: string, text: string, fields: Readonly<Record<string, unknown>> = {}): Reflection =>
  decodeReflection({ id, text, created_at: ago(1), status: "pending", ...fields })

const persona = (sections: Readonly<Record<string, ReadonlyArray<PersonaEntry>>>): PersonaFile =>
  Object.fromEntries(Object.entries(sections).map(([key, facts]) => [key, { facts }]))

const render = (
  p: PersonaFile,
  options: {
    readonly reflections?: ReadonlyArray<Reflection>
    readonly language?: Language
    readonly tunables?: Partial<RenderTunables>
  } = {}
) =>
  renderPersona({
    persona: p,
    reflections: options.reflections ?? [],
    nowMillis: NOW,
    language: options.language ?? "en",
    names,
    tunables: tunables(options.tunables),
    count: (s) => s.length
  })

const sections = (text: string) => text.split("\n\n")

describe("persona block rendering", () => {
  it("renders nothing for an empty persona and no reflections", () => {
    assert.strictEqual(render({}), "")
    assert.strictEqual(render(persona({ neko: [], master: [], relationship: [] })), "")
    assert.strictEqual(render(persona({ neko: [entry("blank", ""), entry("space", "   ")] })), "")
  })

  it("keeps non-protected entries greedily by (score, importance) within one budget, skipping what does not fit", () => {
    const p = persona({
      neko: [
        entry("c", "ccccc", { reinforcement: 1 }),
        entry("b", "bbbbbbbbbbbbbbb", { reinforcement: 2 }),
        entry("a", "aaaaaaaa", { reinforcement: 3 })
      ],
      master: [entry("e", "eeee", { reinforcement: 0.5 }), entry("d", "ddddd", { reinforcement: 1, importance: 2 })],
      relationship: []
    })
    // Ranked a(3) b(2) d(1, importance 2) c(1) e(0.5): a 8, b would make 23 > 20 (skipped), d 13, c 18, e 22 (skipped).
    assert.strictEqual(
      render(p, { tunables: { persona_render_max_tokens: 20 } }),
      "### About Tian\n- aaaaaaaa\n- ccccc\n\n### About Alex\n- ddddd"
    )
    assert.strictEqual(
      render(p, { tunables: { persona_render_max_tokens: 7 } }),
      "### About Alex\n- ddddd",
      "entries over the budget do not stop the ones after them"
    )
    assert.strictEqual(render(p, { tunables: { persona_render_max_tokens: 3 } }), "")
  })

  it("does not filter persona entries by score: a negative one renders when the budget allows", () => {
    const p = persona({
      master: [entry("neg", "disputed", { disputation: 1 }), entry("pos", "liked", { reinforcement: 1 })]
    })
    assert.strictEqual(render(p), "### About Alex\n- liked\n- disputed")
    assert.strictEqual(render(p, { tunables: { persona_render_max_tokens: 10 } }), "### About Alex\n- liked")
  })

  it("puts protected entries first in file order, exempt from the budget, capped in count", () => {
    const p = persona({
      neko: [
        entry("x", "loose", { reinforcement: 5 }),
        entry("p1", "性格: 温柔而且非常非常有耐心", { protected: true }),
        entry("blank", " ", { protected: true }),
        entry("p2", "爱好: 唱歌", { protected: true })
      ],
      master: [entry("p3", "档案名: Alex", { protected: true }), entry("y", "likes tea", { reinforcement: 1 })]
    })
    assert.strictEqual(
      render(p, { tunables: { persona_render_max_tokens: 5 } }),
      "### About Tian\n- 性格: 温柔而且非常非常有耐心\n- 爱好: 唱歌\n- loose\n\n### About Alex\n- 档案名: Alex"
    )
    assert.strictEqual(
      render(p, { tunables: { persona_render_protected_max_entries: 2 } }),
      "### About Tian\n- 性格: 温柔而且非常非常有耐心\n- 爱好: 唱歌\n- loose\n\n### About Alex\n- likes tea",
      "the cap counts protected entries across sections, blank ones not at all"
    )
  })

  it("renders suppressed entries only in the do-not-raise section, capped, and hides reflections with their text", () => {
    const p = persona({
      neko: [entry("s1", "loves ramen", { suppress: true }), entry("n1", "plays piano", { reinforcement: 1 })],
      master: [
        entry("s2", "works at Sony", { suppress: true }),
        entry("s3", "has a cat", { suppress: true }),
        entry("s4", "loves ramen", { suppress: true })
      ]
    })
    const reflections = [
      reflection("r1", "loves ramen", { status: "confirmed", reinforcement: 2 }),
      reflection("r2", "has a cat"),
      reflection("r3", "often stays up late", { status: "confirmed", reinforcement: 1.5 })
    ]
    const out = render(p, { reflections, tunables: { persona_render_max_tokens: 11 } })
    assert.deepStrictEqual(sections(out), [
      "### About Tian\n- plays piano",
      "### Tian's fairly certain impressions\n- often stays up late",
      "### Mentioned a lot lately: do not bring these up unprompted\n- loves ramen\n- works at Sony\n- has a cat"
    ])
    const capped = render(p, { reflections, tunables: { persona_render_suppressed_max_entries: 2 } })
    assert.isTrue(
      capped.endsWith("### Mentioned a lot lately: do not bring these up unprompted\n- loves ramen\n- works at Sony")
    )
  })

  it("shows a suppressed confirmed reflection only in the do-not-raise section", () => {
    const reflections = [
      reflection("r1", "hums when happy", { status: "confirmed", reinforcement: 2, suppress: true }),
      reflection("r2", "drinks coffee", { status: "confirmed", reinforcement: 2 })
    ]
    assert.deepStrictEqual(sections(render({}, { reflections })), [
      "### Tian's fairly certain impressions\n- drinks coffee",
      "### Mentioned a lot lately: do not bring these up unprompted\n- hums when happy"
    ])
  })

  it("splits pending from confirmed, omits confirmed with score ≤ 0 and other statuses, keeps negative pending", () => {
    const reflections = [
      reflection("p1", "maybe likes jazz", { reinforcement: 0.5 }),
      reflection("c0", "zero score", { status: "confirmed" }),
      reflection("cn", "negative score", { status: "confirmed", disputation: 1 }),
      reflection("c1", "likes cats", { status: "confirmed", reinforcement: 1 }),
      reflection("c2", "likes dogs", { status: "confirmed", reinforcement: 1.5 }),
      reflection("pn", "maybe dislikes rain", { disputation: 0.5 }),
      reflection("d", "denied one", { status: "denied", reinforcement: 3 }),
      reflection("pr", "promoted one", { status: "promoted", reinforcement: 3 }),
      reflection("blank", "  ")
    ]
    assert.deepStrictEqual(sections(render({}, { reflections })), [
      "### Tian's recent impressions (not yet certain)\n- maybe likes jazz\n- maybe dislikes rain",
      "### Tian's fairly certain impressions\n- likes dogs\n- likes cats"
    ])
  })

  it("trims reflections by (score) in their own budget pool, best first", () => {
    const p = persona({ master: [entry("m", "x".repeat(10), { reinforcement: 1 })] })
    const reflections = [
      reflection("a", "aaaa", { reinforcement: 0.2 }),
      reflection("b", "bbbbbbbbbb", { status: "confirmed", reinforcement: 3 }),
      reflection("c", "cccc", { reinforcement: 0.9 }),
      reflection("d", "ddddd", { status: "confirmed", reinforcement: 2 })
    ]
    // Ranked b(3) d(2) c(0.9) a(0.2) against 12: b 10, then d 15, c 14 and a 14 are all skipped.
    assert.deepStrictEqual(
      sections(
        render(p, { reflections, tunables: { reflection_render_max_tokens: 12, persona_render_max_tokens: 10 } })
      ),
      ["### About Alex\n- xxxxxxxxxx", "### Tian's fairly certain impressions\n- bbbbbbbbbb"]
    )
    // Against 9: b is skipped, d 5, c 9, a 13 (skipped).
    assert.deepStrictEqual(sections(render({}, { reflections, tunables: { reflection_render_max_tokens: 9 } })), [
      "### Tian's recent impressions (not yet certain)\n- cccc",
      "### Tian's fairly certain impressions\n- ddddd"
    ])
    assert.deepStrictEqual(sections(render({}, { reflections, tunables: { reflection_render_max_tokens: 23 } })), [
      "### Tian's recent impressions (not yet certain)\n- cccc\n- aaaa",
      "### Tian's fairly certain impressions\n- bbbbbbbbbb\n- ddddd"
    ])
  })

  it("renders one prepared snapshot at any time as a fresh render would, as decay reorders it", () => {
    const signal = (days: number) => ({ rein_last_signal_at: ago(days) })
    const p = persona({
      master: [
        { ...entry("old", "oldstrong", { reinforcement: 2 }), ...signal(60) },
        { ...entry("new", "newweak", { reinforcement: 1 }), ...signal(0) }
      ]
    })
    const reflections = [
      reflection("fading", "fading", { status: "confirmed", reinforcement: 0.1, disputation: 0.2, ...signal(0) }),
      reflection("steady", "steady", { status: "confirmed", reinforcement: 1 })
    ]
    const prepared = preparePersona(p, reflections, (s) => s.length)
    // 60 days earlier the old entry had its whole 2 (the new one's signal lies ahead: no decay), and the
    // fading reflection's disputation had not begun either; at NOW the old entry has decayed to 0.5.
    const times = [NOW - 60 * DAY, NOW, NOW - 60 * DAY, NOW + 400 * DAY, NOW]
    const tight = tunables({ persona_render_max_tokens: 9, reflection_render_max_tokens: 20 })
    const at = (nowMillis: number) => ({ nowMillis, language: "en" as const, names, tunables: tight })
    const outs = times.map((now) => renderPrepared(prepared, at(now)))
    assert.deepStrictEqual(
      outs,
      times.map((now) => renderPersona({ persona: p, reflections, count: (s) => s.length, ...at(now) }))
    )
    assert.include(outs[0], "- oldstrong")
    assert.include(outs[1], "- newweak")
    assert.notInclude(outs[1], "oldstrong")
  })

  it("moves stale confirmed reflections to the older-memory frame with their age", () => {
    const confirmed = (id: string, text: string, fields: Readonly<Record<string, unknown>>) =>
      reflection(id, text, { status: "confirmed", reinforcement: 1, ...fields })
    const reflections = [
      confirmed("past", "used to live in Osaka", { temporal_scope: "past", created_at: ago(2) }),
      confirmed("state-old", "was sick", { temporal_scope: "state", event_end_at: ago(8), created_at: ago(1) }),
      confirmed("state-new", "is on a diet", { temporal_scope: "state", event_end_at: ago(6), created_at: ago(20) }),
      confirmed("ep-start", "went to Kyoto", {
        temporal_scope: "episode",
        event_start_at: ago(4),
        created_at: ago(1)
      }),
      confirmed("ep-end", "moved house", {
        temporal_scope: "episode",
        event_start_at: ago(10),
        event_end_at: ago(1),
        created_at: ago(10)
      }),
      confirmed("ep-created", "had a party", { temporal_scope: "episode", created_at: ago(3.5) }),
      confirmed("pattern", "jogs every morning", { temporal_scope: "pattern", created_at: ago(100) }),
      confirmed("legacy", "likes tea", { created_at: ago(100) }),
      reflection("pending-past", "maybe was in Paris", { temporal_scope: "past" })
    ]
    assert.deepStrictEqual(sections(render({}, { reflections })), [
      "### Tian's recent impressions (not yet certain)\n- maybe was in Paris",
      "### Tian's fairly certain impressions\n- is on a diet\n- moved house\n- jogs every morning\n- likes tea",
      "### Older memories (may be out of date; background only)\n" +
        "- [2 days ago] used to live in Osaka\n- [8 days ago] was sick\n- [4 days ago] went to Kyoto\n" +
        "- [3 days ago] had a party"
    ])
    const t = tunables()
    assert.isTrue(isStale(confirmed("s", "x", { temporal_scope: "state", event_end_at: ago(7.01) }), NOW, t))
    assert.isFalse(isStale(confirmed("s", "x", { temporal_scope: "state", event_end_at: ago(6.99) }), NOW, t))
    assert.isTrue(isStale(confirmed("e", "x", { temporal_scope: "episode", created_at: ago(3.01) }), NOW, t))
    assert.isFalse(isStale(confirmed("e", "x", { temporal_scope: "episode", created_at: ago(2.99) }), NOW, t))
    assert.isTrue(
      isStale(
        confirmed("e", "x", { temporal_scope: "episode", event_end_at: "not a date", event_start_at: ago(5) }),
        NOW,
        t
      ),
      "an unparsable end falls back to the start"
    )
  })

  it("localizes every header (en, zh, ja) and names the character and the master", () => {
    const p = persona({
      neko: [entry("n", "n1", { protected: true })],
      master: [entry("m", "m1", { reinforcement: 1 })],
      relationship: [entry("r", "r1", { reinforcement: 1 }), entry("s", "s1", { suppress: true })]
    })
    const reflections = [
      reflection("p", "p1"),
      reflection("c", "c1", { status: "confirmed", reinforcement: 1 }),
      reflection("o", "o1", { status: "confirmed", reinforcement: 1, temporal_scope: "past", created_at: ago(5) })
    ]
    const headersOf = (language: Language) =>
      sections(render(p, { reflections, language })).map((s) => s.split("\n").slice(0, 2).join(" | "))
    assert.deepStrictEqual(headersOf("en"), [
      "### About Tian | - n1",
      "### About Alex | - m1",
      "### Relationship | - r1",
      "### Tian's recent impressions (not yet certain) | - p1",
      "### Tian's fairly certain impressions | - c1",
      "### Older memories (may be out of date; background only) | - [5 days ago] o1",
      "### Mentioned a lot lately: do not bring these up unprompted | - s1"
    ])
    assert.deepStrictEqual(headersOf("zh"), [
      "### 关于Tian | - n1",
      "### 关于Alex | - m1",
      "### 关系动态 | - r1",
      "### Tian最近的印象（还不太确定） | - p1",
      "### Tian比较确定的印象 | - c1",
      "### 较早的记忆（可能已经过时，只作背景） | - [5天前] o1",
      "### 最近已多次提到，不要主动提起 | - s1"
    ])
    assert.deepStrictEqual(headersOf("ja"), [
      "### Tianについて | - n1",
      "### Alexについて | - m1",
      "### 関係性 | - r1",
      "### Tianの最近の印象（まだ確かではない） | - p1",
      "### Tianがほぼ確かだと思う印象 | - c1",
      "### 以前の記憶（古くなっているかもしれない。背景としてのみ） | - [5日前] o1",
      "### 最近何度も話題にしたので、自分からは持ち出さないこと | - s1"
    ])
    assert.include(render(p, { reflections, language: "zh-TW" }), "### 關於Tian")
  })

  it("renders extra sections under their display name or key, in file order, and never __meta__", () => {
    const p: PersonaFile = {
      __meta__: { facts: [entry("__evidence_migration_v1__", "meta text", { protected: true })] },
      neko: { facts: [entry("n", "sings", { reinforcement: 1 })] },
      "@subject/group:42": { facts: [entry("g", "meets on Fridays", { reinforcement: 1 })], display_name: "Book Club" },
      hobbies: { facts: [entry("h", "chess", { reinforcement: 1 }), entry("hp", "go", { protected: true })] },
      master: { facts: [] },
      relationship: { facts: [] }
    }
    const out = render(p)
    assert.deepStrictEqual(sections(out), [
      "### About Tian\n- sings",
      "### Book Club\n- meets on Fridays",
      "### hobbies\n- go\n- chess"
    ])
    assert.notInclude(out, "meta text")
    assert.notInclude(out, "__meta__")
    assert.strictEqual(render({ __meta__: { facts: [entry("m", "only meta", { reinforcement: 1 })] } }), "")
  })
})

describe("relative age of older memories", () => {
  it("counts hours, days, weeks from 14 days and months from 60 days", () => {
    const H = 3_600_000
    assert.strictEqual(relative(20 * 60_000, "en"), "just now")
    assert.strictEqual(relative(5 * H, "en"), "5 hours ago")
    assert.strictEqual(relative(13 * 24 * H, "en"), "13 days ago")
    assert.strictEqual(relative(20 * 24 * H, "en"), "2 weeks ago")
    assert.strictEqual(relative(59 * 24 * H, "zh"), "8周前")
    assert.strictEqual(relative(95 * 24 * H, "ja"), "3か月前")
  })
})
