/**
 * The concept tables of recall's query and index expansion (Concepts.ts): per concept, the words that name it
 * or one of its kinds, in English (single words, matched by their Porter2 stem), Japanese and Chinese (matched
 * as substrings; one script is enough, the matcher folds entries the way texts are folded). A concept may
 * name broader ones (`cat` is a `pet`), which a text naming it also gets. Question words and other words
 * that carry no content are not listed. Data only.
 */

export interface Concept {
  readonly id: string
  readonly broader?: ReadonlyArray<string>
  readonly en: string
  readonly cjk: string
}

export const concepts: ReadonlyArray<Concept> = [
  // age and birthday
  { id: "age", en: "age aged", cjk: "岁 歳 年纪 年龄 年齢 多大 几岁 何歳 いくつ 幾つ" },
  { id: "birthday", en: "birthday bday", cjk: "生日 誕生日 生辰" },
  // origin and home
  {
    id: "origin",
    en: "hometown",
    cjk: "老家 家乡 故乡 出身 出生 地元 故郷 ふるさと 生まれ 哪里人 哪儿人 籍贯 实家 実家"
  },
  {
    id: "home",
    en: "live lives lived flat apartment house home roommate flatmate housemate",
    cjk: "住 家在 搬家 搬到 搬去 公寓 宿舍 合租 室友 暮らし 暮らす 引っ越 マンション アパート ルームメイト 同居 一人暮らし"
  },
  // work
  {
    id: "job",
    en: "job jobs work works worked working career profession occupation employ employed living",
    cjk:
      "工作 上班 职业 职位 公司 单位 做什么的 干什么的 哪行 仕事 働 職業 勤め 勤務 会社 職場 就职 就職 " +
      "老师 教师 律师 医生 护士 设计师 工程师 程序员 会计 厨师 司机 警察 公务员 店员 销售 记者 画家 作家 " +
      "教師 医師 医者 看護師 弁護士 保育士 消防士 美容師 会社員 公務員 店員 エンジニア プログラマー デザイナー 先生 " +
      "消防员 理发师 美容师 老板 社長 员工"
  },
  {
    id: "occupation",
    broader: ["job"],
    en: "nurse teacher doctor lawyer engineer programmer developer designer chef cook firefighter accountant pediatrician dentist",
    cjk: "师 員 员 护士 医生"
  },
  { id: "worktime", en: "shift shifts overtime nights", cjk: "加班 下班 上班 夜班 早班 残業 夜勤 シフト 定時" },
  { id: "boss", en: "boss manager supervisor", cjk: "上司 老板 领导 经理 主管 部长 課長 部長 店長 店长" },
  { id: "colleague", en: "colleague coworker", cjk: "同事 同僚 同期 职场 職場" },
  // family
  { id: "father", broader: ["parent"], en: "father dad daddy", cjk: "爸 父 爹 親父" },
  { id: "mother", broader: ["parent"], en: "mother mom mum mommy mummy", cjk: "妈 母 お袋" },
  { id: "parent", en: "parent parents", cjk: "父母 爸妈 両親 亲 親" },
  { id: "brother", broader: ["sibling"], en: "brother", cjk: "哥 弟 兄" },
  { id: "sister", broader: ["sibling"], en: "sister", cjk: "姐 妹 姊 姉" },
  { id: "sibling", en: "sibling siblings", cjk: "兄弟 姐妹 きょうだい" },
  {
    id: "grandfather",
    broader: ["grandparent"],
    en: "grandfather grandpa granddad grandad",
    cjk: "爷爷 祖父 外公 姥爷 じいちゃん じいさん 爺"
  },
  {
    id: "grandmother",
    broader: ["grandparent"],
    en: "grandmother grandma granny nan nana",
    cjk: "奶奶 祖母 外婆 姥姥 ばあちゃん ばあさん 婆"
  },
  { id: "grandparent", en: "grandparent grandparents", cjk: "祖父母" },
  { id: "child", en: "son daughter kid kids child children", cjk: "儿子 女儿 孩子 小孩 息子 娘 子供 子ども" },
  { id: "cousin", en: "cousin niece nephew", cjk: "表妹 表姐 表哥 表弟 堂妹 堂姐 堂哥 堂弟 いとこ 侄 甥 姪" },
  {
    id: "partner",
    en: "partner boyfriend girlfriend husband wife spouse fiance fiancee dating",
    cjk: "老公 老婆 丈夫 妻子 爱人 对象 男朋友 女朋友 男友 女友 恋人 彼氏 彼女 旦那 夫 妻 嫁 奥さん 交往 谈恋爱 在一起 付き合"
  },
  { id: "marriage", en: "married marry marriage wedding", cjk: "结婚 婚 結婚" },
  { id: "ex", en: "ex", cjk: "前男友 前女友 前夫 前妻 元彼 元カレ 元カノ 元夫 元妻" },
  // friends
  {
    id: "friend",
    en: "friend friends buddy bestie pal",
    cjk: "朋友 好友 闺蜜 哥们 死党 发小 知己 親友 友達 友人 友だち 仲良し 仲のいい"
  },
  // pets
  { id: "pet", en: "pet pets", cjk: "宠物 ペット 飼 养了 乌龟 兔子 仓鼠 ハムスター 鹦鹉 インコ 金鱼 金魚 うさぎ 亀" },
  { id: "cat", broader: ["pet"], en: "cat cats kitten kitty tabby", cjk: "猫 ネコ ねこ ニャン" },
  {
    id: "dog",
    broader: ["pet"],
    en: "dog dogs puppy corgi greyhound labrador poodle retriever terrier beagle husky",
    cjk: "狗 犬 柯基 泰迪 金毛 哈士奇 拉布拉多 博美 比熊 いぬ イヌ ワンちゃん わんこ"
  },
  // food and drink
  {
    id: "food",
    en: "food foods eat eats eating dish dishes meal snack dessert cuisine",
    cjk: "吃 食べ 食物 食べ物 美食 料理 菜 好物 零食 饭 ご飯 ごはん 食事"
  },
  {
    id: "sweets",
    broader: ["food"],
    en: "sweets sweet dessert cake chocolate candy",
    cjk: "甜 スイーツ お菓子 甘い 蛋糕 ケーキ 巧克力 チョコ 点心 和菓子"
  },
  { id: "taste", en: "spicy taste flavor flavour", cjk: "辣 辛い 辛いもの 味 口味 酸 苦い" },
  { id: "drink", en: "drink drinks coffee tea latte beer wine", cjk: "喝 飲 饮 咖啡 コーヒー 茶 奶茶 酒 ビール 啤酒" },
  // likes and dislikes
  {
    id: "like",
    en: "love loves favourite favorite enjoy",
    cjk: "喜欢 爱 热爱 好き 大好き 好物 目がない 迷上 夢中 ハマ"
  },
  {
    id: "dislike",
    broader: ["aversion"],
    en: "hate hates dislike dislikes",
    cjk: "讨厌 不喜欢 烦 受不了 苦手 嫌い 無理 我慢できない 耐えられない 嫌 不吃 食べられない"
  },
  { id: "fear", broader: ["aversion"], en: "afraid scared fear terrified phobia", cjk: "怕 恐惧 怖い 恐い 怖 恐怖" },
  { id: "aversion", en: "avoid", cjk: "避け 不敢" },
  // health
  {
    id: "health",
    en: "health sick ill illness pain asthma allergy allergic condition injury injured broke broken fracture hurt",
    cjk: "病 痛 健康 身体 体 调子 調子 具合 医院 病院 过敏 アレルギー 失眠 哮喘 喘息 腰 悪い 整体 怪我 受伤 骨折 摔"
  },
  { id: "allergy", broader: ["health"], en: "allergy allergic", cjk: "过敏 アレルギー" },
  { id: "sleep", en: "sleep insomnia asleep", cjk: "睡 眠 失眠 寝 不眠" },
  { id: "vision", en: "vision eyesight glasses contacts", cjk: "视力 眼睛 眼镜 近视 目が メガネ コンタクト 視力" },
  { id: "hand", en: "handed lefty", cjk: "手 撇子 利き" },
  // free time
  { id: "hobby", en: "hobby hobbies pastime passion", cjk: "爱好 兴趣 趣味 嗜好 消遣 迷上 夢中 ハマ 热衷" },
  { id: "offday", en: "weekend weekends holiday", cjk: "休日 休み 假日 周末 週末 空闲 暇 平时 放假 休息日" },
  {
    id: "sport",
    en: "sport sports exercise workout gym run running jog climbing yoga tennis swim swimming football soccer marathon",
    cjk: "运动 锻炼 健身 跑步 游泳 瑜伽 爬山 登山 骑车 篮球 足球 网球 スポーツ 運動 ヨガ ジョギング ランニング テニス サッカー 野球 水泳 筋トレ ジム 部活 散歩"
  },
  {
    id: "music",
    en: "music song songs singer band album concert",
    cjk: "音乐 歌 唱 乐队 演唱会 音楽 アーティスト 歌手 バンド ライブ 聴"
  },
  {
    id: "instrument",
    broader: ["music"],
    en: "instrument instruments piano guitar violin cello drums flute violinist pianist",
    cjk: "乐器 钢琴 吉他 小提琴 大提琴 鼓 楽器 ピアノ ギター バイオリン チェロ ドラム"
  },
  {
    id: "travel",
    en: "trip travel travelling traveling holiday vacation visit",
    cjk: "旅游 旅行 出差 去玩 旅 観光 游玩"
  },
  // plans and time spans
  {
    id: "plan",
    en: "plan plans planning goal goals dream dreams someday future",
    cjk: "将来 いつか 夢 目標 目标 梦想 理想 打算 计划 計画 予定 つもり 以后想 有一天"
  },
  { id: "duration", en: "long", cjk: "多久 多长时间 几年 年了 个月了 何年 どのくらい どれくらい 年になり" },
  // study
  {
    id: "study",
    en: "study studied studying major degree course class learn learning school university college uni",
    cjk: "学习 学 读 念书 专业 大学 勉強 専攻 習 学校 研究生 考试 试験 資格 课"
  },
  { id: "language", en: "language languages", cjk: "语 語 言語 外语 外国語" },
  {
    id: "commute",
    en: "commute transport car bike bicycle train bus drive",
    cjk: "通勤 移动 移動 交通 自行车 自転車 电车 電車 地铁 地下鉄 公交 巴士 开车 車"
  },
  { id: "name", en: "name named call called nickname", cjk: "名字 名前 称呼 呼ば 叫 あだ名 外号 昵称" },
  { id: "color", en: "colour color colours colors", cjk: "颜色 色" }
]
