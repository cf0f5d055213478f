/**
 * The scripted conversations of `kioku demo`, one per language: a companion chat over three days (a week ago,
 * yesterday, today) in which the user mentions their pet, work, food and a running habit, then two questions to
 * recall with, one by meaning and one by time.
 */
export interface DemoScript {
  readonly character: string
  readonly master: string
  /** Days before today, then the user's lines, each answered by the character's line after it. */
  readonly sessions: ReadonlyArray<{
    readonly daysAgo: number
    readonly turns: ReadonlyArray<readonly [string, string]>
  }>
  readonly byMeaning: string
  readonly byTime: string
}

export const demoScripts: Readonly<Record<"en" | "ja" | "zh", DemoScript>> = {
  en: {
    character: "Tian",
    master: "Alex",
    sessions: [
      {
        daysAgo: 7,
        turns: [
          ["Hi Tian, I'm back from work.", "Welcome back! How was your day?"],
          ["I adopted a cat named Mochi last week, she's a little grey tabby.", "Mochi! That's adorable."],
          ["I work night shifts as a nurse at the city hospital.", "That sounds demanding. Take care of yourself."],
          ["I'm allergic to peanuts, so I always check food labels.", "Good to know, I'll remember that."]
        ]
      },
      {
        daysAgo: 1,
        turns: [
          ["I go jogging every morning before work.", "What a great habit!"],
          ["I ran my first full marathon in Kyoto last month!", "Congratulations, that's huge!"],
          ["My running club meets every Sunday at 7am.", "Early, but fun with friends."],
          ["I'm training for the Tokyo marathon next spring.", "I'll cheer for you!"],
          ["I bought new running shoes for the long runs.", "Your feet will thank you."]
        ]
      },
      {
        daysAgo: 0,
        turns: [
          ["Mochi knocked my coffee off the desk this morning, haha.", "Oh no, cats!"],
          ["My favourite food is ramen, especially miso ramen.", "Yum, miso ramen is the best."]
        ]
      }
    ],
    byMeaning: "what sport does Alex do?",
    byTime: "last week"
  },
  ja: {
    character: "ティエン",
    master: "ハルカ",
    sessions: [
      {
        daysAgo: 7,
        turns: [
          ["ただいま、仕事から帰ったよ。", "おかえり！今日はどうだった？"],
          ["先週、ミケという猫を飼い始めたんだ。", "ミケちゃん、かわいい名前だね。"],
          ["私は市立病院で看護師として夜勤をしている。", "大変だね、無理しないでね。"],
          ["私はピーナッツアレルギーなので、いつも成分表示を確認している。", "覚えておくね。"]
        ]
      },
      {
        daysAgo: 1,
        turns: [
          ["毎朝仕事の前にジョギングをしている。", "いい習慣だね！"],
          ["先月、京都で初めてフルマラソンを走った！", "すごい、おめでとう！"],
          ["ランニングクラブは毎週日曜の朝7時に集まる。", "早起きだね。"],
          ["来年の春の東京マラソンに向けて練習している。", "応援するよ！"],
          ["長距離用に新しいランニングシューズを買った。", "足が喜ぶね。"]
        ]
      },
      {
        daysAgo: 0,
        turns: [
          ["今朝ミケがコーヒーを机から落とした、笑", "猫らしいね！"],
          ["好きな食べ物はラーメン、特に味噌ラーメンが好き。", "味噌ラーメンおいしいよね。"]
        ]
      }
    ],
    byMeaning: "マラソン",
    byTime: "先週"
  },
  zh: {
    character: "小天",
    master: "阿明",
    sessions: [
      {
        daysAgo: 7,
        turns: [
          ["我下班回来了。", "欢迎回来！今天怎么样？"],
          ["上周我领养了一只叫年糕的猫。", "年糕，好可爱的名字！"],
          ["我在市医院当护士，经常上夜班。", "辛苦了，要注意身体。"],
          ["我对花生过敏，所以买东西总是看配料表。", "我记住了。"]
        ]
      },
      {
        daysAgo: 1,
        turns: [
          ["我每天早上上班前都去慢跑。", "好习惯！"],
          ["上个月我在京都跑完了人生第一个全程马拉松！", "太厉害了，恭喜！"],
          ["我们跑步俱乐部每周日早上7点集合。", "好早呀。"],
          ["我正在为明年春天的东京马拉松训练。", "我会为你加油的！"],
          ["我为长跑买了一双新跑鞋。", "脚会感谢你的。"]
        ]
      },
      {
        daysAgo: 0,
        turns: [
          ["今天早上年糕把我的咖啡从桌上打翻了，哈哈", "猫就是这样！"],
          ["我最喜欢吃拉面，尤其是味噌拉面。", "味噌拉面真好吃。"]
        ]
      }
    ],
    byMeaning: "马拉松",
    byTime: "上周"
  }
}
