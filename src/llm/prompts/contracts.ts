/**
 * Output contracts of every memory task (neko-compat §5), as Schemas the answers are decoded with.
 */
import { Schema } from "effect"

const Entity = Schema.Literal("master", "neko", "relationship")
const Offset = Schema.Struct({
  offset: Schema.Number,
  unit: Schema.Literal("minute", "hour", "day", "week", "month", "year")
})
export const EventWhen = Schema.NullOr(
  Schema.Struct({ start: Schema.optional(Schema.NullOr(Offset)), end: Schema.optional(Schema.NullOr(Offset)) })
)

export const Summary = Schema.Struct({ summary: Schema.Unknown })
export const HistoryReview = Schema.Struct({
  explanation: Schema.optional(Schema.String),
  corrected_dialogue: Schema.Array(Schema.Struct({ role: Schema.String, content: Schema.String }))
})
export const ExtractedFacts = Schema.Array(
  Schema.Struct({
    text: Schema.String,
    importance: Schema.Number,
    entity: Entity,
    event_when: Schema.optional(EventWhen)
  })
)
export const ExtractedFactsAiAware = Schema.Array(
  Schema.Struct({
    text: Schema.String,
    importance: Schema.Number,
    entity: Entity,
    event_when: Schema.optional(EventWhen),
    source: Schema.Literal("user_observation", "ai_disclosure")
  })
)
export const ExtractedFactsBatch = Schema.Array(
  Schema.Struct({
    segment: Schema.Number,
    facts: Schema.Array(
      Schema.Struct({ text: Schema.String, importance: Schema.Number, event_when: Schema.optional(EventWhen) })
    )
  })
)
export const Signals = Schema.Struct({
  signals: Schema.Array(
    Schema.Struct({
      source_fact_id: Schema.String,
      target_type: Schema.Literal("reflection", "persona"),
      target_id: Schema.String,
      signal: Schema.Literal("reinforces", "negates"),
      reason: Schema.optional(Schema.String)
    })
  )
})
export const Rerank = Schema.Array(Schema.Struct({ id: Schema.String }))
export const Reflection = Schema.Struct({
  entity: Entity,
  relation_type: Schema.optional(Schema.NullOr(Schema.String)),
  reflection: Schema.String,
  temporal_scope: Schema.optional(Schema.NullOr(Schema.Literal("pattern", "state", "episode"))),
  event_when: Schema.optional(EventWhen)
})
export const ReflectionFeedback = Schema.Array(
  Schema.Struct({ reflection_id: Schema.String, feedback: Schema.Literal("confirmed", "denied", "ignored") })
)
export const NegativeTargets = Schema.Struct({
  targets: Schema.Array(
    Schema.Struct({
      target_type: Schema.Literal("reflection", "persona"),
      target_id: Schema.String,
      reason: Schema.optional(Schema.String)
    })
  )
})
export const PromotionMerge = Schema.Struct({
  action: Schema.Literal("promote_fresh", "merge_into", "reject"),
  target_id: Schema.optional(Schema.NullOr(Schema.String)),
  merged_text: Schema.optional(Schema.NullOr(Schema.String)),
  reason: Schema.optional(Schema.NullOr(Schema.String))
})
export const PersonaCorrections = Schema.Array(
  Schema.Struct({
    index: Schema.Number,
    action: Schema.Literal("merge", "keep_new", "keep_old", "keep_both"),
    text: Schema.optional(Schema.NullOr(Schema.String))
  })
)
export const FactDedup = Schema.Array(
  Schema.Struct({ index: Schema.Number, action: Schema.Literal("merge", "replace", "keep_both") })
)
export const MemoryRefine = Schema.Array(
  Schema.Struct({
    action: Schema.Literal("split", "merge", "modify", "discard"),
    source_id: Schema.optional(Schema.String),
    source_ids: Schema.optional(Schema.Array(Schema.String)),
    absorbed_from_fact_ids: Schema.optional(Schema.Array(Schema.String)),
    produce: Schema.optional(Schema.Unknown),
    reason: Schema.optional(Schema.String)
  })
)
export const ScopedMemoryRefine = Schema.Array(
  Schema.Struct({
    action: Schema.Literal("merge"),
    source_ids: Schema.Array(Schema.String),
    produce: Schema.Struct({ text: Schema.String }),
    reason: Schema.optional(Schema.String)
  })
)
export const PersonaFusion = Schema.Array(Schema.Struct({ text: Schema.String, importance: Schema.Number }))
export const Recheck = Schema.Struct({
  temporal_scope: Schema.optional(Schema.NullOr(Schema.Literal("pattern", "state", "episode"))),
  event_when: EventWhen
})
