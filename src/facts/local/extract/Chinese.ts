/**
 * Chinese rules for the extraction engine, Simplified and Traditional alike: the patterns are written in
 * Simplified and a Traditional sentence is folded onto them character by character (ChineseFold.ts), while
 * the fact keeps the script it was said in. "我" becomes the speaker's name ("我的"/"我+family word" →
 * "<name>的"), "你" the listener's, "我们" by what follows it (see groupPhrase), quoted speech is kept as
 * said; a statement that opens on a family member or an attribute of the speaker gets the speaker as owner,
 * one with no subject gets the speaker as subject, and one about a thing pointed at, an opinion on the
 * world, hearsay or the mood of today is a remark unless it states a preference.
 */
import type { Topic, Voice } from "./Clause.js"
import { foldChinese } from "./ChineseFold.js"
import { outsideQuotes, type Group, type LanguageTable } from "./Tabled.js"

const kin =
  "前男友|前女友|前任|闺女|媳妇|老妈|老爸|婆婆|公公|岳父|岳母|丈母娘|狗子|娃|妈妈|妈|爸爸|爸|父母|爸妈|母亲|父亲|哥哥|哥|弟弟|弟|姐姐|姐|妹妹|妹|老公|老婆|丈夫|妻子|太太|先生|男朋友|女朋友|男友|女友|对象|未婚夫|未婚妻|儿子|女儿|孩子|宝宝|奶奶|爷爷|外婆|外公|姥姥|姥爷|姑姑|阿姨|叔叔|舅舅|表哥|表姐|表弟|表妹|堂哥|堂姐|家人|家里人|室友|同事|老板|上司|闺蜜|好朋友|朋友|发小|死党|哥们|老同学|同学|邻居|师父|师傅|学长|学姐|学弟|学妹|班长|教练|导师|猫咪|猫|狗狗|狗|宠物"
const person = new RegExp(`(我们|咱们)|(我)(?=${kin}|家|的)|(我)|(你|您)(?!们)`, "g")
const kinStart = new RegExp(`^(${kin})(?!.*(?:喜欢|可爱|好萌|很萌))`)
const attributeStart = /^(爱好|兴趣|名字|生日|工作|职业|梦想|目标|专业|老家|家乡|血型|星座|口头禅)(是|在|叫)/
const bare =
  /^(最近|每天|每周|每个|平时|一直|经常|总是|常常|已经|刚刚|刚|正在|在|喜欢|讨厌|爱|不|没|很|特别|超|非常|对|住|搬|去|打算|准备|想|要|会|明天|昨天|今天|上周|下周|上个|下个|去年|明年|周末|小时候|以前|现在|还|也|都|有|是|从|才|曾经|今年|下个月|上个月|这周|这个月|早上|晚上)/
const preference = /(喜欢|讨厌|爱吃|不吃|不能吃|过敏|害怕|怕|受不了|最爱|不爱)/
const content = /\p{Script=Han}{2,}/u

/**
 * "我们" in the third person, by what follows it: "我们家/全家" is the speaker's household ("Master家"),
 * "我们公司/老板/学校…" the place or person the speaker belongs to ("Master的公司"); otherwise the two of them
 * when it is shared with the listener ("Master和小葵", "俩" folded in), the speaker's family when it speaks of
 * family, and else "Master他们": the colloquial "X and the people with X", which a Chinese reader takes for the
 * speaker's party without a guess at who they are (们 kept in the script it was said in).
 */
const belongs =
  /^(?:公司|单位|部门|团队|组|学校|大学|学院|系|班|宿舍|小区|楼|村|老家|城市|国家|店|社团|医院|老板|领导|经理|老师|班主任|教授|导师|队)/
const groupPhrase = (voice: Voice, g: Group, said: string, next: string) => {
  if (/^(?:全家|家|一家)/.test(next)) return { by: voice.self, eat: 0 }
  if (belongs.test(next)) return { by: `${voice.self}的`, eat: 0 }
  if (g.shared) return { by: `${voice.self}和${voice.other}`, eat: /^(?:俩|两个)/.exec(next)?.[0].length ?? 0 }
  if (g.family) return { by: `${voice.self}一家`, eat: 0 }
  return { by: `${voice.self}${said.includes("們") ? "他們" : "他们"}`, eat: 0 }
}

