/**
 * Japanese rules for the extraction engine. Japanese mostly drops the subject, so a statement with no
 * first-person word gets the speaker as its subject ("辛い食べ物が苦手" → "Masterは辛い食べ物が苦手"); one that
 * opens on a family member, a pet or an attribute of the speaker gets the speaker as its owner
 * ("猫のミケは…" → "Masterの猫ミケは…", "趣味は…" → "Masterの趣味は…"); one that opens on some other topic
 * ("この映画は…") is a remark unless it states a preference. "私"/"僕"/"俺" become the speaker's name,
 * "あなた"/"君" the listener's, "私たち" the two of them or the speaker's people.
 */
import type { Topic, Voice } from "./Clause.js"
import type { Group, LanguageTable } from "./Tabled.js"

const kin =
  "お母さん|お父さん|お兄ちゃん|お姉ちゃん|おばあちゃん|おじいちゃん|母親|父親|両親|家族|兄弟|姉妹|息子|娘|長男|長女|次男|次女|旦那|夫|妻|嫁|彼氏|彼女|婚約者|祖母|祖父|孫|いとこ|叔母|叔父|伯母|伯父|母|父|兄|弟|姉|妹|ママ|パパ|子供|子ども|親友|友達|友人|上司|同僚|ルームメイト|ペット|愛犬|愛猫|猫|犬|子猫|子犬|ハムスター|うさぎ|インコ"
const attributes =
  "趣味|名前|誕生日|仕事|職業|出身|実家|地元|故郷|夢|目標|血液型|星座|専攻|最寄り駅|好きな[^はが]{1,8}|苦手な[^はが]{1,8}|得意な[^はが]{1,8}|口癖|日課|家"
const timeTopic =
  /^(今日|昨日|明日|毎日|毎朝|毎晩|毎週|毎月|週末|今週|来週|先週|今月|来月|先月|今年|来年|去年|昨年|最近|昔|子供の頃|小さい頃|学生の頃|夏|冬|春|秋|朝|夜|休み|休日|平日|土曜|日曜|月曜|火曜|水曜|木曜|金曜|[0-9０-９]+(時|日|月|年))(日)?(は|に|も|、)/
const self = /(私|わたし|あたし|僕|ぼく|俺|おれ|オレ|自分)(?=は|の|が|も|に|を|と|で|って|、|だけ|より|から)/g
const group = /(私たち|私達|わたしたち|僕たち|僕達|僕ら|俺たち|俺ら|うちら|我々)/g
const listener = /(あなた|あんた|君|きみ|お前|おまえ)(?=は|の|が|も|に|を|と|って|、|だけ|より)/g
const preference =
  /(好き|嫌い|苦手|得意|大好き|食べられない|飲めない|食べない|食べません|飲まない|飲みません|アレルギー|怖い|ダメ|だめ|無理)/
const kinStart = new RegExp(
  `^(${kin})(?:の([\\p{Script=Katakana}ー]{1,10}|[\\p{Script=Han}]{1,3}|[\\p{Script=Hiragana}]{2,4}(?=ちゃん|くん))(ちゃん|くん|君|さん)?)?(は|が|も|って|、|と)`,
  "u"
)
const attributeStart = new RegExp(`^(${attributes})(は|が|って)`)
const otherTopic = /^([^、。はがを]{1,12}?)(は(?!ず)|って(?=[、,]))/
const content = /[\p{Script=Han}\p{Script=Katakana}]{1,}/u

const groupPhrase = (voice: Voice, g: Group) =>
  g.shared ? `${voice.self}と${voice.other}` : g.family ? `${voice.self}の家族` : `${voice.self}たち`

const pronouns = (sentence: string, voice: Voice, g: Group): string =>
  sentence
    .replace(group, groupPhrase(voice, g))
    .replace(self, voice.self)
    .replace(/^うちの/, `${voice.self}の`)
    .replace(listener, voice.other)

