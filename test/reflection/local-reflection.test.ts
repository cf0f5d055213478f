import { assert, describe, it } from "@effect/vitest"
import type { Language } from "../../src/domain/Locale.js"
import { relatedFacts, synthesise } from "../../src/reflection/local/LocalReflection.js"
import { clauseOf, nominal } from "../../src/reflection/local/compose/Clauses.js"
import { clustersOf, FOCUS_POOL_MAX } from "../../src/reflection/local/compose/Cluster.js"

const names = { master: "Master", character: "Tian" }
const facts = (texts: ReadonlyArray<string>, entity = "master", importance = 6) =>
  texts.map((text) => ({ text, importance, entity }))

const reflect = (texts: ReadonlyArray<string>, language: Language = "en", entity = "master") => {
  const pool = facts(texts, entity)
  const related = relatedFacts(pool, names, language)
  assert.strictEqual(related.length, pool.length, "every fact of the set is related")
  return synthesise(related, names, language)
}

const running = {
  en: [
    "Master jogs every morning before work",
    "Master ran a first full marathon in Kyoto last month",
    "Master's running club meets every Sunday at 7am",
    "Master is training for the Tokyo marathon",
    "Master bought new running shoes"
  ],
  ja: [
    "Masterは毎朝仕事の前にジョギングしている",
    "Masterは先月京都で初めてのフルマラソンを走った",
    "Masterのランニングクラブは毎週日曜の朝7時に集まる",
    "Masterは東京マラソンに向けて練習している",
    "Masterは新しいランニングシューズを買った"
  ],
  zh: [
    "Master每天早上上班前都去慢跑",
    "Master上个月在京都跑完了第一个全程马拉松",
    "Master的跑步俱乐部每周日早上7点活动",
    "Master正在为东京马拉松做训练",
    "Master买了一双新跑鞋"
  ],
  "zh-TW": [
    "Master每天早上上班前都去慢跑",
    "Master上個月在京都跑完了第一場全程馬拉松",
    "Master的跑步俱樂部每週日早上7點活動",
    "Master正在為東京馬拉松做訓練",
    "Master買了一雙新跑鞋"
  ]
}

