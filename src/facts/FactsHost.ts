/**
 * Facts' slice of a character's state: `facts.json`, the archive shards, and the bookkeeping of batch
 * extraction with powerful memory on (turns gathered since the last check, the tick timer, the failures on
 * the current window). The character's state holds it; fact code sees it through `FactsHost`.
 */
import type { CharacterHost } from "../runtime/CharacterHost.js"
import type { VectorsSlice } from "../vectors/VectorsHost.js"
import type * as FactArchive from "./FactArchive.js"
import type * as FactStore from "./FactStore.js"

export interface IntakeWindow {
  turnsSince: number
  lastCheckAt: number | undefined
  tickScheduled: boolean
  windowFailures: number
  /** Path-A ticks so far; every n-th runs the AI-aware pass. */
  pathATicks: number
}

export interface FactsSlice {
  readonly facts: FactStore.FactStore
  readonly archive: FactArchive.FactArchive
  readonly intake: IntakeWindow
}

export type FactsHost = CharacterHost & FactsSlice & VectorsSlice

export const intakeWindow = (): IntakeWindow => ({
  turnsSince: 0,
  lastCheckAt: undefined,
  tickScheduled: false,
  windowFailures: 0,
  pathATicks: 0
})
