import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { checkRows, extract, type Row } from "../support/extraction.js"

const japanese: ReadonlyArray<Row> = [
  ["私は辛い食べ物が苦手です。", "Masterは辛い食べ物が苦手です", "master", "mid"],
  ["猫のミケは窓際で昼寝するのが好き。", "Masterの猫ミケは窓際で昼寝するのが好き", "master", "high"],
  ["弟の健太は福岡の造船所に就職した。", "Masterの弟健太は福岡の造船所に就職した", "master", "high"],
  [
    "東京に住んでいて、看護師として働いています。",
    "Masterは東京に住んでいて、看護師として働いています",
    "master",
    "high"
  ],
  [
    "卵アレルギーがあるので、ケーキはあまり食べられない。",
    "Masterは卵アレルギーがあるので、ケーキはあまり食べられない",
    "master",
    "high"
  ],
  ["毎晩寝る前にストレッチをしている。", "Masterは毎晩寝る前にストレッチをしている", "master", "mid"],
  ["趣味は写真を撮ることです。", "Masterの趣味は写真を撮ることです", "master", "mid"],
  ["来月、大阪の実家に帰る予定です。", "Masterは来月、大阪の実家に帰る予定です", "master", "high"],
  ["僕の名前はユウキです。", "Masterの名前はユウキです", "master", "high"],
  ["昨日ラーメンを食べた。", "Masterは昨日ラーメンを食べた", "master", "low"],
  ["私たちは一緒に映画を見るのが好きだね。", "MasterとTianは一緒に映画を見るのが好きだ", "relationship"],
  ["元カレの話はしないで。", "Masterは元カレの話をしてほしくない", "master", "high"],
  ["こんにちは！", null],
  ["なるほど〜", null],
  ["ありがとう！", null],
  ["今日は暑いね。", null],
  ["ただいま、仕事から帰ってきた", null],
  ["何が好き？", null],
  ["この映画は面白かった。", null],
  ["笑", null]
]

const chinese: ReadonlyArray<Row> = [
  ["我对猫毛过敏，所以不能养猫。", "Master对猫毛过敏，所以不能养猫", "master", "high"],
  ["我弟弟在上海工作。", "Master的弟弟在上海工作", "master", "high"],
  ["我的猫咪咪喜欢晒太阳。", "Master的猫咪咪喜欢晒太阳", "master", "high"],
  ["最近在学日语，每天练习一个小时。", "Master最近在学日语，每天练习一个小时", "master", "mid"],
  ["我住在杭州，去年从北京搬过来的。", "Master住在杭州，去年从北京搬过来的", "master", "high"],
  ["下个月我要去日本旅行。", "下个月Master要去日本旅行", "master", "high"],
  ["爱好是弹钢琴。", "Master的爱好是弹钢琴", "master", "mid"],
  ["我不吃辣。", "Master不吃辣", "master", "mid"],
  ["昨天晚饭吃了火锅。", "Master昨天晚饭吃了火锅", "master", "low"],
  ["我们一起去看电影吧", "Master和Tian一起去看电影", "relationship"],
  ["不要再提我前男友了。", "Master不希望再提起Master的前男友", "master", "high"],
  ["好的", null],
  ["哈哈哈", null],
  ["谢谢你！", null],
  ["今天好热啊", null],
  ["我下班了", null],
  ["你喜欢吃什么？", null],
  ["这部电影很好看。", null]
]

const traditional: ReadonlyArray<Row> = [
  ["我對貓毛過敏，所以不能養貓。", "Master對貓毛過敏，所以不能養貓", "master", "high"],
  ["我媽媽是護士，在台北的醫院工作。", "Master的媽媽是護士，在台北的醫院工作", "master", "high"],
  ["我每天早上都會去跑步。", "Master每天早上都會去跑步", "master"],
  ["我們下週要去墾丁玩。", "Master他们下週要去墾丁玩", "master", "high"],
  ["謝謝！", null],
  ["你喜歡什麼？", null]
]

describe("Japanese and Chinese extraction", () => {
  it.effect("Japanese: the dropped subject is the master, a pet or relative is the master's", () => checkRows(japanese))
  it.effect("Simplified Chinese", () => checkRows(chinese))
  it.effect("Traditional Chinese keeps its script", () => checkRows(traditional))

  it.effect("dates Japanese and Chinese facts and splits multi-sentence turns", () =>
    Effect.gen(function* () {
      const facts = yield* extract([
        { speaker: "human", text: "おはよう！先月、京都で初めてフルマラソンを走りました。すごく疲れた。" }
      ])
      assert.deepStrictEqual(
        facts.map((f) => [f.text, f.event_when?.start?.offset]),
        [["Masterは先月、京都で初めてフルマラソンを走りました", -1]]
      )
      const zh = yield* extract([{ speaker: "human", text: "你好！我三天前开始学吉他。你呢？" }])
      assert.deepStrictEqual(
        zh.map((f) => [f.text, f.event_when?.start]),
        [["Master三天前开始学吉他", { offset: -3, unit: "day" }]]
      )
    })
  )

  it.effect("reads the character's own disclosures with the character as subject", () =>
    checkRows(
      [
        ["私は雨の日が好きです。", "Tianは雨の日が好きです", "neko", "mid"],
        ["我最喜欢的颜色是薰衣草紫。", "Tian最喜欢的颜色是薰衣草紫", "neko", "mid"],
        ["我会提醒你周五去看兽医。", "Tian会提醒Master周五去看兽医", "neko"]
      ],
      "ai"
    )
  )
})
