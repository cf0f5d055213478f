/**
 * The request and answer shapes of kioku's HTTP routes as effect/Schema, for the route table (Api.ts): the
 * handlers decode requests with these objects, OpenAPI documents them and the client is typed by them. The
 * memory browser's shapes stay in browser/Wire.ts (its pages decode them) and recall's in recall/RecallTypes.ts;
 * this module imports only effect/Schema and those, so the client can run in a browser.
 */
import * as Schema from "effect/Schema"

const Str = Schema.String
const NullStr = Schema.NullOr(Schema.String)
const Open = Schema.Record({ key: Schema.String, value: Schema.Unknown })

/** N.E.K.O.'s `HistoryRequest`: `input_history` is a JSON array of messages, sent as a string. */
export const HistoryRequest = Schema.Struct({
  input_history: Str.annotations({ description: "a JSON array of messages, encoded as a string" }),
  language: Schema.optional(NullStr),
  render_language: Schema.optional(NullStr)
})
export const LanguageQuery = Schema.Struct({ language: Schema.optional(Str), render_language: Schema.optional(Str) })
export const SurfacedRequest = Schema.Struct({ reflection_ids: Schema.Array(Str) })
export const RunOnceRequest = Schema.Struct({ character: Schema.optional(NullStr) })
export const BlockRequest = Schema.Struct({ reason: Schema.optional(NullStr) })
export const FunnelQuery = Schema.Struct({ since: Schema.optional(Str), until: Schema.optional(Str) })
export const LocaleRequest = Schema.Struct({ language: Str })
export const FormatQuery = Schema.Struct({ format: Schema.optional(Schema.Literal("markdown")) })
export const ReleaseQuery = Schema.Struct({
  derived_task_claim_token: Schema.optional(Str),
  derived_task_claim_generation: Schema.optional(Str),
  hold_derived_task_admission: Schema.optional(Str)
})
/** What `/reload` reads; entries of the wrong type are ignored rather than refused, as N.E.K.O. does. */
export const ReloadRequest = Schema.Struct({
  resume_derived_task_names: Schema.optional(Schema.Array(Str)),
  resume_derived_task_generations: Schema.optional(Schema.Record({ key: Str, value: Schema.Number })),
  release_derived_task_claims: Schema.optional(Schema.Record({ key: Str, value: Schema.Array(Str) }))
})
export const ImportCandidate = Schema.Struct({
  text: Str,
  entity: Schema.optional(Schema.Literal("master", "neko", "relationship")),
  target: Schema.Literal("persona", "facts"),
  source_file: Str,
  source_section: Schema.optional(Str),
  event_date: Schema.optional(NullStr)
})
/** The import model; the handler checks its candidates one by one (a bad one is a 400, not the model's 422). */
export const ImportRequest = Schema.Struct({
  character_name: Str,
  source_format: Str.annotations({ description: '"openclaw" or "hermes"' }),
  imported_files: Schema.Array(Str),
  candidates: Schema.Array(ImportCandidate).annotations({ description: "1 to 1000 candidates" }),
  warning_count: Schema.optionalWith(Schema.Number, { default: () => 0 }),
  language: Schema.optional(NullStr),
  render_language: Schema.optional(NullStr)
})
export const Toggle = Schema.Struct({ enabled: Schema.Boolean })
export const EntryEditRequest = Schema.Struct({
  lanlan_name: Str,
  kind: Schema.Literal("fact", "persona"),
  id: Str.pipe(Schema.minLength(1)),
  text: Str.pipe(Schema.minLength(1), Schema.maxLength(32_768))
})
export const EntryActionRequest = Schema.Struct({
  lanlan_name: Str,
  kind: Schema.Literal("reflection", "persona", "fact"),
  id: Str.pipe(Schema.minLength(1)),
  action: Schema.Literal("confirm", "deny", "archive", "forget")
})
/** The save's fields; the handler reads each one leniently to answer N.E.K.O.'s own 400 and 409 messages. */
export const RecentSaveRequest = Schema.Struct({
  filename: Str.annotations({ description: "recent_<name>.json" }),
  fingerprint: NullStr,
  identity_token: NullStr,
  chat: Schema.Array(Schema.Struct({ role: Schema.Literal("human", "ai", "system"), text: Schema.optional(Str) }))
})
export const RenameRequest = Schema.Struct({ old_name: Str, new_name: Str })
export const RecentFileQuery = Schema.Struct({ filename: Str })
export const MachineName = Schema.Literal("reflection", "persona", "session", "recent")
export const EntriesQuery = Schema.Struct({ machine: MachineName, state: Str })

