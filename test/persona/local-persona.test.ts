import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { localCorrections } from "../../src/persona/local/LocalCorrection.js"
import { localNegativeTargets } from "../../src/reflection/evidence/LocalNegative.js"
import { localPromotion } from "../../src/persona/local/LocalPromotion.js"
import { localSignals } from "../../src/reflection/evidence/LocalSignals.js"
import { NegativeTargets, PersonaCorrections, PromotionMerge, Signals } from "../../src/llm/prompts/contracts.js"

const names = ["Alex", "Tian"]
const reflection = (id: string, text: string, entity = "master") => ({ type: "reflection" as const, id, text, entity })
const persona = (id: string, text: string, entity = "master") => ({ type: "persona" as const, id, text, entity })
const fact = (id: string, text: string, entity = "master") => ({ id, text, entity })
const entry = (id: string, text: string, isProtected = false) => ({ id, text, protected: isProtected })

describe("local signal detection", () => {
  const verdicts = (
    facts: ReadonlyArray<ReturnType<typeof fact>>,
    observations: ReadonlyArray<ReturnType<typeof reflection> | ReturnType<typeof persona>>
  ) => {
    const out = localSignals({ facts, observations, names })
    assert.deepStrictEqual(Schema.decodeUnknownSync(Signals)(out), out)
    return out.signals.map((s) => `${s.source_fact_id}>${s.target_type}:${s.target_id}=${s.signal}`)
  }

  it("reinforces or negates same-entity observations that share keywords (English)", () => {
    const food = reflection("r1", "Alex seems to love spicy food")
    assert.deepStrictEqual(
      verdicts(
        [
          fact("f1", "Alex loves spicy ramen"),
          fact("f2", "Alex doesn't eat spicy food anymore"),
          fact("f3", "Alex works at Nintendo")
        ],
        [food, food, persona("p1", "Tian loves spicy ramen", "neko")]
      ),
      ["f1>reflection:r1=reinforces", "f2>reflection:r1=negates"]
    )
  })

  it("reads Chinese and Japanese negation cues", () => {
    assert.deepStrictEqual(
      verdicts(
        [fact("f1", "Alex特别喜欢猫"), fact("f2", "Alex不再喜欢猫了")],
        [reflection("r1", "Alex很喜欢猫"), persona("p1", "Alex喜欢猫", "relationship")]
      ),
      ["f1>reflection:r1=reinforces", "f2>reflection:r1=negates"]
    )
    assert.deepStrictEqual(
      verdicts(
        [fact("f1", "Alexは猫が好き"), fact("f2", "Alexはタバコをやめた")],
        [reflection("r1", "Alexは猫が大好き"), persona("p1", "Alexはタバコを吸う")]
      ),
      ["f1>reflection:r1=reinforces", "f2>persona:p1=negates"]
    )
  })
})

describe("local negative targets", () => {
  const targets = (
    messages: ReadonlyArray<string>,
    observations: Parameters<typeof localNegativeTargets>[0]["observations"]
  ) => {
    const out = localNegativeTargets({ messages, observations, names })
    assert.deepStrictEqual(Schema.decodeUnknownSync(NegativeTargets)(out), out)
    return out.targets.map((t) => `${t.target_type}:${t.target_id}`)
  }

  it("targets observations named in the request, ignoring the request phrase and other messages", () => {
    assert.deepStrictEqual(
      targets(
        ["I had a rough week at Nintendo", "Please don't mention my ex anymore"],
        [
          reflection("r1", "Alex still misses her ex"),
          persona("p1", "Alex works at Nintendo"),
          persona("p2", "Alex hates when people mention the weather")
        ]
      ),
      ["reflection:r1"]
    )
    assert.deepStrictEqual(
      targets(["Stop talking about ramen!"], [persona("p1", "Alex loves spicy ramen")])[0],
      "persona:p1"
    )
    assert.deepStrictEqual(
      localNegativeTargets({
        messages: ["don't mention it"],
        observations: [persona("p1", "Alex loves ramen")],
        names
      }),
      { targets: [] }
    )
  })

  it("reads Chinese and Japanese requests", () => {
    assert.deepStrictEqual(
      targets(["别再提我前任了"], [reflection("r1", "Alex和前任分手后很难过"), persona("p1", "Alex喜欢猫")]),
      ["reflection:r1"]
    )
    assert.deepStrictEqual(
      targets(["元カレの話はやめて"], [reflection("r1", "Alexは元カレと別れた"), persona("p1", "Alexは猫が好き")]),
      ["reflection:r1"]
    )
    assert.deepStrictEqual(targets(["不要再提了"], [persona("p1", "Alex喜欢猫")]), [])
  })
})

