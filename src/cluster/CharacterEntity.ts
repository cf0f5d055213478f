/**
 * The character as an `@effect/cluster` entity keyed by `lanlan_name`: one RPC per memory operation that names
 * a character, with schemas for every payload, answer and error, so a gateway on any runner can send the
 * operation to the runner that owns the character's shard. `Maintain` carries one background loop's tick.
 */
import { Entity } from "@effect/cluster"
import { Rpc } from "@effect/rpc"
import { AlreadyProcessingMessage, MailboxFull, PersistenceError } from "@effect/cluster/ClusterError"
import { Effect, Schema } from "effect"
import { ActorDefect } from "../runtime/Actor.js"
import { CharacterBusy } from "../character/CharacterRegistry.js"
import { InvalidCharacterName } from "../domain/CharacterName.js"
import { StoredMessage } from "../domain/Message.js"
import { PersonaFile } from "../persona/Persona.js"
import { QueryRequest, QueryResult } from "../recall/RecallTypes.js"
import { Reflection } from "../reflection/Reflection.js"
import { StoreError } from "../store/DurableFs.js"
import { MaintenanceReport } from "../api/Schemas.js"
import { LoopName } from "../maintenance/policies.js"
import { LocaleChange, LocaleState } from "../character/locale/PromptLocale.js"
import { languages } from "../domain/Locale.js"
import { ImportOutcome, ImportRequest } from "../facts/ExternalImport.js"
import { ScopedForgetStats, SubjectSchema, SubjectWriteSchema, WrittenSchema } from "../scoped/ScopedCommands.js"
import { OwnerSignalJobSchema, OwnerSignalsAnswer } from "../scoped/ScopedCommands.js"

const Lang = Schema.optional(Schema.NullOr(Schema.String))
const ReadInput = { language: Lang, renderLanguage: Lang }
const MemoryError = Schema.Union(InvalidCharacterName, StoreError, ActorDefect)

export const CharacterStatus = Schema.Struct({
  exists: Schema.Boolean,
  session: Schema.String,
  recent: Schema.String,
  recentDegraded: Schema.Option(Schema.String),
  recentPending: Schema.Number,
  unappliedEvents: Schema.Number,
  pendingOps: Schema.Number,
  compressing: Schema.Boolean,
  items: Schema.Number,
  handlesOpen: Schema.Boolean,
  viewsHeld: Schema.Boolean
})

export const RecentSnapshot = Schema.Struct({
  content: Schema.String,
  pathKey: Schema.String,
  generation: Schema.String
})

const SaveRecentOutcome = Schema.Union(
  Schema.TaggedStruct("Saved", { snapshot: RecentSnapshot }),
  Schema.TaggedStruct("Conflict", { current: Schema.Option(RecentSnapshot) }),
  Schema.TaggedStruct("Unwritable", { message: Schema.String })
)

const ManualResult = Schema.Union(
  Schema.TaggedStruct("Changed", { status: Schema.String }),
  Schema.TaggedStruct("NotFound", {}),
  Schema.TaggedStruct("NotAllowed", { status: Schema.String })
)

const EditResult = Schema.Union(
  Schema.TaggedStruct("Edited", { id: Schema.String, text: Schema.String }),
  Schema.TaggedStruct("NotFound", {}),
  Schema.TaggedStruct("ReadOnly", {})
)

const FunnelCounts = Schema.Struct({
  facts_added: Schema.Number,
  reflections_synthesized: Schema.Number,
  reflections_confirmed: Schema.Number,
  reflections_promoted: Schema.Number,
  reflections_merged: Schema.Number,
  reflections_denied: Schema.Number,
  reflections_archived: Schema.Number,
  persona_entries_added: Schema.Number,
  persona_entries_rewritten: Schema.Number,
  persona_entries_archived: Schema.Number
})

const op = <const Tag extends string, P extends Schema.Struct.Fields, S extends Schema.Schema.Any>(
  tag: Tag,
  payload: P,
  success: S
) => Rpc.make(tag, { payload, success, error: MemoryError })

