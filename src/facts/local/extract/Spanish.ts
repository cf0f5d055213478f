/**
 * Spanish rules for the extraction engine: "yo" and the dropped subject become the speaker's name with the
 * verb in the third person ("Trabajo como enfermera" → "Master trabaja como enfermera"), "me gusta" becomes
 * "A Master le gusta", "mi hermano" "el hermano de Master", "tú"/"te" the listener, "nosotros" the two of
 * them or the speaker's people.
 */
import type { Topic, Voice } from "./Clause.js"
import { pairs, rewriteInflected, type InflectedSpec } from "./Inflected.js"
import type { Group, LanguageTable } from "./Tabled.js"

const verbs = pairs(`
soy:es estoy:está tengo:tiene voy:va hago:hace puedo:puede quiero:quiere prefiero:prefiere pienso:piensa
vengo:viene digo:dice sé:sabe conozco:conoce salgo:sale pongo:pone traigo:trae veo:ve doy:da juego:juega
duermo:duerme vuelvo:vuelve empiezo:empieza siento:siente sigo:sigue pido:pide he:ha fui:fue estuve:estuvo
tuve:tuvo hice:hizo pude:pudo quise:quiso vine:vino dije:dijo supe:supo puse:puso era:era iba:iba
estaba:estaba tenía:tenía había:había llevo:lleva suelo:suele vivo:vive como:come bebo:bebe leo:lee
escribo:escribe corro:corre aprendo:aprende creo:cree debo:debe subo:sube abro:abre recibo:recibe
asisto:asiste decido:decide sufro:sufre odio:odia amo:ama adoro:adora nací:nació viví:vivió comí:comió
conocí:conoció aprendí:aprendió corrí:corrió perdí:perdió decidí:decidió salí:salió escribí:escribió
volví:volvió trabajo:trabaja estudio:estudia juego:juega cocino:cocina necesito:necesita uso:usa
camino:camina nado:nada toco:toca practico:practica trabajé:trabajó empecé:empezó viajé:viajó
adopté:adoptó compré:compró terminé:terminó gané:ganó llamo:llama mudé:mudó encanta:encanta gusta:gusta
`)
const dativeVerbs =
  /^(gusta|gustan|encanta|encantan|interesa|interesan|molesta|molestan|duele|duelen|preocupa|fascina|cuesta|da)$/

const article = (noun: string, plural: boolean) =>
  plural ? (/as$/.test(noun) ? "las" : "los") : /(a|ión|dad|tad)$/.test(noun) ? "la" : "el"
const after = new Set(["mayor", "menor", "pequeño", "pequeña", "mayores", "menores"])
const before = new Set([
  "mejor",
  "mejores",
  "nuevo",
  "nueva",
  "viejo",
  "vieja",
  "querido",
  "querida",
  "primer",
  "primera"
])

const groupPhrase = (voice: Voice, g: Group) =>
  g.shared ? `${voice.self} y ${voice.other}` : g.family ? `la familia de ${voice.self}` : `${voice.self} y sus amigos`

const spec: InflectedSpec = {
  subjects: new Set(["yo"]),
  skips: new Set(["no", "también", "siempre", "nunca", "ya", "todavía", "aún", "casi", "solo", "sólo", "normalmente"]),
  selfObjects: new Set(["me"]),
  verbs,
  regular: (w) =>
    /^\p{L}{3,}o$/u.test(w) ? `${w.slice(0, -1)}a` : /^\p{L}{3,}é$/u.test(w) ? `${w.slice(0, -1)}ó` : undefined,
  me: (next) => (dativeVerbs.test(next) ? { text: "le", dative: true } : { text: "se", dative: false }),
  dativeLead: (self) => `A ${self}`,
  words: (w, voice, g) => {
    if (w === "mí") return voice.self
    if (w === "conmigo") return `con ${voice.self}`
    if (w === "me") return "le"
    if (w === "tú" || w === "usted" || w === "ti") return voice.other
    if (w === "contigo") return `con ${voice.other}`
    if (w === "te") return "le"
    if (w === "nosotros" || w === "nosotras") return groupPhrase(voice, g)
    return undefined
  },
  possessive: (w, following, voice, g) => {
    const owner =
      w === "mi" || w === "mis"
        ? voice.self
        : w === "tu" || w === "tus"
          ? voice.other
          : /^nuestr[oa]s?$/.test(w)
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
    const plural = /s$/.test(w)
    const name = following[took] ?? ""
    const named = /^\p{Lu}/u.test(name) ? `, ${name},` : ""
    return {
      text: `${article(noun.toLowerCase(), plural)} ${words.join(" ")} de ${owner}${named}`,
      took: took + (named ? 1 : 0)
    }
  }
}