const rewrite = (sentence: string, voice: Voice, g: Group): string | undefined => {
  const explicit = sentence.search(self) >= 0 || sentence.search(group) >= 0 || /^うちの/.test(sentence)
  let text = pronouns(sentence, voice, g)
  if (explicit) return text
  const owned = kinStart.exec(text)
  if (owned) {
    const [whole, who, name, suffix, particle] = owned
    if (particle === "が" && preference.test(text)) return `${voice.self}は${text}`
    text = `${voice.self}の${who}${name ?? ""}${suffix ?? ""}${particle}${text.slice(whole.length)}`
    return text
  }
  if (attributeStart.test(text)) return `${voice.self}の${text}`
  if (text.length < 4 || !content.test(text)) return undefined
  const topic = otherTopic.exec(text)
  if (topic && !timeTopic.test(text) && !preference.test(text) && !text.startsWith(voice.other)) return undefined
  return `${voice.self}は${text}`
}

const topics: ReadonlyArray<readonly [Topic, RegExp]> = [
  ["identity", /(名前|誕生日|生まれ|歳|才|出身|呼んで|血液型|星座|あだ名)/],
  [
    "health",
    /(アレルギー|喘息|糖尿|病気|病院|通院|薬|手術|持病|体調|頭痛|偏頭痛|うつ|不眠|妊娠|ベジタリアン|ビーガン|菜食|食べられない|飲めない|怪我|ケガ|骨折|花粉症|入院|治療|検査|血圧|ダイエット|禁煙|禁酒)/
  ],
  [
    "family",
    /(母|父|兄|弟|姉|妹|息子|娘|夫|妻|旦那|嫁|彼氏|彼女|祖母|祖父|おばあちゃん|おじいちゃん|家族|両親|子供|子ども|結婚|離婚|婚約|孫|いとこ|叔母|叔父|ママ|パパ)/
  ],
  ["pet", /(猫|犬|ペット|ハムスター|うさぎ|インコ|金魚|飼って|飼う|子猫|子犬|愛犬|愛猫)/],
  [
    "work",
    /(仕事|働いて|働く|働き|勤めて|勤務|会社|職場|上司|同僚|転職|就職|退職|バイト|アルバイト|看護師|エンジニア|教師|先生|医者|学生|大学|高校|学校|専攻|試験|夜勤|シフト|残業|出張|研究|卒業|資格)/
  ],
  ["home", /(住んで|住む|住み|引っ越|一人暮らし|実家|アパート|マンション|家賃|地元|上京)/],
  [
    "plan",
    /(予定|つもり|来週|来月|来年|明日|今度|計画|目標|夢|楽しみ|したい|行きたい|やりたい|始めたい|になりたい|する予定)/
  ],
  ["habit", /(毎朝|毎日|毎晩|毎週|毎月|いつも|よく|習慣|日課|ずっと|たまに|週に|月に|年間|年前から|通って)/],
  ["preference", /(好き|嫌い|苦手|大好き|ハマって|はまって|趣味|推し|ファン|怖い|得意|興味)/],
  [
    "milestone",
    /(初めて|ついに|やっと|優勝|合格|卒業|完走|マラソン|旅行|昇進|始めた|始めました|デビュー|受賞|入賞|発表会|コンサート|大会)/
  ],
  ["relationship", /(一緒に|二人で|いつもありがとう|大切|信頼)/],
  [
    "daily",
    /(朝ご飯|朝ごはん|朝食|昼ご飯|昼ごはん|昼食|ランチ|晩ご飯|晩ごはん|夕食|夕飯|おやつ|食べた|飲んだ|今日|今朝|今夜)/
  ]
]

