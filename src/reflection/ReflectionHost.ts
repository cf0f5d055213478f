/** What reflection code reads and writes of a character: its reflections, and the facts and persona they draw on. */
import type { CharacterHost } from "../runtime/CharacterHost.js"
import type { FactStore } from "../facts/FactStore.js"
import type { PersonaStore } from "../persona/PersonaStore.js"
import type { ReflectionStore } from "./ReflectionStore.js"
import type { VectorsSlice } from "../vectors/VectorsHost.js"

export type ReflectionHost = CharacterHost &
  VectorsSlice & {
    readonly reflections: ReflectionStore
    readonly facts: FactStore
    readonly persona: PersonaStore
  }
