/**
 * Korean rules for the extraction engine. "저는/나는" become "<name>는", "제가/내가" "<name>가", "제/내/저의"
 * "<name>의", "우리/저희" before a family word or a home the speaker's ("우리 엄마" → "<name>의 엄마"), else
 * the two of them or the speaker's people; the particle follows the name's last syllable. A statement with no
 * subject gets the speaker as subject when it speaks of the speaker's life; one opening on a family member
 * or a pet gets the speaker as owner.
 */
import type { Topic, Voice } from "./Clause.js"
import type { Group, LanguageTable } from "./Tabled.js"

const kin =
  "엄마|아빠|어머니|아버지|부모님|형|오빠|누나|언니|동생|남동생|여동생|남편|아내|와이프|남자친구|여자친구|남친|여친|아들|딸|아이|애들|할머니|할아버지|가족|고양이|강아지|반려견|반려묘|친구|룸메이트|상사|동료"
const possessedStart = new RegExp(`^(${kin})(?:은|는|이|가|도|랑|와|과)(?=\\s)`)
const selfPredicate =
  /(좋아|싫어|살아|살고|일해|일하고|일합니다|다니|키우|키워|알레르기|매일|항상|자주|예정|계획|거예요|거야|할 거|갈 거|했어|했다|했습니다|했어요|입니다|이에요|예요|있어|있어요|없어|못 먹|안 먹|배우고|배워|해요|합니다|이야|야$)/
const content = /\p{Script=Hangul}{2,}/u

/** The name with the particle its last syllable takes (받침 → the first form). */
const josa = (name: string, withFinal: string, withoutFinal: string) => {
  const code = name.charCodeAt(name.length - 1)
  const hangul = code >= 0xac00 && code <= 0xd7a3
  return name + (hangul && (code - 0xac00) % 28 !== 0 ? withFinal : withoutFinal)
}

const groupPhrase = (voice: Voice, g: Group) =>
  g.shared ? `${josa(voice.self, "과", "와")} ${voice.other}` : g.family ? `${voice.self}네 가족` : `${voice.self}네`

const pronouns = (text: string, voice: Voice, g: Group): string =>
  text
    .replace(new RegExp(`(우리|저희)\\s*(?=${kin}|집|회사|학교|동네|고향|나라)`, "g"), `${voice.self}의 `)
    .replace(/(우리|저희)(?=는|가|도|끼리|\s|$)/g, groupPhrase(voice, g))
    .replace(/(^|\s)(저는|나는|난|전)(?=\s)/g, (_, s: string) => `${s}${josa(voice.self, "은", "는")}`)
    .replace(/(^|\s)(제가|내가)(?=\s)/g, (_, s: string) => `${s}${josa(voice.self, "이", "가")}`)
    .replace(/(^|\s)(저를|나를|날)(?=\s)/g, (_, s: string) => `${s}${josa(voice.self, "을", "를")}`)
    .replace(/(^|\s)(저도|나도)(?=\s)/g, (_, s: string) => `${s}${voice.self}도`)
    .replace(/(^|\s)(저한테|나한테|저에게|나에게)(?=\s)/g, (_, s: string) => `${s}${voice.self}에게`)
    .replace(/(^|\s)(저의|나의|제|내)(?=\s)/g, (_, s: string) => `${s}${voice.self}의`)
    .replace(/(^|\s)(너는|넌|당신은)(?=\s)/g, (_, s: string) => `${s}${josa(voice.other, "은", "는")}`)
    .replace(/(^|\s)(네가|니가|당신이)(?=\s)/g, (_, s: string) => `${s}${josa(voice.other, "이", "가")}`)
    .replace(/(^|\s)(너랑|너와|당신과)(?=\s)/g, (_, s: string) => `${s}${voice.other}와`)

const explicit = /(^|\s)(저는|나는|난|전|제가|내가|저를|나를|저도|나도|저의|나의|제|내|우리|저희|저한테|나한테)(\s|$)/

const rewrite = (sentence: string, voice: Voice, g: Group): string | undefined => {
  const text = pronouns(sentence, voice, g)
  if (explicit.test(sentence)) return text
  if (possessedStart.test(sentence)) return `${voice.self}의 ${text}`
  if (!content.test(sentence) || !selfPredicate.test(sentence)) return undefined
  return `${josa(voice.self, "은", "는")} ${text}`
}

