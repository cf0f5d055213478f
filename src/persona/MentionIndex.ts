/**
 * Which persona entries and confirmed reflections a reply mentions: one is mentioned when any of its keywords
 * (local/LocalOverlap.ts) occurs in the lower-cased reply. The keywords of one persona and reflections
 * snapshot are indexed once, by keyword, so a turn looks each distinct keyword up once instead of walking
 * every entry's set. Scope (private or a subject's) is the caller's to check on what comes back.
 */
import type { PersonaEntry, PersonaFile } from "./Persona.js"
import type { Reflection } from "../reflection/Reflection.js"
import { keywords } from "./local/LocalOverlap.js"

export type Mentionable =
  | {
      readonly kind: "persona"
      readonly order: number
      readonly section: string
      readonly entry: PersonaEntry
      readonly facts: ReadonlyArray<PersonaEntry>
    }
  | { readonly kind: "reflection"; readonly order: number; readonly reflection: Reflection }

type Index = ReadonlyMap<string, ReadonlyArray<Mentionable>>

const build = (persona: PersonaFile, reflections: ReadonlyArray<Reflection>, names: ReadonlyArray<string>) => {
  const index = new Map<string, Array<Mentionable>>()
  const add = (text: string, m: Mentionable) => {
    for (const k of keywords(text, names)) {
      const refs = index.get(k)
      if (refs === undefined) index.set(k, [m])
      else refs.push(m)
    }
  }
  let order = 0
  for (const [section, s] of Object.entries(persona)) {
    for (const entry of s.facts) {
      if (!entry.protected && entry.text !== "")
        add(entry.text, { kind: "persona", order: order++, section, entry, facts: s.facts })
    }
  }
  for (const reflection of reflections) {
    if (reflection.status === "confirmed" && !reflection.suppress)
      add(reflection.text, { kind: "reflection", order: order++, reflection })
  }
  return index
}

const built = new WeakMap<PersonaFile, { reflections: ReadonlyArray<Reflection>; names: string; index: Index }>()

/** The mentioned entries (sections in file order), then the mentioned reflections, each once. */
export const mentionedIn = (
  persona: PersonaFile,
  reflections: ReadonlyArray<Reflection>,
  names: ReadonlyArray<string>,
  text: string
): ReadonlyArray<Mentionable> => {
  const namesKey = names.join("\u0001")
  let known = built.get(persona)
  if (known?.reflections !== reflections || known.names !== namesKey) {
    known = { reflections, names: namesKey, index: build(persona, reflections, names) }
    built.set(persona, known)
  }
  const hits = new Set<Mentionable>()
  for (const [k, refs] of known.index) if (text.includes(k)) for (const m of refs) hits.add(m)
  return [...hits].sort((a, b) => a.order - b.order)
}
