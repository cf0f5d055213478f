/**
 * A character-for-character fold of Traditional Chinese onto Simplified, covering the characters the Chinese
 * extraction tables use (derived once from OpenCC's tables), so the tables are written once and positions in
 * the folded text are positions in the original.
 */
const traditional =
  "們媽親對兒寶爺裡裏閨貓寵歡愛嗎興職業夢標專鄉頭禪個時經總剛討厭沒別準備會現還從這過歲來醫藥術鬱慮懷傷療體檢壓減煙結離訂禮倉鸚鵡魚烏龜養領後辭護師員設計學試實習畢讀書創劃將慣堅絲終於贏軍馬遊開賽樂倆謝飯誒話說説順嘍見氣關錯確樣厲當麼熱陰臺風點餓無閒覺線為聽請許問講談記妳祢喫著週颱"
const simplified =
  "们妈亲对儿宝爷里里闺猫宠欢爱吗兴职业梦标专乡头禅个时经总刚讨厌没别准备会现还从这过岁来医药术郁虑怀伤疗体检压减烟结离订礼仓鹦鹉鱼乌龟养领后辞护师员设计学试实习毕读书创划将惯坚丝终于赢军马游开赛乐俩谢饭诶话说说顺喽见气关错确样厉当么热阴台风点饿无闲觉线为听请许问讲谈记你你吃着周台"

const table = new Map([...traditional].map((c, i) => [c, simplified[i] ?? c]))

export const foldChinese = (text: string): string => {
  let out = ""
  for (const c of text) out += table.get(c) ?? c
  return out
}
