/**
 * The request bodies and answers of the group-chat routes (neko-compat §1.7) as effect/Schema, for the route
 * table (GroupRoutes.ts): `scoped_history`'s speaker-trust fields (the trust pool reads them, src/trust/), the
 * subject-list bodies, and what each route answers on success. The handlers decode with these objects and
 * then run N.E.K.O.'s contract checks (scoped/ScopedRequests.ts). Imports only effect and domain/Subject.ts, so
 * the client can run in a browser.
 */
import * as Schema from "effect/Schema"
import { SUBJECT_KINDS, SubjectWire } from "../domain/Subject.js"

const Str = Schema.String
const NullStr = Schema.NullOr(Schema.String)
const Num = Schema.Number
const Open = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** One activity token: `{id (8..96 chars of [A-Za-z0-9_.:-]), count (1..1000, default 1)}`. */
export const ActivityEventWire = Schema.Struct({
  id: Str.pipe(Schema.minLength(8), Schema.maxLength(96), Schema.pattern(/^[A-Za-z0-9_.:-]+$/)),
  count: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 1000)), { default: () => 1 })
})
export const TierWire = Schema.Literal("admin", "trusted", "normal", "none")
/** `speaker_channel`: 1..16 of [a-z0-9_]. */
export const ChannelWire = Str.pipe(Schema.pattern(/^[a-z0-9_]{1,16}$/))
export const TrustScore = Num.pipe(Schema.between(0, 1))

/** What a speaker says of trust in `scoped_history`. */
const speakerFields = {
  speaker_label: Schema.optional(NullStr),
  speaker_trust: Schema.optional(Schema.NullOr(TrustScore)),
  speaker_tier: Schema.optional(Schema.NullOr(TierWire)),
  speaker_base_trust: Schema.optional(Schema.NullOr(TrustScore)),
  speaker_activity_events: Schema.optional(Schema.NullOr(Schema.Array(ActivityEventWire))),
  speaker_channel: Schema.optional(Schema.NullOr(ChannelWire)),
  speaker_id: Schema.optional(NullStr),
  speaker_is_owner: Schema.optionalWith(Schema.Boolean, { default: () => false }),
  display_name: Schema.optional(NullStr)
}

const history = Str.annotations({ description: "a JSON array of messages, encoded as a string" })

export const ScopedFactsBody = Schema.Struct({
  subject: SubjectWire,
  facts: Schema.Array(
    Schema.Struct({
      text: Str,
      importance: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 10)), { default: () => 5 }),
      source: Schema.optionalWith(Schema.Literal("user_observation", "ai_disclosure"), {
        default: () => "user_observation" as const
      })
    })
  ),
  language: Schema.optional(NullStr),
  display_name: Schema.optional(NullStr)
})

export const SegmentBody = Schema.Struct({
  input_history: history,
  subject: SubjectWire,
  ...speakerFields,
  speaker_label: Str,
  trust_signal_excluded_fact_identities: Schema.optional(Schema.Array(Schema.Tuple(Str, Str, Str, Str)))
})
export type SegmentBody = typeof SegmentBody.Type

export const ScopedHistoryBody = Schema.Struct({
  input_history: Schema.optional(Schema.NullOr(history)),
  subject: Schema.optional(Schema.NullOr(SubjectWire)),
  ...speakerFields,
  segments: Schema.optional(Schema.NullOr(Schema.Array(SegmentBody))),
  language: Schema.optional(NullStr)
})
export type ScopedHistoryBody = typeof ScopedHistoryBody.Type

export const SubjectsBody = Schema.Struct({ subjects: Schema.Array(SubjectWire), language: Schema.optional(NullStr) })
export const ForgetBody = Schema.Struct({ subject: SubjectWire })
export const MentionsBody = Schema.Struct({ response_text: Str, subjects: Schema.Array(SubjectWire) })

/** A subject as the answers name it, its scope filled in. */
export const SubjectAnswer = Schema.Struct({
  subject_kind: Schema.Literal(...SUBJECT_KINDS),
  subject_id: Str,
  scope: Str
})

/** N.E.K.O.'s `_trust_response_block`; `persisted: null` means the segment had nothing to settle. */
export const TrustBlock = Schema.Struct({
  resolved: Schema.NullOr(Num),
  persisted: Schema.NullOr(Schema.Boolean),
  signals_applied: Num,
  activity_applied: Num,
  gated: Schema.NullOr(Schema.Literal("legacy_import_pending")),
  channel_collision: Schema.Boolean
})
export type TrustBlock = typeof TrustBlock.Type

/** A fact row's identity: `[id, subject_kind, subject_id, scope]`. */
const FactIdentity = Schema.Tuple(Str, Str, Str, Str)

export const ScopedFactsAnswer = Schema.Struct({
  status: Schema.Literal("stored"),
  subject: SubjectAnswer,
  created: Num,
  fact_ids: Schema.Array(Str)
})

export const SegmentAnswer = Schema.Struct({
  subject: SubjectAnswer,
  trust: TrustBlock,
  status: Schema.Literal("ok", "failed"),
  created: Num,
  dropped: Num,
  fact_ids: Schema.Array(Str),
  fact_identities: Schema.Array(FactIdentity),
  created_fact_identities: Schema.Array(FactIdentity),
  reconciled: Schema.Array(Schema.Struct({ id: Str })),
  trust_events: Schema.Array(Open)
})

/** Batched segments answer per segment; the single shape answers its one subject. */
export const ScopedHistoryAnswer = Schema.Union(
  Schema.Struct({ status: Schema.Literal("processed"), segments: Schema.Array(SegmentAnswer) }),
  Schema.Struct({
    status: Schema.Literal("processed"),
    subject: SubjectAnswer,
    created: Num,
    fact_ids: Schema.Array(Str),
    trust: TrustBlock,
    trust_events: Schema.Array(Open)
  })
)

export const MentionsAnswer = Schema.Struct({ status: Schema.Literal("recorded", "skipped") })

/** What `scoped_forget` reports, N.E.K.O.'s counters (kioku's `display_name`: the name row went too). */
export const ScopedForgetStats = Schema.Struct({
  pending_dedup: Num,
  prompt_locale: Num,
  facts: Num,
  facts_archive: Num,
  reflections: Num,
  surfaced: Num,
  persona_entries: Num,
  persona_section_dropped: Schema.Boolean,
  corrections: Num,
  display_name: Schema.Boolean
})
export type ScopedForgetStats = typeof ScopedForgetStats.Type

export const ScopedForgetAnswer = Schema.Struct({
  status: Schema.Literal("forgotten"),
  subject: SubjectAnswer,
  forgotten_subjects: Schema.Array(SubjectAnswer),
  ...ScopedForgetStats.fields
})
