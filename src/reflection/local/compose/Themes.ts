/**
 * The life themes of the `local` provider's reflections: per theme, the words that show a fact is about it
 * (English words are matched by their Porter2 stem, `a_b` entries as phrases; Japanese and Chinese entries,
 * both Chinese scripts listed, as substrings) and the phrases a reflection over it is written with. Themes of
 * one family (running and other sports, food and cooking) count as related. Data only.
 */

export interface ThemeLabel {
  /** What the theme is about, as a noun phrase ("running", "ランニング", "跑步"). */
  readonly domain: string
  /** How someone engaged in it is described (English: after "is"; `singular|plural`; others: a predicate). */
  readonly engaged: string
}

export interface Theme {
  readonly id: string
  readonly family: string
  readonly en: string
  readonly ja: string
  readonly zh: string
  readonly label: {
    readonly en: ThemeLabel
    readonly ja: ThemeLabel
    readonly hans: ThemeLabel
    readonly hant: ThemeLabel
  }
}

const label = (
  en: readonly [string, string],
  ja: readonly [string, string],
  hans: readonly [string, string],
  hant: readonly [string, string] = hans
): Theme["label"] => ({
  en: { domain: en[0], engaged: en[1] },
  ja: { domain: ja[0], engaged: ja[1] },
  hans: { domain: hans[0], engaged: hans[1] },
  hant: { domain: hant[0], engaged: hant[1] }
})

