/** What persona code reads and writes of a character: its persona, and the reflections promoted into it. */
import type { CharacterHost } from "../runtime/CharacterHost.js"
import type { ReflectionStore } from "../reflection/ReflectionStore.js"
import type { PersonaStore } from "./PersonaStore.js"

export type PersonaHost = CharacterHost & {
  readonly persona: PersonaStore
  readonly reflections: ReflectionStore
}
