/**
 * Portuguese rules for the extraction engine: "eu" and the dropped subject become the speaker's name with
 * the verb in the third person ("Moro em Lisboa" → "Master mora em Lisboa"), "me chamo" "se chama", "meu
 * irmão" "o irmão de Master", "você"/"te" the listener, "nós" the two of them or the speaker's people.
 */
import type { Topic, Voice } from "./Clause.js"
import { pairs, rewriteInflected, type InflectedSpec } from "./Inflected.js"
import type { Group, LanguageTable } from "./Tabled.js"

const verbs = pairs(`
sou:é estou:está tenho:tem vou:vai faço:faz posso:pode quero:quer prefiro:prefere gosto:gosta moro:mora
trabalho:trabalha vivo:vive como:come bebo:bebe leio:lê escrevo:escreve corro:corre aprendo:aprende
acho:acha penso:pensa sei:sabe conheço:conhece durmo:dorme venho:vem digo:diz vejo:vê dou:dá saio:sai
ponho:põe tive:teve fui:foi estive:esteve fiz:fez pude:pôde quis:quis disse:disse nasci:nasceu morei:morou
trabalhei:trabalhou comecei:começou viajei:viajou mudei:mudou adotei:adotou comprei:comprou perdi:perdeu
corri:correu comi:comeu vivi:viveu aprendi:aprendeu conheci:conheceu odeio:odeia amo:ama adoro:adora
costumo:costuma estudo:estuda uso:usa jogo:joga cozinho:cozinha preciso:precisa treino:treina
chamo:chama era:era estava:estava tinha:tinha ia:ia terminei:terminou ganhei:ganhou
`)

const article = (w: string) =>
  w === "meu" || w === "teu" || w === "seu" || w === "nosso"
    ? "o"
    : w === "meus" || w === "teus" || w === "nossos"
      ? "os"
      : /as$/.test(w)
        ? "as"
        : "a"
const after = new Set(["mais", "novo", "nova", "velho", "velha", "caçula", "mais novo", "mais velho"])
const before = new Set(["melhor", "melhores", "novo", "nova", "querido", "querida", "primeiro", "primeira"])

const groupPhrase = (voice: Voice, g: Group) =>
  g.shared ? `${voice.self} e ${voice.other}` : g.family ? `a família de ${voice.self}` : `${voice.self} e os amigos`

const spec: InflectedSpec = {
  subjects: new Set(["eu"]),
  skips: new Set(["não", "também", "sempre", "nunca", "já", "ainda", "quase", "só", "normalmente"]),
  selfObjects: new Set(["me"]),
  verbs,
  regular: (w) =>
    /^\p{L}{3,}ei$/u.test(w) ? `${w.slice(0, -2)}ou` : /^\p{L}{3,}o$/u.test(w) ? `${w.slice(0, -1)}a` : undefined,
  me: () => ({ text: "se", dative: false }),
  words: (w, voice, g) => {
    if (w === "mim") return voice.self
    if (w === "comigo") return `com ${voice.self}`
    if (w === "me") return "lhe"
    if (w === "você" || w === "tu" || w === "ti") return voice.other
    if (w === "contigo") return `com ${voice.other}`
    if (w === "te") return "lhe"
    if (w === "nós") return groupPhrase(voice, g)
    return undefined
  },
  possessive: (w, following, voice, g) => {
    const owner = /^(meu|minha)s?$/.test(w)
      ? voice.self
      : /^(teu|tua)s?$/.test(w)
        ? voice.other
        : /^noss[oa]s?$/.test(w)
          ? groupPhrase(voice, g)
          : undefined
    if (owner === undefined) return undefined
    let took = 0
    const words: Array<string> = []
    while (before.has((following[took] ?? "").toLowerCase())) words.push(following[took++] ?? "")
    const noun = following[took] ?? ""
    if (noun === "") return undefined
    words.push(noun)
    took++
    while (after.has((following[took] ?? "").toLowerCase())) words.push(following[took++] ?? "")
    const name = following[took] ?? ""
    const named = /^\p{Lu}/u.test(name) ? `, ${name},` : ""
    return { text: `${article(w)} ${words.join(" ")} de ${owner}${named}`, took: took + (named ? 1 : 0) }
  }
}

