/**
 * The group-chat commands a character's mailbox takes: writing facts to subjects (from `scoped_facts`, or the
 * candidates `scoped_history` extracted outside the mailbox), rendering `scoped_context`, counting
 * `scoped_mentions`, the owner trust signals of `scoped_history`, and `scoped_forget`. The character's command
 * union includes them; `isScopedCommand` tells them apart for dispatch.
 */
import { Schema } from "effect"
import { ScopedForgetStats } from "../api/GroupSchemas.js"
import { languages, type Language } from "../domain/Locale.js"
import { SUBJECT_KINDS, type MemorySubject } from "../domain/Subject.js"
import { EventWhenRaw, Fact } from "../facts/Fact.js"
import type { Reply } from "../runtime/Actor.js"
import type { StoreError } from "../store/DurableFs.js"
import { OwnerSignalEvent, type OwnerJob } from "../trust/OwnerSignals.js"
import type { Provenance, ScopedCandidate, Written } from "./ScopedWrite.js"

export interface SubjectWrite {
  readonly subject: MemorySubject
  readonly candidates: ReadonlyArray<ScopedCandidate>
  readonly provenance?: Provenance | undefined
  readonly displayName?: string | undefined
  /** The request's prompt language, remembered for the subject. */
  readonly language?: Language | undefined
}

/** What `scoped_forget` reports (its Schema is the route table's answer, api/GroupSchemas.ts). */
export { ScopedForgetStats }

/** The schemas cluster mode sends these commands' payloads and answers with. */
export const SubjectSchema = Schema.Struct({
  kind: Schema.Literal(...SUBJECT_KINDS),
  subjectId: Schema.String,
  scope: Schema.String
})
export const SubjectWriteSchema = Schema.Struct({
  subject: SubjectSchema,
  candidates: Schema.Array(
    Schema.Struct({
      text: Schema.String,
      importance: Schema.Number,
      source: Schema.Literal("user_observation", "ai_disclosure"),
      event_when: Schema.optional(EventWhenRaw)
    })
  ),
  provenance: Schema.optional(
    Schema.Struct({
      speaker_label: Schema.optional(Schema.String),
      speaker_id: Schema.optional(Schema.String),
      speaker_trust: Schema.optional(Schema.Number),
      speaker_entity_id: Schema.optional(Schema.String)
    })
  ),
  displayName: Schema.optional(Schema.UndefinedOr(Schema.String)),
  language: Schema.optional(Schema.UndefinedOr(Schema.Literal(...languages)))
})
export const WrittenSchema = Schema.Struct({ created: Schema.Array(Fact), upgraded: Schema.Array(Fact) })

export type ScopedCommand =
  | {
      readonly _tag: "ScopedWrite"
      readonly writes: ReadonlyArray<SubjectWrite>
      readonly reply: Reply<ReadonlyArray<Written>, StoreError>
    }
  | {
      readonly _tag: "ScopedContext"
      readonly subjects: ReadonlyArray<MemorySubject>
      /** The request's language; else the first subject's remembered one, the character's, the default. */
      readonly language: Language | undefined
      readonly reply: Reply<string, StoreError>
    }
  | {
      readonly _tag: "ScopedMentions"
      readonly subjects: ReadonlyArray<MemorySubject>
      readonly text: string
      readonly reply: Reply<void, StoreError>
    }
  | {
      /** The owner segments' trust signals, judged and written after the request's facts (OwnerSignalsWrite.ts). */
      readonly _tag: "ScopedTrustSignals"
      readonly jobs: ReadonlyArray<OwnerSignalJob>
      readonly reply: Reply<ReadonlyArray<ReadonlyArray<OwnerSignalEvent>>, StoreError>
    }
  | {
      readonly _tag: "ScopedForget"
      readonly subject: MemorySubject
      readonly reply: Reply<ScopedForgetStats, StoreError>
    }

const tags: ReadonlySet<string> = new Set([
  "ScopedWrite",
  "ScopedContext",
  "ScopedMentions",
  "ScopedTrustSignals",
  "ScopedForget"
])

export const isScopedCommand = (c: { readonly _tag: string }): c is ScopedCommand => tags.has(c._tag)

/** One owner segment to judge; `hidden` are the fact ids created by this segment or a later one. */
export interface OwnerSignalJob extends OwnerJob {
  readonly hidden: ReadonlyArray<string>
}

/** The schemas cluster mode sends the jobs and their answer with. */
export const OwnerSignalJobSchema = Schema.Struct({
  character: Schema.String,
  sourceId: Schema.String,
  selfAccounts: Schema.Array(Schema.String),
  subject: SubjectSchema,
  texts: Schema.Array(Schema.String),
  excluded: Schema.Array(Schema.Tuple(Schema.String, Schema.String, Schema.String, Schema.String)),
  hidden: Schema.Array(Schema.String)
})
export const OwnerSignalsAnswer = Schema.Array(Schema.Array(OwnerSignalEvent))