export const Character = Entity.make("Character", [
  op(
    "Write",
    {
      kind: Schema.Literal("cache", "process", "renew", "settle"),
      messages: Schema.Array(Schema.Unknown),
      language: Lang
    },
    Schema.Number
  ),
  op("NewDialog", ReadInput, Schema.String),
  op("RecentHistory", ReadInput, Schema.String),
  op("Gap", {}, Schema.Number),
  op("PromptLocale", {}, LocaleState),
  op("SetPromptLocale", { language: Schema.Literal(...languages) }, LocaleChange),
  op("ImportMarkdown", { request: ImportRequest }, ImportOutcome),
  op("ScopedWrite", { writes: Schema.Array(SubjectWriteSchema) }, Schema.Array(WrittenSchema)),
  op(
    "ScopedContext",
    { subjects: Schema.Array(SubjectSchema), language: Schema.optional(Schema.Literal(...languages)) },
    Schema.String
  ),
  op("ScopedMentions", { subjects: Schema.Array(SubjectSchema), text: Schema.String }, Schema.Void),
  op("ScopedTrustSignals", { jobs: Schema.Array(OwnerSignalJobSchema) }, OwnerSignalsAnswer),
  op("ScopedForget", { subject: SubjectSchema }, ScopedForgetStats),
  op("Status", {}, CharacterStatus),
  op("AwaitBackground", {}, Schema.Void),
  op("Followups", {}, Schema.Array(Reflection)),
  op("RecordSurfaced", { ids: Schema.Array(Schema.String) }, Schema.Void),
  op("ResetConfirmedAt", {}, Schema.Number),
  op("Funnel", { since: Schema.Number, until: Schema.Number }, FunnelCounts),
  op("Reflect", {}, Schema.Option(Reflection)),
  op("MaintainNow", {}, MaintenanceReport),
  op("Persona", {}, PersonaFile),
  op("Settings", ReadInput, Schema.String),
  op("QueryMemory", { input: QueryRequest }, QueryResult),
  op(
    "ManualAction",
    {
      kind: Schema.Literal("reflection", "persona", "fact"),
      id: Schema.String,
      action: Schema.Literal("confirm", "deny", "archive", "forget")
    },
    ManualResult
  ),
  op("EditEntry", { kind: Schema.Literal("fact", "persona"), id: Schema.String, text: Schema.String }, EditResult),
  op("CancelCorrection", {}, Schema.Literal("cancelled", "no_task")),
  op("RecentFile", {}, Schema.Option(RecentSnapshot)),
  op("SaveRecent", { expected: RecentSnapshot, items: Schema.Array(StoredMessage) }, SaveRecentOutcome),
  op("Maintain", { loop: LoopName }, Schema.Void),
  /** Moves this character to `to` (the owner of `to` is asked to `Release` it first). */
  Rpc.make("Rename", {
    payload: { to: Schema.String },
    success: Schema.Literal("renamed", "already_renamed", "both_exist", "not_found"),
    error: Schema.Union(MemoryError, CharacterBusy)
  }),
  /** Closes this character's actor on its owner, releasing its ownership lock (for a rename). */
  Rpc.make("Release", { error: CharacterBusy })
])

export type DeliveryError = MailboxFull | AlreadyProcessingMessage | PersistenceError

const isTransport = <E>(e: E | DeliveryError): e is DeliveryError =>
  e instanceof MailboxFull || e instanceof AlreadyProcessingMessage || e instanceof PersistenceError

/** A failure of the cluster's delivery, for the character `name`, as the `ActorDefect` callers already know. */
export const deliveryAsDefect =
  (name: string) =>
  <A, E>(effect: Effect.Effect<A, E | DeliveryError>): Effect.Effect<A, E | ActorDefect> =>
    Effect.catchIf(effect, isTransport, (e) =>
      Effect.fail(new ActorDefect({ actor: name, message: `cluster: ${e._tag}: ${e.message}` }))
    )