export const japanese: LanguageTable = {
  sentences: new Intl.Segmenter("ja", { granularity: "sentence" }),
  lead: /^(ただいま|おかえり|ねえ|ねぇ|あのね|あのさ|あの|えっと|えーと|うーん|まあ|あっ|あ|ああ|おお|へえ|そうそう|実は|ところで|そういえば|ちなみに|正直|うん|はい|いや|でも|それと|あと|ちょっと聞いて)(?:[、,！!\s]+|(?<=実は|ところで|そういえば|ちなみに|正直))/,
  trail:
    /(?:[。．.!！?？…~〜ー、\s]|[（(]笑[）)]|笑|[wｗ]+|ね|よ|よね|ねー|なぁ|なあ|わ|ぞ|ぜ|[♪☆★]|\p{Extended_Pictographic})$/u,
  filler:
    /^(?:こんにちは|こんばんは|おはよう(?:ございます)?|おやすみ(?:なさい)?|ありがとう(?:ございます)?|ありがと|どうも|よろしく(?:ね|お願いします)?|なるほど|そうだ|そうです|そうなんだ|そうなんです|そうなの|そっか|そうか|いいね|いいです|わかった|分かった|わかりました|分かりました|了解|りょうかい|うん|ううん|はい|ええ|へえ|へー|ふーん|すごい|本当|ほんと|マジ|まじ|笑|[wｗ]|は+|あはは|ふふ|えへへ|おお|わあ|わー|やった|じゃあ|またね|また|バイバイ|ただいま|おかえり|お疲れ(?:様)?|おつかれ|大丈夫|オッケー|おっけー|ok|OK|そうそう|確かに|たしかに|だよ|です|もちろん|さすが|かわいい|素敵|最高|いいよ|ごめん|すみません|こちらこそ|ね|よ|な|さん|ちゃん|くん)+$/i,
  question: /(?:ですか|ますか|でしょうか|ませんか|かな|かしら|だっけ|っけ|の[?？]|か[?？]|[?？])$/,
  questionSplit: /(?:んだけど|けど|けれど|が)?[、,]/,
  remarks: [
    /^(?!.*(好き|嫌い|苦手)).*(天気|雨が|雨だ|雨です|晴れ|暑い|寒い|蒸し暑|雪が|台風|曇り)/,
    /^(?:今|いま|さっき|ちょうど|やっと)?(?:仕事|学校|バイト|会社)?(?:から)?(?:帰って(?:きた|きました)|帰った|帰りました|戻った|戻りました|着いた)$/,
    /^(?:あー|ああ)?(?:すごく|とても|めっちゃ|超|ちょっと|もう|本当に|ほんとに|なんか)?(?:疲れた|眠い|ねむい|お腹(?:が)?(?:すいた|空いた|ぺこぺこ)|暇|ひま|退屈)(?:だ|です)?$/,
    /^(?:そろそろ|もう|今から)?(?:寝る|寝ます|寝よう|落ちる)(?:ね|よ|わ|かな)?$/,
    /^(?:それ|そう|あれ|これ|そんな)(?:は|って|も)?(?:すごい|いい|よかった|大変|面白い|楽しそう|素敵|ひどい|残念|かわいい|嬉しい|うれしい)/,
    /(?:よかった|おめでとう|頑張って|がんばって|気をつけて|お大事に|楽しんで|無理しないで|元気出して|嬉しい|うれしい)(?:ね|です|ございます)?$/,
    /^(?:楽しそう|おいしそう|美味しそう|いいな|羨ましい|うらやましい|面白そう)/
  ],
  directive:
    /^(?:もう)?(.+?)(?:のこと|の話題|の話|について)(?:は|には|を)?(?:もう|二度と)?(?:しないで|話さないで|言わないで|触れないで|聞かないで|持ち出さないで|出さないで)|^(?:もう)?(.+?)(?:には|は|を|に)?(?:もう|二度と)?(?:話さないで|言わないで|触れないで|聞かないで|話題にしないで|持ち出さないで)/,
  remember:
    /^(?:(.+?)(?:って|ということ|ことを|のを|を)(?:覚えて(?:おいて|て|ほしい)|覚えといて|忘れないで)|(?:覚えて(?:おいて|て|ほしい)|覚えといて|忘れないで)(?:ね|ほしい|ください)?[、,:：]\s*(.+))/,
  shared: /(一緒に|二人で|ふたりで|あなたと|君と|きみと|私たち二人)/,
  family: /(家族|子供|子ども|息子|娘|夫|妻|旦那|嫁|両親)/,
  topics,
  rewrite,
  pronouns,
  directiveText: (self, what) => `${self}は${what}の話をしてほしくない`,
  rememberText: (self, _other, what) => `${self}が覚えてほしいこと：${what}`
}
