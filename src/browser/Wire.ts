/**
 * The JSON shapes the two pages (web/) read from kioku, as effect/Schema: the server's routes type their
 * bodies against them, and the page scripts decode every answer with them. This module imports only
 * effect/Schema, so the browser bundles can include it.
 */
import * as Schema from "effect/Schema"

const Score = Schema.NullOr(Schema.Number)

export const FactView = Schema.Struct({
  id: Schema.String,
  text: Schema.String,
  importance: Schema.Number,
  entity: Schema.String,
  absorbed: Schema.Boolean,
  created_at: Schema.String
})
export type FactView = typeof FactView.Type

export const ArchivedFactView = Schema.Struct({
  id: Schema.String,
  text: Schema.String,
  importance: Schema.Number,
  entity: Schema.String,
  created_at: Schema.String,
  archived_at: Schema.NullOr(Schema.String)
})
export type ArchivedFactView = typeof ArchivedFactView.Type

export const ReflectionView = Schema.Struct({
  id: Schema.String,
  text: Schema.String,
  status: Schema.String,
  entity: Schema.String,
  source_fact_ids: Schema.Array(Schema.String),
  created_at: Schema.String,
  reinforcement: Schema.Number,
  disputation: Schema.Number,
  score: Schema.Struct({ now: Score, in_7d: Score, in_30d: Score })
})
export type ReflectionView = typeof ReflectionView.Type

export const PersonaEntryView = Schema.Struct({
  id: Schema.String,
  text: Schema.String,
  protected: Schema.Boolean,
  source: Schema.String,
  suppress: Schema.Boolean,
  score: Score,
  version_history: Schema.Number
})
export type PersonaEntryView = typeof PersonaEntryView.Type

export const PersonaSectionView = Schema.Struct({ section: Schema.String, entries: Schema.Array(PersonaEntryView) })

const memoryLists = {
  facts: Schema.Array(FactView),
  archived_facts: Schema.Array(ArchivedFactView),
  reflections: Schema.Array(ReflectionView),
  persona: Schema.Array(PersonaSectionView)
}

/** One group-chat subject's memory in the browser view, with its display name when one was given. */
export const SubjectView = Schema.Struct({
  subject_kind: Schema.Literal("group_chat", "participant", "group_participant"),
  subject_id: Schema.String,
  scope: Schema.String,
  display_name: Schema.NullOr(Schema.String),
  ...memoryLists
})
export type SubjectView = typeof SubjectView.Type

/** GET /api/memory/browser/{name}: the private memory at the top level, each subject's in `subjects`. */
export const BrowserView = Schema.Struct({
  name: Schema.String,
  ...memoryLists,
  subjects: Schema.Array(SubjectView)
})
export type BrowserView = typeof BrowserView.Type

/** The error fields any kioku or N.E.K.O.-style answer may carry (`detail` may be a 422 list). */
export const ErrorBody = Schema.Struct({
  error: Schema.optional(Schema.String),
  detail: Schema.optional(Schema.Unknown),
  message: Schema.optional(Schema.String),
  status: Schema.optional(Schema.String)
})

/** POST /api/memory/entry_edit and /api/memory/entry_action on success. */
export const EntryEdited = Schema.Struct({ success: Schema.Literal(true), id: Schema.String, text: Schema.String })
export const EntryActed = Schema.Struct({ success: Schema.Literal(true), status: Schema.String })

/** GET /api/memory/recent_file. */
export const RecentFile = Schema.Struct({
  content: Schema.String,
  fingerprint: Schema.String,
  identity_token: Schema.String
})
/** POST /api/memory/recent_file/save on success. */
export const RecentSaved = Schema.Struct({
  success: Schema.Literal(true),
  need_refresh: Schema.Boolean,
  catgirl_name: Schema.String,
  fingerprint: Schema.String,
  identity_token: Schema.String
})
/** One item of recent.json as N.E.K.O. and OpenAI clients write it (only these fields are read). */
export const RecentItem = Schema.Struct({
  type: Schema.optional(Schema.String),
  role: Schema.optional(Schema.String),
  content: Schema.optional(Schema.Unknown),
  data: Schema.optional(
    Schema.Struct({ type: Schema.optional(Schema.String), content: Schema.optional(Schema.Unknown) })
  )
})
export const RecentItems = Schema.Array(Schema.Unknown)
/** A message's content: a string or a list of parts. */
export const Content = Schema.Union(
  Schema.String,
  Schema.Array(Schema.Union(Schema.String, Schema.Struct({ text: Schema.optional(Schema.String) })))
)
export const ChatRole = Schema.Literal("human", "ai", "system")
export type ChatRole = typeof ChatRole.Type

/** GET / POST of /api/memory/powerful_memory_config and /review_config. */
export const Toggle = Schema.Struct({ enabled: Schema.Boolean })
export const ToggleSaved = Schema.Struct({ success: Schema.Literal(true), enabled: Schema.Boolean })

/** GET /api/memory/funnel/{name}. */
export const Funnel = Schema.Struct({
  lanlan_name: Schema.String,
  since: Schema.String,
  until: Schema.String,
  counts: Schema.Record({ key: Schema.String, value: Schema.Number })
})

/** GET /api/memory/statecharts/characters. */
export const Characters = Schema.Struct({ characters: Schema.Array(Schema.String) })

/** GET /api/memory/statecharts/{name}. */
export const StateCounts = Schema.Struct({
  name: Schema.String,
  session: Schema.NullOr(Schema.String),
  recent: Schema.NullOr(Schema.String),
  machines: Schema.Record({
    key: Schema.String,
    value: Schema.Record({ key: Schema.String, value: Schema.Number })
  })
})

/** GET /api/memory/statecharts/{name}/entries. */
export const StateEntries = Schema.Struct({
  entries: Schema.Array(
    Schema.Struct({ id: Schema.String, text: Schema.String, score: Score, section: Schema.optional(Schema.String) })
  )
})

export const HistoryStep = Schema.Struct({
  type: Schema.String,
  ts: Schema.String,
  from: Schema.NullOr(Schema.String),
  to: Schema.NullOr(Schema.String)
})
export type HistoryStep = typeof HistoryStep.Type
/** GET /api/memory/statecharts/{name}/history/{entryId}. */
export const History = Schema.Struct({ id: Schema.String, history: Schema.Array(HistoryStep) })

/** GET /api/memory/live_actors: each live actor's session state and supervision state (actor/Actor.ts). */
export const LiveActors = Schema.Struct({
  actors: Schema.Array(
    Schema.Struct({
      name: Schema.String,
      session: Schema.NullOr(Schema.String),
      supervision: Schema.NullOr(Schema.Literal("running", "restarting", "parked"))
    })
  )
})
