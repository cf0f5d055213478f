/**
 * The vector feature's slice of a character's state — `vectors.db` and `turn_vectors.db` with its loaded rows,
 * both derived and opened on first use — and what vector code reads besides: the stores whose texts it embeds.
 */
import type { CharacterHost } from "../runtime/CharacterHost.js"
import type { FactStore } from "../facts/FactStore.js"
import type { PersonaStore } from "../persona/PersonaStore.js"
import type { ReflectionStore } from "../reflection/ReflectionStore.js"
import type { TurnVectorIndex } from "../recall/TurnVectorIndex.js"
import type { TurnVectorStore } from "../store/TurnVectorStore.js"
import type { VectorStore } from "./VectorStore.js"

export interface TurnVectorsOpen {
  readonly store: TurnVectorStore
  index: TurnVectorIndex
  cursor: number
}

export interface VectorsSlice {
  /** `vectors.db`, opened by the vector backfill on first use (VectorBackfill.ts). */
  vectors: VectorStore | undefined
  /** `turn_vectors.db` and its rows under the current model, loaded by the turn backfill (TurnVectors.ts). */
  turnVectors: TurnVectorsOpen | undefined
}

/** Enough to look vectors up or store them. */
export type VectorCache = CharacterHost & VectorsSlice

/** What the backfills read: the stores whose texts are embedded. */
export type VectorsHost = VectorCache & {
  readonly facts: FactStore
  readonly reflections: ReflectionStore
  readonly persona: PersonaStore
}
