/**
 * What a character offers each of its features: its name and directory, its journal discipline (lines are
 * appended — the durability point — then applied to the views), its time index and its last write. Features
 * take this plus their own slice of state, never the character's whole state, so none of them imports the
 * character module; the character's state satisfies every feature's host type.
 */
import type { Effect, Option } from "effect"
import type { CharacterName } from "../domain/CharacterName.js"
import type { Language } from "../domain/Locale.js"
import type { StoreError } from "../store/DurableFs.js"
import type { EventLine } from "../store/EventLog.js"
import type { TimeIndex } from "../store/TimeIndex.js"

export interface JournalOptions {
  /**
   * Whether these writes supersede model answers computed meanwhile by a background job of this character
   * (llm/Section.ts). Reflection, persona and correction events do unless told otherwise.
   */
  readonly supersedes?: boolean
}

export interface CharacterHost {
  readonly name: CharacterName
  readonly dir: string
  /** Journals the lines, then applies them; false when a view lags (its events are retried with the next write). */
  readonly journal: (lines: ReadonlyArray<EventLine>, options?: JournalOptions) => Effect.Effect<boolean, StoreError>
  /** Makes every applied event durable beyond a power loss and advances the replay sentinel. */
  readonly checkpoint: Effect.Effect<void>
  /** Whether the character's directory exists (a character nothing was written for has none). */
  readonly exists: () => boolean
  readonly ensureDir: Effect.Effect<void, StoreError>
  /** `time_indexed.db`, opened on first use; created (with the directory) only when `create` is set. */
  readonly openTimeIndex: (create: boolean) => Effect.Effect<Option.Option<TimeIndex>, StoreError>
  /** The character's prompt locale (`prompt_locale.json`), none when it was never set. */
  readonly locale: Option.Option<Language>
  /** When the last write arrived (epoch milliseconds; 0 before any). */
  readonly lastWriteAt: number
}
