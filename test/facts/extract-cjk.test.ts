import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { checkRows, extract, type Row } from "../support/extraction.js"

const japanese: ReadonlyArray<Row> = [
  ["私は辛い食べ物が苦手です。", "Masterは辛い食べ物が苦手です", "master", "mid"],
  ["猫のミケは窓際で昼寝するのが好き。", "Masterの猫のミケは窓際で昼寝するのが好き", "master", "high"],
  ["弟の健太は福岡の造船所に就職した。", "Masterの弟の健太は福岡の造船所に就職した", "master", "high"],
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

/** The classes found missing on unseen sets: each row stands for a construction, not for one sentence. */
const japaneseClasses: ReadonlyArray<Row> = [
  // a long-vowel mark stays on a katakana word, an elongated ending loses it
  ["週末はいつもカフェでコーヒー。", "Masterは週末はいつもカフェでコーヒー", "master", "mid"],
  ["来月から駅前のジムに通うんだー", "Masterは来月から駅前のジムに通うんだ", "master", "high"],
  // openings on a relative, a time of life, a day or a habit are the speaker's
  ["じいちゃんは毎朝畑に出てる。", "Masterのじいちゃんは毎朝畑に出てる", "master", "high"],
  ["休みの日は家でゲームばかりしてる。", "Masterは休みの日は家でゲームばかりしてる", "master", "mid"],
  ["冬休みには家族でスキーに行く。", "Masterは冬休みには家族でスキーに行く", "master", "high"],
  ["寝る前にホットミルクを飲むのが習慣。", "Masterは寝る前にホットミルクを飲むのが習慣", "master", "mid"],
  ["高校時代は野球部だった。", "Masterは高校時代は野球部だった", "master", "high"],
  ["子どもの頃、よく川で釣りをした。", "Masterは子どもの頃、よく川で釣りをした", "master", "mid"],
  ["高校の後輩の真央とは今でも連絡を取ってる。", "Masterは高校の後輩の真央とは今でも連絡を取ってる", "master"],
  ["母の日にカーネーションを贈った。", "Masterは母の日にカーネーションを贈った", "master", "high"],
  ["猫は飼ったことがない。", "Masterは猫は飼ったことがない", "master", "high"],
  ["母の誕生日は五月です。", "Masterの母の誕生日は五月です", "master", "high"],
  ["ウサギのきなこは三歳。", "Masterのウサギのきなこは三歳", "master", "high"],
  // a time pointed at (この前, その後, ここ数年) is not a thing pointed at
  ["この前、姉と温泉に行った。", "Masterはこの前、姉と温泉に行った", "master", "high"],
  ["ここ数年ずっと俳句を続けてる。", "Masterはここ数年ずっと俳句を続けてる", "master", "mid"],
  ["それから毎朝走ってる。", "Masterはそれから毎朝走ってる", "master", "mid"],
  ["この本は面白かった。", null],
  ["ラーメンはやっぱりおいしい。", null],
  // a wish about how to be treated is kept, a reaction is not
  ["名前で呼んでくれると嬉しい。", "Masterは名前で呼んでくれると嬉しい", "master", "high"],
  ["覚えててくれて嬉しい！", null],
  // "かな" hedges a statement; with a question word it asks
  ["来年は北海道に住もうかな", "Masterは来年は北海道に住もうかな", "master", "high"],
  ["何を食べようかな", null],
  // weather of a habit is kept, weather of today is not
  ["雨の日はいつも頭痛がする。", "Masterは雨の日はいつも頭痛がする", "master", "high"],
  ["今日はほんとに蒸し暑いね", null],
  ["雨降ってきた", null],
  // thanks, farewells, laughter, compliments to the character, requests and the time of day
  ["ありがとう、本当に助かった！", null],
  ["また明日ね〜", null],
  ["じゃあね、おやすみ", null],
  ["お疲れさまー", null],
  ["あははは、笑える", null],
  ["Tianは優しいね", null],
  ["さすがTian、物知りだね", null],
  ["何か歌って", null],
  ["もうこんな時間か", null],
  ["また来るね", null],
  ["じゃあまたね、バイバーイ", null],
  ["眠くなってきた", null],
  ["今日は風が強いね", null],
  ["Tian大好き！", null],
  // opinions on the world, hearsay and the mood of today are not the speaker's facts
  ["大阪は物価が安い。", null],
  ["最近のアニメは面白い", null],
  ["犬ってかわいいよね", null],
  ["ネットで新しいゲームが出るって見た。", null],
  ["今日は忙しかった", null],
  ["知らなかった！", null],
  ["料理のコツを教えてくれてありがとう！", null],
  ["そろそろ出かけなきゃ、またね", null],
  ["今日はジメジメしてるね", null],
  ["Tian天才かよ", null],
  ["はぁ、また月曜日か", null],
  ["ではでは、また来週ね", null],
  ["今日もお疲れさまでした", null],
  // a face at the end is cut, an age as a deadline is not an identity, teeth are health
  ["姉が来月出産予定です(^^)", "Masterの姉が来月出産予定です", "master", "high"],
  ["三十歳までに貯金を五百万円ためる。", "Masterは三十歳までに貯金を五百万円ためる", "master", "mid"],
  ["昨日、歯医者で虫歯を治した。", "Masterは昨日、歯医者で虫歯を治した", "master", "high"],
  ["うちのわんこは散歩が大好き。", "Masterのわんこは散歩が大好き", "master", "high"],
  // an attribute of the speaker is the speaker's; a wish about the character's manner is a relationship fact
  ["職場は駅のすぐ近く。", "Masterの職場は駅のすぐ近く", "master", "high"],
  ["もう少しゆっくり話してくれたらいいな。", "Masterはもう少しゆっくり話してくれたらいい", "master", "high"],
  // "私、" is the subject after a pause; "うちは" is the speaker's household; 嫌いな… is an attribute
  ["実は私、来月から産休なんです。", "Masterは来月から産休なんです", "master", "high"],
  ["うちは父が単身赴任中。", "Masterの家は父が単身赴任中", "master", "high"],
  ["嫌いな教科は数学だった。", "Masterの嫌いな教科は数学だった", "master", "mid"],
  ["昔はタバコを吸ってた。", "Masterは昔はタバコを吸ってた", "master", "high"],
  // "自分" is "I" at the opening and the reflexive elsewhere
  ["自分は人見知りなほうです。", "Masterは人見知りなほうです", "master", "mid"],
  ["いつか自分の店を持ちたい。", "Masterはいつか自分の店を持ちたい", "master", "high"],
  // quoted speech stays as it was said
  ["母に「あなたは頑張り屋だね」と言われた。", "Masterは母に「あなたは頑張り屋だね」と言われた", "master", "high"],
  [
    "私は「僕」じゃなくて「私」って言うようにしてる。",
    "Masterは「僕」じゃなくて「私」って言うようにしてる",
    "master",
    "mid"
  ]
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

const chineseClasses: ReadonlyArray<Row> = [
  // "我们": the speaker's party, household, institution, or the two of them
  ["我们下周去青岛看海。", "Master他们下周去青岛看海", "master", "high"],
  ["我们家养了一只鹦鹉。", "Master家养了一只鹦鹉", "master", "high"],
  ["我们学校下个月开运动会。", "Master的学校下个月开运动会", "master", "high"],
  ["我们俩以后一起学做饭吧", "Master和Tian以后一起学做饭", "relationship", "high"],
  // quoted speech stays as it was said
  ["我爸常说“你要多读书”。", "Master的爸常说“你要多读书”", "master", "high"],
  ["我弟在成都读大学。", "Master的弟在成都读大学", "master", "high"],
  ["别跟我提我前女友。", "Master不希望再提起Master的前女友", "master", "high"],
  // the listener named at the opening is a vocative
  ["Tian，我下个月要搬家了。", "Master下个月要搬家了", "master", "high"],
  // weather of a habit is kept, weather of today is not
  ["下雪天我总是不想出门。", "下雪天Master总是不想出门", "master", "mid"],
  ["这几年一直在学书法。", "Master这几年一直在学书法", "master", "mid"],
  ["这部电影太好看了", null],
  ["今天冷死了", null],
  ["外面下雨了", null],
  // thanks, farewells, laughter, compliments to the character, requests
  ["笑死我了哈哈哈", null],
  ["谢谢，你真贴心", null],
  ["谢啦，帮了大忙", null],
  ["明天见～", null],
  ["绝了", null],
  ["给我讲个故事吧", null],
  ["我先走了，拜拜", null],
  ["Tian你好聪明", null],
  ["太感谢你了", null],
  ["明天再聊", null],
  ["你也太会说了吧", null],
  ["睡了睡了，晚安", null],
  ["笑出声了", null],
  ["上海房价太贵了。", null],
  ["听说明天要停电。", null],
  ["今天过得挺充实的", null],
  ["狗狗真的好萌", null],
  ["你在干嘛呢", null],
  ["怎么办", null],
  ["有道理", null],
  ["谢谢你帮我想了这么多办法！", null],
  ["我得走了，回聊", null],
  ["太懂了", null],
  ["不是吧", null],
  ["唉，又是周一", null],
  ["真是帮了我大忙了！", null],
  ["冷冷冷", null],
  ["你在不在", null],
  ["今天也辛苦啦", null],
  ["改天再一起玩呀", null],
  ["我闺女今年上幼儿园了。", "Master的闺女今年上幼儿园了", "master", "high"],
  ["三十岁之前我要存够五十万。", "三十岁之前Master要存够五十万", "master", "mid"],
  ["上个月拔了两颗智齿。", "Master上个月拔了两颗智齿", "master", "high"],
  ["我姐下个月生宝宝(^^)", "Master的姐下个月生宝宝", "master", "high"],
  // friends and classmates are the speaker's; blood type, self-study and what to be called are weighted
  ["发小小王在当兵。", "Master的发小小王在当兵", "master"],
  ["我是AB型血。", "Master是AB型血", "master", "high"],
  ["我在自学日语。", "Master在自学日语", "master", "mid"],
  ["叫我阿明就行。", "叫Master阿明就行", "master", "high"],
  ["我有点近视。", "Master有点近视", "master", "high"],
  ["我和同学约好寒假去哈尔滨。", "Master和同学约好寒假去哈尔滨", "master", "high"],
  ["希望你说话别那么客气。", "Master希望Tian说话别那么客气", "master", "high"]
]

const traditional: ReadonlyArray<Row> = [
  ["我對貓毛過敏，所以不能養貓。", "Master對貓毛過敏，所以不能養貓", "master", "high"],
  ["我媽媽是護士，在台北的醫院工作。", "Master的媽媽是護士，在台北的醫院工作", "master", "high"],
  ["我每天早上都會去跑步。", "Master每天早上都會去跑步", "master"],
  ["我們下週要去墾丁玩。", "Master他們下週要去墾丁玩", "master", "high"],
  ["謝謝，妳真好", null],
  ["謝謝！", null],
  ["你喜歡什麼？", null]
]

describe("Japanese and Chinese extraction", () => {
  it.effect("Japanese: the dropped subject is the master, a pet or relative is the master's", () => checkRows(japanese))
  it.effect("Japanese: topic openings, hedges, wishes and fillers", () => checkRows(japaneseClasses))
  it.effect("Simplified Chinese", () => checkRows(chinese))
  it.effect("Chinese: we, quotations, vocatives, weather and fillers", () => checkRows(chineseClasses))
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
        ["我会提醒你周五去看兽医。", "Tian会提醒Master周五去看兽医", "neko"],
        ["わかった！覚えておくね", null],
        ["また明日もお話ししようね", null],
        ["Master、今日もお疲れさま", null]
      ],
      "ai"
    )
  )
})