/** Replaces the pronouns where the folded text has them, keeping the original script elsewhere. */
const unquoted = (text: string, voice: Voice, g: Group): string => {
  const folded = foldChinese(text)
  let out = ""
  let last = 0
  for (const m of folded.matchAll(person)) {
    const at = m.index ?? 0
    if (at < last) continue
    const group = m[1]
      ? groupPhrase(voice, g, text.slice(at, at + m[0].length), folded.slice(at + m[0].length))
      : undefined
    const by = group
      ? group.by
      : m[2]
        ? /[的家]/.test(folded.charAt(at + 1))
          ? voice.self
          : `${voice.self}的`
        : m[3]
          ? voice.self
          : voice.other
    out += text.slice(last, at) + by
    last = at + m[0].length + (group?.eat ?? 0)
  }
  return out + text.slice(last)
}

const pronouns = (text: string, voice: Voice, g: Group): string =>
  outsideQuotes(text, (part) => unquoted(part, voice, g))

const someoneElse =
  /^(这|那|它|他|她|天气|外面|今天天气|电影|这部|那部|这个|那个|大家|别人|有人|人生|生活就是|世界|社会)/
/** "这几年", "那时候": a time pointed at, not a thing. */
const deicticTime = /^(?:这|那)(?:几|些|段|阵|周|个月|个星期|个(?:夏|冬|春|秋)天|学期|次|两|年|时|天)/
/** Opinions on the world, hearsay and the mood of today: not about the speaker's life. */
const passing = [
  /(?:太|好|真|都好|也太|特别|超|真的好|都太)(?:多|少|贵|便宜|挤|吵|难|乱|脏|快|慢)了?$/,
  /^(?:新闻|电视|网上|微博|听说|据说)/,
  /^(?:今天|今晚|今天一天)(?:过得)?(?:还|挺|很|真|好|太)?(?:不错|开心|累|充实|糟糕|顺利|无聊)(?:的)?$/
]
const verdict = /(好看|好吃|好听|有意思|有趣|不错|可爱|漂亮|厉害|好玩|无聊|萌)了?$/

const rewrite = (sentence: string, voice: Voice, g: Group): string | undefined => {
  const folded = foldChinese(sentence)
  if (/我|咱/.test(folded)) return pronouns(sentence, voice, g)
  const text = pronouns(sentence, voice, g)
  if (kinStart.test(folded) || attributeStart.test(folded)) return `${voice.self}的${text}`
  if (!content.test(folded)) return undefined
  if (passing.some((re) => re.test(folded)) && !preference.test(folded)) return undefined
  if (bare.test(folded) || preference.test(folded)) return `${voice.self}${text}`
  if ((someoneElse.test(folded) && !deicticTime.test(folded)) || verdict.test(folded) || folded.startsWith(voice.other))
    return undefined
  return `${voice.self}${text}`
}