const topics: ReadonlyArray<readonly [Topic, RegExp]> = [
  ["identity", /(se chama|nome|aniversário|nasceu|anos|é de )/],
  [
    "health",
    /(alérgic|alergia|asma|diabetes|doen|hospital|médico|remédio|cirurgia|dor|ansiedade|depressão|grávida|vegetarian|vegan|não come|não pode comer)/
  ],
  [
    "family",
    /(mãe|pai|pais|irmã|irmão|filh|espos|marido|mulher|namorad|avó|avô|ti[oa] |prim[oa]|família|casad|casamento)/
  ],
  ["pet", /(gat[oa]|cachorr|cão|mascote|hamster|coelho|pássaro|papagaio|peixe)/],
  [
    "work",
    /(trabalha|trabalho|emprego|empresa|escritório|chefe|colega|enfermeir|engenheir|professor|médic|estuda|universidade|faculdade|escola|turno|carreira)/
  ],
  ["home", /(mora em|mora com|mudou|apartamento|casa|cidade|bairro|aluguel)/],
  ["plan", /(vai |planeja|quer |próxim|amanhã|ano que vem|semana que vem|mês que vem|em breve|viagem)/],
  [
    "habit",
    /(sempre|todos os dias|toda (manhã|semana|noite)|todo (dia|domingo|sábado)|costuma|muitas vezes|normalmente|nos fins de semana)/
  ],
  ["preference", /(gosta|adora|ama |odeia|prefere|favorit|não suporta|fã de|medo)/],
  ["milestone", /(primeir|finalmente|ganhou|formou|maratona|adotou|comprou|começou|terminou|viajou)/],
  ["relationship", /(juntos|juntas|com você|contigo)/],
  ["daily", /(café da manhã|almoço|jantar|comeu|jantou|hoje|esta noite|hoje de manhã)/]
]

export const portuguese: LanguageTable = {
  sentences: new Intl.Segmenter("pt", { granularity: "sentence" }),
  lead: /^(oh|ah|nossa|bem|bom|olha|ei|kkk\w*|haha\w*|sim|não|então|na verdade|aliás|e|mas|olá|oi)(?:[,!.\s]+)/i,
  trail: /(?:[.!?…~\s]|kkk\w*|haha\w*|rs+|:\)|[♪☆★]|\p{Extended_Pictographic})$/iu,
  filler:
    /^(?:olá|oi|bom dia|boa tarde|boa noite|obrigad[oa]|muito obrigad[oa]|de nada|ok|okay|sim|não|claro|legal|que bom|perfeito|entendi|ah|oh|nossa|kkk\w*|haha\w*|rs+|tchau|até logo|até mais|beleza|show|ótimo|incrível|exato|com certeza|fico feliz|sinto muito|eu também|você também|[\s,.!?])+$/i,
  question: /[?]/,
  questionSplit: /[,;]\s*/,
  remarks: [
    /^(?!.*(gosto|adoro|odeio|prefiro)).*(está (calor|frio|chovendo)|faz (calor|frio)|chove|o tempo)/i,
    /^(já )?(estou|cheguei) (de volta|em casa)|^acabei de (chegar|voltar)/i,
    /^(estou )?(muito |um pouco |tão )?(cansad[oa]|entediad[oa]|com fome|bem|ótim[oa])$/i,
    /(fico feliz por você|parabéns|boa sorte|força)/i
  ],
  directive:
    /^(?:por favor,? )?(?:não (?:me )?(?:mencione|fale (?:de|sobre)|pergunte sobre|toque no assunto)|não quero (?:mais )?falar (?:de|sobre))\s+(.+?)(?:\s+(?:nunca mais|de novo|mais|por favor))*$/i,
  remember: /^(?:por favor,? )?(?:lembre(?:-se)?|se lembre|não esqueça)(?: de| que)?\s+(.+)$/i,
  shared: /(juntos|juntas|com você|contigo|eu e você|você e eu)/i,
  family: /(família|filh|espos|marido|pais)/i,
  topics,
  rewrite: (s, voice, g) =>
    rewriteInflected(s, voice, g, spec)?.replace(
      /(^|\s)(o|a|os|as|da|do|das|dos|na|no|nas|nos|pela|pelo|à|ao) (?:o|a|os|as) (?=\S+ de )/giu,
      "$1$2 "
    ),
  pronouns: (s, voice, g) =>
    rewriteInflected(s, voice, g, { ...spec, verbs: new Map(), regular: () => undefined }) ?? s,
  directiveText: (self, what) => `${self} não quer falar sobre ${what}`,
  rememberText: (self, other, what) => `${self} pediu a ${other} para lembrar: ${what}`
}