export const Health = Schema.Struct({
  app: Schema.Literal("N.E.K.O"),
  service: Schema.Literal("memory"),
  status: Schema.Literal("ok"),
  instance_id: Str,
  kioku_version: Str
})
export const Cached = Schema.Struct({ status: Schema.Literal("cached"), count: Schema.Number })
export const Processed = Schema.Struct({ status: Schema.Literal("processed") })
export const Settled = Schema.Struct({ status: Schema.Literal("settled") })
export const Gap = Schema.Struct({ gap_seconds: Schema.Number })
export const CorrectionCancelled = Schema.Struct({ status: Schema.Literal("cancelled", "no_task") })
/** A reflection record as reflections.json holds it (only its id and text are fixed here). */
export const ReflectionRecord = Schema.Struct({ id: Str, text: Str }, Open)
export const Topics = Schema.Struct({ topics: Schema.Array(ReflectionRecord) })
export const Ok = Schema.Struct({ ok: Schema.Literal(true) })
export const Reflected = Schema.Struct({ reflection: Schema.NullOr(ReflectionRecord), auto_transitions: Schema.Number })
/** What one character's maintenance pass did (`run_once`, the library's `maintainNow`, cluster mode's answer). */
export const MaintenanceReport = Schema.Struct({
  character: Str,
  outboxOps: Schema.Number,
  factsAdded: Schema.Number,
  factsMerged: Schema.Number,
  reflectionsAdded: Schema.Number,
  reflectionsChanged: Schema.Number,
  evidenceSwept: Schema.Number,
  compressed: Schema.Boolean
})
export const MaintenanceRan = Schema.Struct({ ran: Schema.Array(MaintenanceReport) })
export const ShutdownRefused = Schema.Struct({ status: Schema.Literal("shutdown_disabled"), message: Str })
export const StartupContinued = Schema.Struct({ ok: Schema.Literal(true), initialized: Schema.Boolean })
export const StartupBlocked = Schema.Struct({
  ok: Schema.Literal(true),
  limited_mode: Schema.Literal(true),
  reason: Str
})
export const ConfirmedReset = Schema.Struct({ ok: Schema.Literal(true), count: Schema.Number })
export const PromptLocale = Schema.Struct({
  success: Schema.Literal(true),
  language: NullStr,
  order: Schema.NullOr(Schema.Number),
  effective_language: Str
})
export const PromptLocaleSet = Schema.Struct({
  success: Schema.Literal(true),
  language: Str,
  order: Schema.Number,
  previous_language: NullStr,
  changed: Schema.Boolean
})
export const Imported = Schema.Struct({
  status: Schema.Literal("success"),
  character_name: Str,
  source_format: Str,
  imported_files: Schema.Array(Str),
  added_persona: Schema.Number,
  added_facts: Schema.Number,
  skipped_duplicates: Schema.Number,
  warning_count: Schema.Number
})
export const Released = Schema.Struct({
  status: Schema.Literal("success"),
  character_name: Str,
  cancelled_derived_tasks: Schema.Number,
  derived_task_claim_token: Str
})
export const Reloaded = Schema.Struct({ status: Schema.Literal("success"), message: Str })
export const RecentFiles = Schema.Struct({ files: Schema.Array(Str) })
export const Renamed = Schema.Union(
  Schema.Struct({
    success: Schema.Literal(true),
    memory_renamed: Schema.Literal(true),
    memory_server_reloaded: Schema.Literal(true)
  }),
  Schema.Struct({
    success: Schema.Literal(true),
    changed: Schema.Literal(false),
    exists_after: Schema.Literal(true),
    already_renamed: Schema.Literal(true)
  })
)
/** The whole `persona.json` object, or the OpenAPI document: any JSON object. */
export const JsonObject = Open

/** What an error answer may carry: FastAPI's `detail` (a string, or the 422 list), kioku's and N.E.K.O.'s fields. */
export const ErrorAnswer = Schema.Struct({
  detail: Schema.optional(
    Schema.Union(Str, Schema.Array(Schema.Struct({ type: Str, loc: Schema.Array(Str), msg: Str })))
  ),
  status: Schema.optional(Str),
  message: Schema.optional(Str),
  error: Schema.optional(Str),
  error_code: Schema.optional(Str),
  code: Schema.optional(Str),
  success: Schema.optional(Schema.Boolean),
  ok: Schema.optional(Schema.Boolean)
})
export type ErrorAnswer = typeof ErrorAnswer.Type