const topics: ReadonlyArray<readonly [Topic, RegExp]> = [
  [
    "identity",
    new RegExp(
      `^(?![^，。]{0,12}的(?:${kin}))[^]*(?:名字|叫我|叫\\S{1,16}(?:就行|就好|就可以)|生日|出生|岁(?!之前|以前|以后|之后|前|时|的时候)|星座|血型|型血|老家|家乡|来自)`
    )
  ],
  [
    "health",
    /(过敏|哮喘|糖尿病|生病|病了|医院|看病|吃药|药|手术|头痛|偏头痛|失眠|抑郁|焦虑|怀孕|素食|吃素|不吃肉|不能吃|不能喝|受伤|骨折|住院|治疗|体检|血压|减肥|戒烟|戒酒|身体|不耐受|拉肚子|肠胃|胃不好|不太能喝|酒量|抽烟|吸烟|脸红|近视|视力|心慌|心悸|智齿|拔牙|牙医|蛀牙)/
  ],
  [
    "family",
    /(妈|爸|父母|母亲|父亲|哥|弟|姐|妹|老公|老婆|丈夫|妻子|太太|男朋友|女朋友|男友|女友|儿子|女儿|孩子|宝宝|闺女|媳妇|娃|奶奶|爷爷|外婆|外公|姥姥|家人|家里人|口人|全家|结婚|离婚|订婚|婚礼|一家)/
  ],
  ["pet", /(猫|狗|宠物|仓鼠|兔子|鹦鹉|金鱼|乌龟|养了|领养)/],
  [
    "work",
    /(工作|上班|下班后|公司|老板|同事|上司|辞职|跳槽|升职|加班|夜班|护士|工程师|老师|医生|程序员|设计师|律师|学生|大学|高中|学校|专业|考试|实习|毕业|读研|读书|研究|兼职|打工|创业|网课|留学|转行|课程|记者|当过|做过)/
  ],
  ["home", /(住在|住|搬到|搬去|搬家|搬来|租房|房子|公寓|老家|家乡|一个人住|宿舍)/],
  ["plan", /(约好|暑假|寒假|打算|准备|计划|明天|下周|下个月|明年|以后|将来|想要|想去|要去|会去|梦想|目标|期待)/],
  ["habit", /(每天|每周|每个|每晚|每早|平时|一直|经常|总是|常常|习惯|坚持|通常|一般|基本|年了|从小|在学)/],
  ["preference", /(过瘾|最适合|喜欢|讨厌|爱吃|爱喝|不吃|最爱|爱好|兴趣|害怕|怕|受不了|迷上|粉丝)/],
  ["milestone", /(第一次|终于|赢了|冠军|毕业|通过|完成|马拉松|旅行|旅游|升职|开始学|开始|加入|比赛|演出|音乐会)/],
  ["relationship", /((?:希望|想让)[^，。]{0,8}(?:说话|聊天|称呼|叫)|一起|我们俩|谢谢你一直|信任|陪我)/],
  ["daily", /(早饭|早餐|午饭|午餐|晚饭|晚餐|夜宵|吃了|喝了|今天|今晚|今早)/]
]

