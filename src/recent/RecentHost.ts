/** What recent-memory code reads and writes of a character: `recent.json` and the lifecycle's slice. */
import type { CharacterHost } from "../runtime/CharacterHost.js"
import type { RecentSlice } from "./RecentSlice.js"
import type { RecentStore } from "./RecentStore.js"

export type RecentHost = CharacterHost & {
  readonly recent: RecentStore
  readonly recentLife: RecentSlice
}