const topics: ReadonlyArray<readonly [Topic, RegExp]> = [
  ["identity", /(se llama|nombre|cumpleaños|nació|años|es de )/],
  [
    "health",
    /(alérgic|alergia|asma|diabetes|enferm|hospital|médico|medicina|cirugía|dolor|ansiedad|depresión|embaraz|vegetarian|vegan|no come|no puede comer)/
  ],
  [
    "family",
    /(madre|mamá|padre|papá|padres|herman|hij|espos|marido|mujer|novi|abuel|tí[oa]s? |prim[oa]|familia|casad|boda)/
  ],
  ["pet", /(gat[oa]|perr[oa]|mascota|hámster|conejo|pájaro|loro|pez)/],
  [
    "work",
    /(trabaja|trabajo|empleo|empresa|oficina|jefe|compañer|enfermer|ingenier|profesor|maestr|médic|estudia|universidad|escuela|colegio|turno|carrera)/
  ],
  ["home", /(vive en|vive con|se mudó|mudarse|piso|apartamento|casa|ciudad|barrio|alquiler)/],
  [
    "plan",
    /(va a|planea|piensa|quiere|próxim|mañana|el año que viene|la semana que viene|el mes que viene|pronto|viaje)/
  ],
  [
    "habit",
    /(siempre|todos los días|cada (día|mañana|semana|domingo|lunes)|suele|a menudo|normalmente|los fines de semana|todas las mañanas)/
  ],
  ["preference", /(gusta|encanta|odia|prefiere|favorit|no soporta|fan de|miedo)/],
  ["milestone", /(primer|por fin|ganó|se graduó|maratón|adoptó|compró|empezó|terminó|viajó)/],
  ["relationship", /(juntos|juntas|contigo)/],
  ["daily", /(desayuno|almuerzo|comida|cena|comió|cenó|hoy|esta noche|esta mañana)/]
]

export const spanish: LanguageTable = {
  sentences: new Intl.Segmenter("es", { granularity: "sentence" }),
  lead: /^(oh|ah|vaya|bueno|pues|mira|oye|jaja\w*|sí|si|no|vale|la verdad|en realidad|por cierto|además|y|pero|entonces|hola)(?:[,!.\s]+)/i,
  trail: /(?:[.!?¡¿…~\s]|jaja\w*|jeje\w*|xd|:\)|[♪☆★]|\p{Extended_Pictographic})$/iu,
  filler:
    /^(?:hola|buenos días|buenas tardes|buenas noches|buenas|gracias|muchas gracias|de nada|vale|ok|okay|sí|si|no|claro|genial|qué bien|que bien|perfecto|entiendo|ya veo|ah|oh|vaya|jaja\w*|jeje\w*|adiós|hasta luego|nos vemos|chao|bien|muy bien|guay|increíble|exacto|de acuerdo|por supuesto|me alegro|lo siento|igualmente|tú también|yo también|[\s,.!¡¿?])+$/i,
  question: /[?¿]/,
  questionSplit: /[,;]\s*(?=[¿]|\S+\?$)/,
  remarks: [
    /^(?!.*(gusta|encanta|odio|prefiero)).*(hace (calor|frío|sol)|está lloviendo|llueve|el tiempo|nieva)/i,
    /^(ya )?(estoy|he llegado) (de vuelta|en casa)|^acabo de (llegar|volver)/i,
    /^(estoy )?(muy |un poco |tan )?(cansad[oa]|aburrid[oa]|hambrient[oa]|bien|genial)$/i,
    /(me alegro por ti|qué suerte|felicidades|enhorabuena|ánimo|suerte)/i
  ],
  directive:
    /^(?:por favor,? )?(?:no (?:me )?(?:menciones|hables de|vuelvas a mencionar|preguntes por|saques el tema de)|no quiero hablar (?:más )?(?:de|sobre))\s+(.+?)(?:\s+(?:nunca más|otra vez|más|por favor))*$/i,
  remember: /^(?:por favor,? )?(?:recuerda|acuérdate de|no olvides)(?: que)?\s+(.+)$/i,
  shared: /(juntos|juntas|contigo|tú y yo)/i,
  family: /(familia|hij|espos|marido|padres)/i,
  topics,
  rewrite: (s, voice, g) => rewriteInflected(s, voice, g, spec),
  pronouns: (s, voice, g) =>
    rewriteInflected(s, voice, g, { ...spec, verbs: new Map(), regular: () => undefined }) ?? s,
  directiveText: (self, what) => `${self} no quiere hablar de ${what}`,
  rememberText: (self, other, what) => `${self} pidió a ${other} que recuerde: ${what}`
}