export const chinese: LanguageTable = {
  sentences: new Intl.Segmenter("zh", { granularity: "sentence" }),
  fold: foldChinese,
  lead: /^(嗯+|哦+|噢|啊|哇|唉|诶|欸|那个|其实|对了|话说|说真的|老实说|顺便说一下|不过|但是|而且|还有|然后|所以|好吧|好的|是啊|对啊|哈哈+)(?:[，,、！!\s]+|(?<=其实|对了|话说|说真的|老实说|然后|所以|不过|但是|而且|还有))/,
  trail:
    /(?:[。．.!！?？…~～、，,\s]|哈+|呵+|嘿+|[啦呀呢吧哦啊哇喔]|(?<!干)嘛|[♪☆★]|[（(][^\p{L}\p{N}()（）]{1,8}[)）]|\p{Extended_Pictographic})$/u,
  filler:
    /^(?:(?:太|非常|真的|真|超|十分)?(?:感谢|谢谢|谢)(?:你|您|妳)?(?:了|啦|哈)?|感激不尽|感激|得走了|该走了|要走了|走了|去忙了|回聊|太懂了|太真实了|真实|有同感|同感|深有同感|太对了|不是|不会|真假|真的假的|(?:明天|改天|下次|回头|晚点|待会|等会)(?:再)?(?:一起)?(?:聊|见|说|玩)|(?:真是|真的|真|太)?帮(?:了)?(?:我)?(?:大忙|很多|不少)(?:了)?|笑出声了|笑出声|笑出眼泪|睡了|去睡了|睡觉了|下线了|那|算了|等一下|等等|稍等|有道理|说得对|也是|对哦|我都不知道|都不知道|不知道|没想到|你好|您好|谢谢你|谢谢您|谢谢你陪我聊天|谢谢你陪我|帮大忙了|帮了大忙|帮大忙|太感谢了|感谢感谢|笑死我了|笑死|笑不活了|笑疯了|笑喷了|笑哭|笑|太好笑了|好好笑|绷不住了|乐死我了|xswl|2333*|草|绝了|绝绝子|牛|牛逼|太牛了|yyds|明天见|下次见|回头聊|下次聊|改天聊|先这样|先撤了|撤了|先走了|先下了|溜了|我|嗨|哈喽|早上好|早安|早|午安|晚上好|晚安|再见|拜拜|回头见|谢谢|谢啦|多谢|感谢|不客气|没关系|没事|好的|好|好吧|行|可以|嗯|哦|噢|是的|是啊|对|对啊|没错|确实|真的|真的吗|原来如此|原来是这样|明白了|明白|知道了|懂了|收到|了解|太好了|不错|厉害|好厉害|真棒|棒|加油|哈|呵|嘿|嘻|哇|啊|呀|哦哦|嗯嗯|好耶|耶|当然|一定|辛苦了|抱歉|不好意思|对不起|我知道了|我明白了|我懂了|我也是|我也|同意|我同意|是吗|好呀|好啊|你呢|那你呢|呢|吧|啦|(?:你|您)(?:也|真的|真|好|太|最|超|特别|挺|很)*(?:是)?(?:天才|棒|可爱|聪明|厉害|贴心|温柔|懂我|善解人意|有趣|幽默|暖|好|会说话|会说|会聊天|会聊|嘴甜|会哄人)(?:了)?)+$/i,
  question:
    /(?:吗|嘛|呢|么|不|没有|是不是|对不对|好不好|行不行|可以吗|怎么办|怎么样|为什么|为啥|咋办|(\p{Script=Han})不\1)[?？]?$|[?？]$/u,
  questionSplit: /[，,]/,
  remarks: [
    /^(?!.*(喜欢|讨厌|怕|受不了|适合|每次|一到|总是|每年|雨天|雪天|的时候|的日子))(?:.*(天气|下雨|下雪|好热|好冷|太热|太冷|很热|很冷|晴天|阴天|台风|刮风)|(?:今天|今晚|现在|外面|最近)?(?:好|太|真|超|有点|特别|很)?(?:热|冷|闷|晒)+(?:死了|爆了|死|了|啊)*(?:今天)?$)/,
    /^(?:你)?(?:给我|跟我|陪我|帮我)?(?:讲|说|唱|推荐|念|来)(?:个|一个|首|一首|段|一段|点)/,
    /^(?:我)?(?:刚|才|终于)?(?:下班|放学|回来|回家|到家)(?:了)?(?:回来了|回家了)?$/,
    /^(?:我)?(?:好|太|有点|有些)?(?:累|困|饿|无聊|闲)(?:了|死了)?$/,
    /^(?:我)?(?:先|要|去)?(?:睡了|睡觉了|去睡了|洗澡了|吃饭了|下线了)$/,
    /^(?:那|这|那个|这个)?(?:真|太|好|很)?(?:好|棒|厉害|不错|有意思|有趣|可惜|可爱)(?:了)?$/,
    /(?:为你高兴|替你高兴|恭喜|祝你|加油|注意身体|早点休息|辛苦(?:了)?$|别太累|保重)/,
    /^(?:谢谢|感谢|多谢|感激)/,
    /^(?:又是|明天就是|明天又是|今天是)?(?:周|星期|礼拜)[一二三四五六日天](?:了)?$/,
    /^(?:听起来|看起来|感觉)(?:很|真|好)?(?:不错|好|棒|有趣|好玩|好吃)/
  ],
  directive:
    /^(?:请|拜托)?(?:以后)?(?:不要|别|別|不许)(?:再)?(?:跟我|和我|对我|在我面前)?(?:再)?(?:提|说|聊|问|讲|谈)(?:起|到)?(.+?)(?:了|的事)?$|^(?:我)?不想(?:再)?(?:提|说|聊|谈)(?:起|到)?(.+?)(?:了|的事)?$/,
  remember: /^(?:请|你要|要)?(?:记住|记得|别忘了|不要忘了)[，,：:]?(.+)$/,
  shared: /(一起|我们俩|咱俩|和你|跟你|你和我|我和你)/,
  family: /(家人|孩子|老公|老婆|爸|妈|父母|儿子|女儿|一家)/,
  topics,
  rewrite,
  pronouns,
  directiveText: (self, what) => `${self}不希望再提起${what}`,
  rememberText: (self, _other, what) => `${self}希望记住：${what}`
}