describe("local promotion merge", () => {
  const decide = (text: string, entries: Parameters<typeof localPromotion>[0]["entries"]) => {
    const out = localPromotion({ reflection: text, entries, names })
    assert.deepStrictEqual(Schema.decodeUnknownSync(PromotionMerge)(out), out)
    return out
  }

  it("rejects a reflection an entry already covers, even a protected one", () => {
    const covered = decide("Alex loves spicy ramen", [entry("p1", "Alex really loves spicy ramen", true)])
    assert.deepStrictEqual([covered.action, covered.target_id, covered.reason], ["reject", "p1", "already_covered"])
    assert.strictEqual(
      decide("Alex doesn't love spicy ramen", [entry("p1", "Alex loves spicy ramen")]).reason,
      "contradicts_entry"
    )
    assert.strictEqual(
      decide("Alexは大阪に住んでいる", [entry("p1", "Alexは大阪に住んでいる、猫と一緒に")]).action,
      "reject"
    )
    assert.strictEqual(decide("Alex喜欢猫", [entry("p1", "Alex非常喜欢猫")]).reason, "already_covered")
  })

  it("merges into the most overlapping unprotected entry", () => {
    const entries = [
      entry("p0", "Alex loves spicy food"),
      entry("p1", "Alex loves spicy ramen."),
      entry("p2", "Alex works at Nintendo")
    ]
    const merged = decide("Alex loves spicy Sichuan-style ramen", entries)
    assert.deepStrictEqual(
      [merged.action, merged.target_id, merged.merged_text],
      ["merge_into", "p1", "Alex loves spicy ramen; Alex loves spicy Sichuan-style ramen"]
    )
    assert.deepStrictEqual(
      decide("Alex最近很喜欢猫咖", [entry("p1", "Alex喜欢猫。")]).merged_text,
      "Alex喜欢猫；Alex最近很喜欢猫咖"
    )
    assert.deepStrictEqual(
      decide("Alexは猫が好きで、よく猫カフェに行く", [entry("p1", "Alexは猫が好き")]).merged_text,
      "Alexは猫が好きで、よく猫カフェに行く"
    )
  })

  it("promotes fresh when nothing unprotected overlaps", () => {
    assert.strictEqual(
      decide("Alex loves spicy ramen from Sichuan", [entry("p1", "Alex loves spicy ramen", true)]).action,
      "promote_fresh"
    )
    assert.strictEqual(decide("Alex住在上海", [entry("p1", "Alex喜欢猫")]).action, "promote_fresh")
    assert.strictEqual(decide("Alexは大阪に住んでいる", [entry("p1", "Alexは猫が好き")]).action, "promote_fresh")
    assert.strictEqual(decide("Alex loves ramen", []).action, "promote_fresh")
  })
})

describe("local persona corrections", () => {
  const actions = (pairs: ReadonlyArray<{ old: string; new: string }>) => {
    const out = localCorrections(pairs, names)
    assert.deepStrictEqual(Schema.decodeUnknownSync(PersonaCorrections)(out), out)
    assert.deepStrictEqual(
      out.map((c) => c.index),
      pairs.map((_, i) => i)
    )
    return out.map((c) => c.action)
  }

  it("resolves English pairs", () => {
    assert.deepStrictEqual(
      actions([
        { old: "Alex likes  Tea", new: "alex likes tea" },
        { old: "Alex loves spicy ramen from Osaka", new: "Alex loves ramen" },
        { old: "Alex loves ramen", new: "Alex loves spicy ramen from Osaka" },
        { old: "Alex lives in Osaka", new: "Alex lives in Tokyo" },
        { old: "Alex doesn't like cats", new: "Alex likes cats" },
        { old: "Alex loves ramen", new: "Alex works at Nintendo" }
      ]),
      ["keep_old", "keep_old", "keep_new", "keep_new", "keep_new", "keep_both"]
    )
    assert.strictEqual(
      localCorrections([{ old: "Alex loves ramen", new: "Alex works at Nintendo" }])[0]?.action,
      "keep_both"
    )
  })

  it("resolves Chinese and Japanese pairs", () => {
    assert.deepStrictEqual(
      actions([
        { old: "Alex喜欢猫", new: " Alex喜欢猫 " },
        { old: "Alex很喜欢猫和狗", new: "Alex喜欢猫" },
        { old: "Alex喜欢猫", new: "Alex喜欢猫和狗" },
        { old: "Alex每天喝咖啡", new: "Alex每天喝绿茶" },
        { old: "Alex喜欢猫", new: "Alex不再喜欢猫了" },
        { old: "Alex喜欢猫", new: "Alex住在上海" }
      ]),
      ["keep_old", "keep_old", "keep_new", "keep_new", "keep_new", "keep_both"]
    )
    assert.deepStrictEqual(
      actions([
        { old: "Alexは猫が好き", new: "alexは猫が好き" },
        { old: "Alexは猫が大好きで犬も好き", new: "Alexは猫が大好き" },
        { old: "Alexは猫が大好き", new: "Alexは猫が大好きで犬も好き" },
        { old: "Alexは大阪に住んでいる", new: "Alexは東京に住んでいる" },
        { old: "Alexはタバコを吸う", new: "Alexはタバコをやめた" },
        { old: "Alexは猫が好き", new: "Alexは大阪に住んでいる" }
      ]),
      ["keep_old", "keep_old", "keep_new", "keep_new", "keep_new", "keep_both"]
    )
  })
})