describe("local reflections: text", () => {
  it("writes one insight over five running facts in English, Japanese and both Chinese scripts", () => {
    const habit = { entity: "master", relation_type: "habit", temporal_scope: "pattern" }
    assert.deepStrictEqual(reflect(running.en), {
      ...habit,
      text:
        "Master is a dedicated runner: jogs every morning before work, ran a first full marathon in Kyoto, " +
        "and is training for the Tokyo marathon."
    })
    assert.deepStrictEqual(reflect(running.ja, "ja"), {
      ...habit,
      text:
        "毎朝仕事の前にジョギングしていること、京都で初めてのフルマラソンを走ったこと、" +
        "東京マラソンに向けて練習していることから、Masterはランニングに打ち込んでいるようだ。"
    })
    assert.deepStrictEqual(reflect(running.zh, "zh"), {
      ...habit,
      text: "Master热爱跑步：每天早上上班前都去慢跑，在京都跑完了第一个全程马拉松，正在为东京马拉松做训练。"
    })
    // The script follows the facts, not the character's language.
    assert.deepStrictEqual(reflect(running["zh-TW"], "zh"), {
      ...habit,
      text: "Master熱愛跑步：每天早上上班前都去慢跑，在京都跑完了第一場全程馬拉松，正在為東京馬拉松做訓練。"
    })
  })

  it("picks the sentence and the ontology from what most facts state", () => {
    assert.deepStrictEqual(
      reflect([
        "Master loves spicy ramen",
        "Master likes sushi",
        "Master enjoys udon",
        "Master prefers green tea over coffee",
        "Master's favourite dessert is cheesecake"
      ]),
      {
        entity: "master",
        relation_type: "preference",
        temporal_scope: "pattern",
        text: "Master has firm favourites when it comes to food: loves spicy ramen, likes sushi, and enjoys udon."
      }
    )
    assert.strictEqual(
      reflect([
        "Master loves ramen",
        "Master loves sushi",
        "Master loves udon",
        "Master loves soba",
        "Master loves tea"
      ]).text,
      "Master has firm favourites when it comes to food: loves ramen, sushi, and udon."
    )
    assert.deepStrictEqual(
      reflect([
        "Master is allergic to peanuts",
        "Master dislikes spicy food",
        "Master can't eat shellfish",
        "Master avoids gluten",
        "Master always checks food labels"
      ]),
      {
        entity: "master",
        relation_type: "boundary",
        temporal_scope: "pattern",
        text: "Master is careful about food: is allergic to peanuts, dislikes spicy food, and can't eat shellfish."
      }
    )
    assert.deepStrictEqual(
      reflect([
        "Master has a cat named Mochi",
        "Master has a dog named Pochi",
        "Master owns two hamsters",
        "Master's cat Mochi is three years old",
        "Master has a parrot called Kiwi"
      ]),
      {
        entity: "master",
        relation_type: "identity",
        temporal_scope: "state",
        text: "Much of Master's life centres on pets: has a cat named Mochi, has a dog named Pochi, and owns two hamsters."
      }
    )
    assert.deepStrictEqual(
      reflect(
        [
          "Masterは辛い物が苦手",
          "Masterはラーメンが大好き",
          "Masterは寿司が好き",
          "Masterは甘いケーキが好きです",
          "Masterはコーヒーより紅茶が好き"
        ],
        "ja"
      ),
      {
        entity: "master",
        relation_type: "preference",
        temporal_scope: "pattern",
        text: "ラーメンが大好きなこと、寿司が好きなこと、甘いケーキが好きなことから、Masterは食べ物の好みがはっきりしているようだ。"
      }
    )
    assert.deepStrictEqual(
      reflect(
        ["Master对海鲜过敏，所以从不吃寿司", "Master不吃辣", "Master对花生过敏", "Master不喝牛奶", "Master讨厌香菜"],
        "zh"
      ),
      {
        entity: "master",
        relation_type: "boundary",
        temporal_scope: "pattern",
        text: "Master在饮食方面很谨慎：对海鲜过敏，所以从不吃寿司；不吃辣；对花生过敏。"
      }
    )
  })

  it("writes about the character and about the relationship with their own subject and ontology", () => {
    assert.deepStrictEqual(
      reflect(
        [
          "Tian loves old jazz records",
          "Tian sings when nobody is listening",
          "Tian's favourite song is Fly Me to the Moon",
          "Tian is learning the piano",
          "Tian wants to write a song for Master"
        ],
        "en",
        "neko"
      ),
      {
        entity: "neko",
        relation_type: "self_awareness",
        temporal_scope: "pattern",
        text: "Tian is passionate about music: sings when nobody is listening, is learning the piano, and wants to write a song for Master."
      }
    )
    assert.deepStrictEqual(
      reflect(
        [
          "Master and Tian watch movies together every Friday",
          "Master and Tian watched the whole Ghibli collection",
          "Master and Tian argue about the best anime of the year",
          "Master and Tian love horror films",
          "Master and Tian rewatched Spirited Away last night"
        ],
        "en",
        "relationship"
      ),
      {
        entity: "relationship",
        relation_type: "dynamic",
        temporal_scope: "pattern",
        text:
          "Master and Tian are big fans of films and shows: watch movies together every Friday, watched the " +
          "whole Ghibli collection, and argue about the best anime of the year."
      }
    )
  })

  it("falls back to the facts' own words for a shared topic outside the lexicon and for other languages", () => {
    assert.deepStrictEqual(
      reflect([
        "Master bought Bitcoin in 2020",
        "Master checks the Bitcoin price every hour",
        "Master's Bitcoin wallet is on a Ledger",
        "Master believes Bitcoin will rise",
        "Master lost some Bitcoin in an exchange hack"
      ]).text,
      "Master often talks about Bitcoin: bought Bitcoin in 2020, checks the Bitcoin price every hour, and believes Bitcoin will rise."
    )
    assert.deepStrictEqual(
      reflect(
        [
          "Master corre un maratón cada año",
          "Master corrió su primer maratón en Kioto",
          "Master entrena para el maratón de Tokio",
          "Master compró zapatillas para el maratón",
          "Master quiere correr otro maratón"
        ],
        "es"
      ),
      {
        entity: "master",
        relation_type: null,
        temporal_scope: null,
        text: "Master corre un maratón cada año; Master corrió su primer maratón en Kioto; Master entrena para el maratón de Tokio."
      }
    )
  })

  it("reads a fact as a clause: subject off, relative time dropped, possessives as their, Japanese nominal forms", () => {
    assert.deepStrictEqual(clauseOf("Master ran Master's first marathon in Kyoto last month!", "en", ["Master"]), {
      predicate: "ran their first marathon in Kyoto",
      whole: "Master ran Master's first marathon in Kyoto",
      kind: "episode"
    })
    assert.deepStrictEqual(clauseOf("Master's cat Mochi hates the vacuum cleaner.", "en", ["Master"]), {
      predicate: undefined,
      whole: "their cat Mochi hates the vacuum cleaner",
      kind: "boundary"
    })
    assert.strictEqual(clauseOf("Master works night shifts", "en", ["Master"]).kind, "habit")
    assert.strictEqual(clauseOf("Master lives in Osaka", "en", ["Master"]).kind, "identity")
    assert.strictEqual(clauseOf("Masterは昨日、京都に行った", "ja", ["Master"]).predicate, "京都に行った")
    assert.strictEqual(clauseOf("Master昨天去了京都。", "zh", ["Master"]).predicate, "去了京都")
    assert.deepStrictEqual(
      ["走った", "練習している", "猫が好き", "看護師です", "学生だ", "本を読んだ", "食べられない", "走りました"].map(
        nominal
      ),
      [
        "走ったこと",
        "練習していること",
        "猫が好きなこと",
        "看護師であること",
        "学生であること",
        "本を読んだこと",
        "食べられないこと",
        undefined
      ]
    )
  })
})

