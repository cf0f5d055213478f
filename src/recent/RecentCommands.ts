/**
 * The recent-memory commands a character's mailbox takes: compression results and retries, idle checks,
 * review results, and the memory browser's read and save of `recent.json`. The character's command union
 * includes them; `isRecentCommand` tells them apart for dispatch.
 */
import type { Option } from "effect"
import type { StoredMessage } from "../domain/Message.js"
import type { Reply } from "../runtime/Actor.js"
import type { StoreError } from "../store/DurableFs.js"

/** The memory browser's view of recent.json: its text and the generation of the path it was read from. */
export interface RecentSnapshot {
  readonly content: string
  readonly pathKey: string
  readonly generation: string
}

export type SaveRecentOutcome =
  | { readonly _tag: "Saved"; readonly snapshot: RecentSnapshot }
  | { readonly _tag: "Conflict"; readonly current: Option.Option<RecentSnapshot> }
  | { readonly _tag: "Unwritable"; readonly message: string }

export type RecentCommand =
  | {
      readonly _tag: "Splice"
      readonly epoch: string
      readonly generation: number
      readonly fingerprints: ReadonlyArray<string>
      readonly memo: StoredMessage
      readonly anchor: boolean
    }
  | {
      readonly _tag: "CompressionFailed"
      readonly epoch: string
      readonly generation: number
      readonly key: string
      readonly detailed: boolean
    }
  | { readonly _tag: "CompressRetry"; readonly detailed: boolean }
  | { readonly _tag: "IdleCheck" }
  | {
      readonly _tag: "ReviewDone"
      readonly epoch: string
      readonly generation: number
      readonly fingerprints: ReadonlyArray<string>
      readonly tail: ReadonlyArray<{ readonly type: string; readonly content: string; readonly content_sha256: string }>
      readonly corrected: ReadonlyArray<{ readonly role: string; readonly content: string }>
      readonly hadMemo: boolean
    }
  | {
      readonly _tag: "ReviewFailed"
      readonly epoch: string
      readonly generation: number
      readonly reason: string
      readonly contextTokens: number
      readonly key: string
    }
  | { readonly _tag: "CancelCorrection"; readonly reply: Reply<"cancelled" | "no_task", StoreError> }
  | { readonly _tag: "RecentFile"; readonly reply: Reply<Option.Option<RecentSnapshot>, StoreError> }
  | {
      readonly _tag: "SaveRecent"
      /** Answers whether the snapshot the editor read is still the current one. */
      readonly matches: (current: RecentSnapshot) => boolean
      readonly items: ReadonlyArray<StoredMessage>
      readonly reply: Reply<SaveRecentOutcome, StoreError>
    }

const tags: Record<RecentCommand["_tag"], true> = {
  Splice: true,
  CompressionFailed: true,
  CompressRetry: true,
  IdleCheck: true,
  ReviewDone: true,
  ReviewFailed: true,
  CancelCorrection: true,
  RecentFile: true,
  SaveRecent: true
}

export const isRecentCommand = (c: { readonly _tag: string }): c is RecentCommand => Object.hasOwn(tags, c._tag)
