/**
 * What the memory browser's tabs share: the chosen character, the status line, and a reload of the
 * character's view (optionally announcing `message` once the lists show the new state).
 */
import type { BrowserView } from "../../src/browser/Wire.js"

export interface Ctx {
  readonly name: () => string
  readonly say: (text: string) => void
  readonly reload: (message?: string) => Promise<void>
  /** Redraws the lists from the last loaded view (drops open editors). */
  readonly rerender: () => void
}

export type View = BrowserView