describe("local reflections: lists", () => {
  it("separates clauses that have commas of their own with semicolons", () => {
    assert.strictEqual(
      reflect([
        "Master loves action movies, the louder the better",
        "Master loves anime",
        "Master likes documentaries about space",
        "Master enjoys horror films",
        "Master watches a film every Friday"
      ]).text,
      "Master has firm favourites when it comes to films and shows: loves action movies, the louder the better; " +
        "loves anime; and likes documentaries about space."
    )
  })
})

describe("local reflections: what counts as related", () => {
  it("draws only the related facts out of a mixed pool, oldest first", () => {
    const pool = facts([
      "Master works at Nintendo",
      running.en[0] ?? "",
      "Master lives in Osaka",
      running.en[1] ?? "",
      running.en[2] ?? "",
      "Master's birthday is on 14 March",
      running.en[3] ?? "",
      "Master has a cat named Mochi",
      running.en[4] ?? ""
    ])
    assert.deepStrictEqual(
      relatedFacts(pool, names, "en").map((f) => f.text),
      running.en
    )
  })

  it("groups only the oldest FOCUS_POOL_MAX facts of a large pool, so a big import is worked through from its old end", () => {
    const filler = facts(Array.from({ length: FOCUS_POOL_MAX - 2 }, (_, i) => `Master zq${i}vk`))
    const late = facts(running.en)
    // The running facts straddle the bound: three inside it are too few, all five only once the filler is gone.
    assert.deepStrictEqual(relatedFacts([...filler, ...late], names, "en"), [])
    assert.deepStrictEqual(
      relatedFacts([...filler.slice(3), ...late], names, "en").map((f) => f.text),
      running.en
    )
  })

  it("does not lump unrelated facts together, and needs five related ones", () => {
    const unrelated = facts([
      "Master loves spicy ramen",
      "Master works at Nintendo",
      "Master lives in Osaka",
      "Master's birthday is on 14 March",
      "Master enjoys hiking in the Alps",
      "Master has a cat named Mochi",
      "Master plays the guitar"
    ])
    assert.deepStrictEqual(relatedFacts(unrelated, names, "en"), [])
    assert.isAtMost(Math.max(...clustersOf(unrelated, names, "en").map((c) => c.members.length)), 2)
    const four = facts([...running.en.slice(0, 4), "Master works at Nintendo", "Master has a cat named Mochi"])
    assert.deepStrictEqual(relatedFacts(four, names, "en"), [])
    assert.deepStrictEqual(relatedFacts(facts(running.ja.slice(1)), names, "ja"), [])
  })

  it("does not group facts by the words every fact of a kind shares", () => {
    const notes = facts([
      "Master asked to remember: the spare key is under the mat",
      "Master asked to remember: call the bank on Monday",
      "Master asked to remember: Kenta's birthday is in May",
      "Master asked to remember: buy printer ink",
      "Master asked to remember: the wifi password changed"
    ])
    assert.deepStrictEqual(relatedFacts(notes, names, "en"), [])
  })

  it("keeps facts about different entities apart", () => {
    const pool = [
      ...facts(running.en.slice(0, 3)),
      ...facts(["Tian runs laps around the garden", "Tian jogs at night"], "neko")
    ]
    assert.deepStrictEqual(relatedFacts(pool, names, "en"), [])
  })

  it("brings in a theme-less fact through a word that recurs in the group, in one step only", () => {
    const pets = facts([
      "Master's cat Mochi hates the vacuum cleaner",
      "Master's cat Mochi sleeps on the windowsill",
      "Mochi steals socks from the laundry",
      "Master adopted a kitten",
      "Master's dog Pochi loves long walks",
      "Master's laundry room is tiny"
    ])
    assert.deepStrictEqual(
      relatedFacts(pets, names, "en").map((f) => f.text),
      pets.slice(0, 5).map((f) => f.text)
    )
  })

  it("is deterministic: the same pool gives the same group", () => {
    const pool = facts([...running.en, "Master loves spicy ramen", "Master likes sushi"])
    assert.deepStrictEqual(relatedFacts(pool, names, "en"), relatedFacts([...pool], names, "en"))
  })
})