const topics: ReadonlyArray<readonly [Topic, RegExp]> = [
  ["identity", /(이름|생일|태어|살이|나이|출신|별명|혈액형)/],
  ["health", /(알레르기|천식|당뇨|아파|병원|약을|수술|두통|불면|우울|임신|채식|비건|못 먹|다쳤|입원|치료|다이어트)/],
  [
    "family",
    /(엄마|아빠|어머니|아버지|부모|형|오빠|누나|언니|동생|남편|아내|와이프|남자친구|여자친구|아들|딸|할머니|할아버지|가족|결혼|이혼)/
  ],
  ["pet", /(고양이|강아지|반려|햄스터|토끼|앵무새|키우|키워)/],
  [
    "work",
    /(일해|일하|회사|직장|상사|동료|이직|퇴사|취직|알바|간호사|엔지니어|선생님|의사|학생|대학|학교|전공|시험|야근|출장|교대)/
  ],
  ["home", /(살아|살고|이사|자취|원룸|아파트|고향|월세)/],
  ["plan", /(예정|계획|다음 주|다음 달|내년|내일|할 거|갈 거|하고 싶|가고 싶|목표|꿈)/],
  ["habit", /(매일|매주|매일 아침|항상|자주|보통|습관|꾸준히|주말마다|년째)/],
  ["preference", /(좋아|싫어|사랑해|취미|팬이|무서워|관심)/],
  ["milestone", /(처음|드디어|우승|합격|졸업|완주|마라톤|여행|승진|시작했)/],
  ["relationship", /(같이|함께|우리 둘)/],
  ["daily", /(아침|점심|저녁|먹었|마셨|오늘)/]
]

export const korean: LanguageTable = {
  sentences: new Intl.Segmenter("ko", { granularity: "sentence" }),
  lead: /^(아|어|음|그|저기|있잖아|근데|그런데|그리고|사실|솔직히|참|아무튼|그래서|와|헐)(?:[,，!\s]+)/,
  trail: /(?:[.!?？…~\s]|ㅋ+|ㅎ+|ㅠ+|ㅜ+|\^\^|[♪☆★]|\p{Extended_Pictographic})$/u,
  filler:
    /^(?:안녕(?:하세요)?|고마워(?:요)?|감사합니다|감사해요|네|예|응|어|그래(?:요)?|알겠어(?:요)?|알겠습니다|ㅋ|ㅎ|좋아(?:요)?|오케이|잘자(?:요)?|그렇구나|그렇군요|아하|대박|와|헐|진짜|정말|맞아(?:요)?|굿|그치|ㅇ|ㅠ|ㅜ|좋은 아침|반가워(?:요)?|미안해(?:요)?|죄송합니다|괜찮아(?:요)?)+$/,
  question: /(?:까|니|나요|냐|어때|뭐야|뭐예요|죠)[?？]?$|[?？]$/,
  questionSplit: /[,，]\s*/,
  remarks: [
    /^(?!.*(좋아|싫어)).*(날씨|비가|눈이|더워|덥다|추워|춥다|맑)/,
    /^(?:방금|이제|막)?\s*(?:퇴근했|집에 왔|다녀왔|도착했)/,
    /^(?:너무|좀|많이)?\s*(?:피곤해|졸려|배고파|심심해)/,
    /(?:축하해|잘됐다|좋겠다|대단하다|힘내|화이팅|파이팅|수고했)/
  ],
  directive:
    /^(.+?)\s*(?:에 대해서?|얘기는?|이야기는?)?\s*(?:더 이상|다시는?)?\s*(?:말하지 마|꺼내지 마|얘기하지 마|물어보지 마|언급하지 마)/,
  remember: /^(.+?)\s*(?:를|을|는 거|라는 거)?\s*(?:기억해\s?줘|기억해\s?주세요|잊지 마)/,
  shared: /(같이|함께|우리 둘|너랑|너와|당신과)/,
  family: /(가족|아이|애들|남편|아내|엄마|아빠|부모)/,
  topics,
  rewrite,
  pronouns,
  directiveText: (self, what) => `${josa(self, "은", "는")} ${what} 이야기를 원하지 않는다`,
  rememberText: (self, _other, what) => `${josa(self, "이", "가")} 기억해 달라고 한 것: ${what}`
}