export const themes: ReadonlyArray<Theme> = [
  {
    id: "running",
    family: "sports",
    en: "run runs running ran runner jog jogging jogged marathon half_marathon 5k 10k sprint triathlon ultramarathon racing",
    ja: "ランニング ジョギング マラソン ランナー 走っ 走る 走り 走った 駅伝 5キロ 10キロ トライアスロン",
    zh: "跑步 慢跑 晨跑 夜跑 长跑 長跑 马拉松 馬拉松 半马 半馬 全马 全馬 跑鞋 跑团 跑團 跑了 跑完 铁人三项 鐵人三項",
    label: label(
      ["running", "a dedicated runner|dedicated runners"],
      ["ランニング", "ランニングに打ち込んでいる"],
      ["跑步", "热爱跑步"],
      ["跑步", "熱愛跑步"]
    )
  },
  {
    id: "fitness",
    family: "sports",
    en:
      "sport sports gym workout exercise exercises yoga pilates weightlifting swim swimming swam cycling cyclist " +
      "soccer football basketball baseball tennis volleyball badminton golf ski skiing snowboarding climbing " +
      "bouldering =training =trainer coach tournament fitness stretching weights",
    ja: "スポーツ ジム 筋トレ トレーニング 運動 ヨガ ピラティス 水泳 泳い 泳ぐ サイクリング サッカー 野球 バスケ テニス バレー バドミントン ゴルフ スキー スノボ ボルダリング 部活 ストレッチ",
    zh:
      "运动 運動 健身 锻炼 鍛鍊 鍛煉 瑜伽 游泳 骑车 騎車 自行车 自行車 足球 篮球 籃球 网球 網球 羽毛球 乒乓球 排球 " +
      "棒球 高尔夫 高爾夫 滑雪 攀岩 训练 訓練 比赛 比賽 体育 體育",
    label: label(
      ["sports", "committed to staying active"],
      ["スポーツ", "体を動かすことに打ち込んでいる"],
      ["运动", "热爱运动"],
      ["運動", "熱愛運動"]
    )
  },
  {
    id: "outdoors",
    family: "sports",
    en: "hike hiking hiked hiker camp camping mountain mountains beach =fishing kayak kayaking surfing nature trail forest",
    ja: "ハイキング キャンプ 登山 山登り 釣り 大自然 自然の中 サーフィン 海辺 カヤック アウトドア",
    zh: "徒步 爬山 登山 露营 露營 钓鱼 釣魚 海边 海邊 大自然 冲浪 衝浪 户外 戶外",
    label: label(
      ["the outdoors", "an outdoors person|outdoors people"],
      ["アウトドア", "アウトドアを楽しんでいる"],
      ["户外活动", "热爱户外活动"],
      ["戶外活動", "熱愛戶外活動"]
    )
  },
  {
    id: "food",
    family: "food",
    en:
      "food foods eat eats eating ate meal meals dinner lunch breakfast restaurant restaurants ramen sushi pizza " +
      "pasta noodle noodles udon curry rice bread cake dessert desserts sweets chocolate coffee tea snack snacks " +
      "spicy vegetarian vegan steak burger cuisine flavor flavour fruit vegetables meat =fish seafood beer wine " +
      "dish dishes delicious sandwich salad soup tofu cheese peanut peanuts gluten dairy takoyaki dumplings " +
      "milk eggs egg shellfish shrimp beef pork chicken cilantro coriander onions garlic mushrooms juice soda " +
      "soba tempura gyoza miso onigiri yakitori kimchi tacos pho bbq barbecue " +
      "ice_cream hot_pot",
    ja:
      "食べ 食事 食べ物 ラーメン 寿司 すし カレー ご飯 ごはん パン ケーキ スイーツ 甘い物 辛い物 辛いもの 激辛 コーヒー 紅茶 お茶 朝ごはん " +
      "昼ごはん 晩ごはん 夕食 朝食 昼食 ランチ ディナー レストラン 焼肉 野菜 果物 フルーツ お酒 ビール ワイン うどん " +
      "そば 蕎麦 チョコ アイス 飲み物 和食 洋食 中華 グルメ 牛乳 卵 納豆 パクチー 牛肉 豚肉 鶏肉 エビ ピーナッツ 乳製品 " +
      "飲め 食べられ",
    zh:
      "吃 美食 食物 饭菜 飯菜 拉面 拉麵 寿司 壽司 火锅 火鍋 辣 甜食 咖啡 奶茶 喝茶 早餐 午餐 晚餐 晚饭 晚飯 餐厅 " +
      "餐廳 面条 麵條 饺子 餃子 米饭 米飯 蛋糕 甜点 甜點 水果 蔬菜 海鲜 海鮮 啤酒 红酒 紅酒 零食 口味 素食 花生 " +
      "喝 牛奶 酸奶 鸡蛋 雞蛋 牛肉 猪肉 豬肉 鸡肉 雞肉 香菜 虾 蝦 巧克力 冰淇淋 豆腐 饮料 飲料 可乐 可樂 面包 麵包",
    label: label(
      ["food", "a real food lover|real food lovers"],
      ["食べ物", "食べることを楽しんでいる"],
      ["饮食", "热爱美食"],
      ["飲食", "熱愛美食"]
    )
  },
  {
    id: "cooking",
    family: "food",
    en: "cook cooks cooking cooked bake bakes baking baked recipe recipes kitchen chef grill homemade meal_prep",
    ja: "料理 自炊 お菓子作り レシピ キッチン 手料理 お弁当 弁当 作り置き",
    zh: "做饭 做飯 烹饪 烹飪 下厨 下廚 烘焙 食谱 食譜 厨房 廚房 做菜 炒菜 便当 便當",
    label: label(
      ["cooking", "a keen cook|keen cooks"],
      ["料理", "料理を楽しんでいる"],
      ["做饭", "热爱下厨"],
      ["做飯", "熱愛下廚"]
    )
  },
  {
    id: "pets",
    family: "pets",
    en: "pet pets cat cats kitten kittens dog dogs puppy puppies hamster rabbit bunny parrot aquarium turtle vet litter leash",
    ja: "猫 ねこ ネコ 犬 いぬ イヌ 子猫 子犬 ペット ハムスター うさぎ ウサギ インコ 金魚 飼っ 飼い 動物病院",
    zh: "猫 貓 狗 宠物 寵物 仓鼠 倉鼠 兔子 鹦鹉 鸚鵡 金鱼 金魚 养了 養了 领养 領養 兽医 獸醫 遛狗",
    label: label(
      ["pets", "devoted to their pets"],
      ["ペット", "ペットをとても大切にしている"],
      ["宠物", "很疼爱自己的宠物"],
      ["寵物", "很疼愛自己的寵物"]
    )
  },
  {
    id: "family",
    family: "family",
    en:
      "family mom mum mother dad father parent parents brother brothers sister sisters sibling siblings son sons " +
      "daughter daughters kid kids child children grandma grandmother grandpa grandfather grandparents aunt uncle " +
      "cousin niece nephew husband wife baby",
    ja: "家族 母 父 お母さん お父さん 両親 兄 弟 姉 妹 息子 娘 子ども 子供 祖母 祖父 おばあちゃん おじいちゃん 夫が 夫は 夫と 夫の 妻 旦那 奥さん 叔父 叔母 いとこ 赤ちゃん 実家",
    zh:
      "家人 家里 家裡 妈妈 媽媽 爸爸 父母 母亲 母親 父亲 父親 哥哥 弟弟 姐姐 妹妹 儿子 兒子 女儿 女兒 孩子 奶奶 爷爷 " +
      "爺爺 外婆 外公 老公 老婆 丈夫 妻子 叔叔 阿姨 表哥 表姐 宝宝 寶寶 老家",
    label: label(
      ["family", "close to their family"],
      ["家族", "家族を大切にしている"],
      ["家人", "很重视家人"],
      ["家人", "很重視家人"]
    )
  },
  {
    id: "work",
    family: "work",
    en:
      "work works working worked job jobs career office boss colleague colleagues coworker coworkers company " +
      "shift shifts nurse engineer manager meeting meetings project promotion salary client clients deadline " +
      "overtime business startup interview commute employer profession workplace intern internship",
    ja: "仕事 会社 職場 上司 同僚 勤め 働い 働く 残業 出勤 転職 就職 会議 給料 看護師 エンジニア 夜勤 出張 プロジェクト 昇進 面接 通勤 バイト",
    zh:
      "工作 上班 公司 同事 老板 老闆 领导 領導 加班 夜班 护士 護士 工程师 工程師 会议 會議 项目 項目 工资 工資 " +
      "升职 升職 跳槽 面试 面試 出差 职业 職業 兼职 兼職 实习 實習 辞职 辭職 客户 客戶",
    label: label(["work", "deeply involved in their work"], ["仕事", "仕事に力を注いでいる"], ["工作", "很投入工作"])
  },
  {
    id: "study",
    family: "study",
    en:
      "study studies studying studied school university college class classes exam exams homework student degree " +
      "lecture thesis certification semester textbook tutor lessons",
    ja: "勉強 学校 大学 授業 試験 テスト 宿題 学生 資格 受験 講義 卒業 論文 専攻 留学 塾 習って 学ん",
    zh:
      "学习 學習 学校 學校 大学 大學 上课 上課 考试 考試 作业 作業 学生 學生 课程 課程 毕业 畢業 论文 論文 专业 " +
      "專業 留学 留學 复习 複習 备考 備考 证书 證書 考研",
    label: label(
      ["studying", "committed to their studies"],
      ["勉強", "勉強に打ち込んでいる"],
      ["学习", "很用功"],
      ["學習", "很用功"]
    )
  },
  {
    id: "health",
    family: "health",
    en:
      "health healthy doctor hospital sick ill allergy allergies allergic medicine medication pill pills sleep insomnia " +
      "diet weight headache headaches pain surgery injury injured asthma diabetes therapy therapist checkup " +
      "symptoms flu fever dentist vitamins blood_pressure",
    ja: "健康 病院 医者 病気 アレルギー 薬 睡眠 眠れ 不眠 ダイエット 体重 頭痛 手術 怪我 けが 喘息 糖尿病 血圧 通院 検査 風邪 歯医者 体調 花粉症",
    zh:
      "健康 医院 醫院 医生 醫生 生病 过敏 過敏 吃药 吃藥 睡眠 失眠 减肥 減肥 体重 體重 头疼 頭疼 头痛 頭痛 手术 " +
      "手術 受伤 受傷 哮喘 糖尿病 血压 血壓 体检 體檢 感冒 发烧 發燒 牙医 牙醫 身体 身體",
    label: label(
      ["health", "paying close attention to their health"],
      ["健康", "体調に気を配っている"],
      ["健康", "很注意自己的健康"]
    )
  },
  {
    id: "music",
    family: "music",
    en:
      "music song songs sing sings singing sang guitar piano violin drums bass band concert concerts album " +
      "playlist karaoke choir jazz orchestra ukulele musician lyrics vinyl",
    ja: "音楽 歌 ギター ピアノ バイオリン ドラム ベース バンド ライブ コンサート アルバム カラオケ 合唱 作曲 ジャズ ロック 楽器",
    zh:
      "音乐 音樂 唱歌 吉他 钢琴 鋼琴 小提琴 打鼓 架子鼓 乐队 樂隊 演唱会 演唱會 音乐会 音樂會 专辑 專輯 卡拉OK " +
      "K歌 合唱 作曲 爵士 摇滚 搖滾 乐器 樂器",
    label: label(
      ["music", "passionate about music"],
      ["音楽", "音楽に夢中になっている"],
      ["音乐", "热爱音乐"],
      ["音樂", "熱愛音樂"]
    )
  },
  {
    id: "travel",
    family: "travel",
    en: "travel travels traveling travelling traveled travelled trip trips vacation holiday flight flew abroad overseas hotel tour sightseeing passport backpacking journey cruise airport",
    ja: "旅行 旅 海外 ホテル 観光 飛行機 空港 パスポート 温泉 ツアー",
    zh: "旅行 旅游 旅遊 出国 出國 国外 國外 酒店 飞机 飛機 机场 機場 护照 護照 景点 景點 自驾 自駕 度假 签证 簽證",
    label: label(
      ["travel", "an eager traveller|eager travellers"],
      ["旅行", "旅行を楽しんでいる"],
      ["旅行", "热爱旅行"],
      ["旅行", "熱愛旅行"]
    )
  },
  {
    id: "games",
    family: "games",
    en: "game games gaming gamer console playstation xbox nintendo_switch steam rpg minecraft pokemon chess esports board_game video_game",
    ja: "ゲーム ゲーマー プレステ 将棋 囲碁 チェス ボードゲーム ガチャ ポケモン",
    zh: "游戏 遊戲 电竞 電競 手游 手遊 主机 主機 象棋 围棋 圍棋 桌游 桌遊 开黑 開黑",
    label: label(
      ["games", "an avid gamer|avid gamers"],
      ["ゲーム", "ゲームに夢中になっている"],
      ["游戏", "很爱玩游戏"],
      ["遊戲", "很愛玩遊戲"]
    )
  },
  {
    id: "reading",
    family: "reading",
    en: "read reads reading =book =books novel novels author library manga comic comics magazine poetry poems fiction bookstore kindle",
    ja: "読書 本屋 小説 漫画 マンガ 作家 図書館 雑誌 読ん 読む 書店",
    zh: "读书 讀書 看书 看書 书籍 書籍 小说 小說 漫画 漫畫 作家 图书馆 圖書館 杂志 雜誌 诗歌 詩歌 书店 書店 阅读 閱讀",
    label: label(
      ["books", "an avid reader|avid readers"],
      ["読書", "読書を楽しんでいる"],
      ["阅读", "热爱阅读"],
      ["閱讀", "熱愛閱讀"]
    )
  },
  {
    id: "home",
    family: "home",
    en: "home house apartment rent moved moving neighbor neighbors neighbour garden gardening balcony furniture roommate landlord mortgage neighborhood",
    ja: "家に 家を 家で 部屋 マンション アパート 引っ越 住んで 家賃 近所 庭 ベランダ 家具 ルームメイト 掃除 一人暮らし",
    zh: "住在 搬家 房子 公寓 房间 房間 租房 房租 邻居 鄰居 花园 花園 阳台 陽台 家具 室友 房东 房東 装修 裝修 打扫 打掃",
    label: label(
      ["home", "settling into their home"],
      ["住まい", "住まいを大切にしている"],
      ["居家生活", "很用心经营自己的家"],
      ["居家生活", "很用心經營自己的家"]
    )
  },
  {
    id: "relationships",
    family: "relationships",
    en: "friend friends girlfriend boyfriend partner =dating crush ex breakup wedding married marry engaged anniversary relationship",
    ja: "友達 友人 彼女 彼氏 恋人 デート 元カレ 元カノ 結婚 付き合っ 失恋 親友 婚約 記念日",
    zh: "朋友 女朋友 男朋友 对象 對象 恋人 戀人 约会 約會 前任 分手 结婚 結婚 婚礼 婚禮 闺蜜 閨蜜 恋爱 戀愛 纪念日 紀念日",
    label: label(
      ["relationships", "invested in the people close to them"],
      ["人間関係", "身近な人とのつながりを大切にしている"],
      ["人际关系", "很重视身边的人"],
      ["人際關係", "很重視身邊的人"]
    )
  },
  {
    id: "screen",
    family: "screen",
    en: "movie movies film films cinema tv series drama dramas anime netflix documentary documentaries actor actress sitcom watch watched watching rewatch rewatched binge",
    ja: "映画 ドラマ アニメ テレビ 番組 俳優 配信",
    zh: "电影 電影 电视剧 電視劇 动漫 動漫 动画 動畫 综艺 綜藝 追剧 追劇 纪录片 紀錄片 演员 演員 番剧 番劇",
    label: label(
      ["films and shows", "a big fan of films and shows|big fans of films and shows"],
      ["映画やドラマ", "映画やドラマを楽しんでいる"],
      ["影视", "很爱看影视作品"],
      ["影視", "很愛看影視作品"]
    )
  },
  {
    id: "creative",
    family: "creative",
    en: "draw drawing drawings paint painting paintings sketch sketching art artist photo photos photography camera knit knitting sew sewing crafts pottery illustration calligraphy",
    ja: "絵を 絵が 描い 描く イラスト 写真 カメラ 編み物 手芸 陶芸 書道",
    zh: "画画 畫畫 绘画 繪畫 插画 插畫 摄影 攝影 相机 相機 拍照 织毛衣 織毛衣 手工 陶艺 陶藝 书法 書法",
    label: label(
      ["creative pursuits", "drawn to creative work"],
      ["創作", "ものづくりを楽しんでいる"],
      ["创作", "很有创作热情"],
      ["創作", "很有創作熱情"]
    )
  }
]

/** The first theme of each family, whose label a mixed cluster of that family is written with. */
export const familyHead = (family: string): Theme | undefined => themes.find((t) => t.family === family)
