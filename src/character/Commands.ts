/**
 * The commands a character actor accepts. Request commands carry their caller's reply; internal ones
 * (settles, outbox drains, checkpoints, compression results and retries, idle checks) are sent by the
 * actor's own background fibers.
 */
import type { Option } from "effect"
import type { Language } from "../domain/Locale.js"
import type { StoredMessage } from "../domain/Message.js"
import type { Reflection } from "../reflection/Reflection.js"
import type { PersonaFile } from "../persona/Persona.js"
import type { ManualAction, ManualKind, ManualResult } from "./ManualActions.js"
import type { EditKind, EditResult } from "./EntryEdit.js"
import type { FunnelCounts } from "./Funnel.js"
import type { LocaleChange, LocaleState } from "./locale/PromptLocale.js"
import type { ImportOutcome, ImportRequest } from "../facts/ExternalImport.js"
import type { QueryRequest, QueryResult } from "../recall/RecallTypes.js"
import type { StoreError } from "../store/DurableFs.js"
import type * as Actor from "../runtime/Actor.js"
import type { RecentCommand } from "../recent/RecentCommands.js"
import type { ScopedCommand } from "../scoped/ScopedCommands.js"
import type { DueReport } from "../maintenance/DueWork.js"

export type WriteKind = "cache" | "process" | "renew" | "settle"

export interface WriteRequest {
  readonly kind: WriteKind
  readonly messages: ReadonlyArray<StoredMessage>
  readonly language: Option.Option<Language>
}

export interface CharacterStatus {
  readonly exists: boolean
  readonly session: string
  /** The recent-memory lifecycle's state (machines/recent.ts). */
  readonly recent: string
  readonly recentDegraded: Option.Option<string>
  readonly recentPending: number
  readonly unappliedEvents: number
  readonly pendingOps: number
  readonly compressing: boolean
  readonly items: number
  /** Whether the actor holds SQLite handles, and decoded views (IdleRelease.ts releases both when idle). */
  readonly handlesOpen: boolean
  readonly viewsHeld: boolean
}

export interface MaintenanceReport {
  readonly character: string
  readonly outboxOps: number
  readonly factsAdded: number
  readonly factsMerged: number
  readonly reflectionsAdded: number
  readonly reflectionsChanged: number
  /** Records whose sub-zero tally advanced or that were archived by the evidence sweep. */
  readonly evidenceSwept: number
  readonly compressed: boolean
}

export interface ReadLanguage {
  readonly language: Option.Option<Language>
  readonly renderLanguage: Option.Option<Language>
}

type Reply<A> = Actor.Reply<A, StoreError>

export type Command =
  | RecentCommand
  | ScopedCommand
  | { readonly _tag: "Write"; readonly request: WriteRequest; readonly reply: Reply<number> }
  | { readonly _tag: "NewDialog"; readonly lang: ReadLanguage; readonly reply: Reply<string> }
  | { readonly _tag: "RecentHistory"; readonly lang: ReadLanguage; readonly reply: Reply<string> }
  | { readonly _tag: "Gap"; readonly reply: Reply<number> }
  | { readonly _tag: "GetPromptLocale"; readonly reply: Reply<LocaleState> }
  | { readonly _tag: "SetPromptLocale"; readonly language: Language; readonly reply: Reply<LocaleChange> }
  | { readonly _tag: "Status"; readonly reply: Reply<CharacterStatus> }
  | { readonly _tag: "AwaitBackground"; readonly reply: Reply<void> }
  | { readonly _tag: "DueReport"; readonly reply: Reply<DueReport> }
  | { readonly _tag: "SettleDone" }
  | { readonly _tag: "DrainOutbox" }
  | { readonly _tag: "Checkpoint" }
  | { readonly _tag: "ReleaseHandles" }
  | { readonly _tag: "SignalTick"; readonly reply?: Reply<void> }
  | { readonly _tag: "IdleMaintenance"; readonly reply?: Reply<void> }
  | { readonly _tag: "ArchiveSweep"; readonly reply?: Reply<void> }
  | { readonly _tag: "EvidenceSweep" }
  | { readonly _tag: "RebuttalTick"; readonly reply?: Reply<void> }
  | { readonly _tag: "ResolveCorrections" }
  | { readonly _tag: "VectorBackfill"; readonly reply?: Reply<void> }
  | {
      readonly _tag: "ManualAction"
      readonly kind: ManualKind
      readonly id: string
      readonly action: ManualAction
      readonly reply: Reply<ManualResult>
    }
  | {
      readonly _tag: "EntryEdit"
      readonly kind: EditKind
      readonly id: string
      readonly text: string
      readonly reply: Reply<EditResult>
    }
  | { readonly _tag: "ImportMarkdown"; readonly request: ImportRequest; readonly reply: Reply<ImportOutcome> }
  | { readonly _tag: "GetPersona"; readonly reply: Reply<PersonaFile> }
  | { readonly _tag: "GetSettings"; readonly lang: ReadLanguage; readonly reply: Reply<string> }
  | { readonly _tag: "EvaluateReflections"; readonly reply?: Reply<void> }
  | { readonly _tag: "ResetConfirmedAt"; readonly reply: Reply<number> }
  | { readonly _tag: "Followups"; readonly reply: Reply<ReadonlyArray<Reflection>> }
  | { readonly _tag: "RecordSurfaced"; readonly ids: ReadonlyArray<string>; readonly reply: Reply<void> }
  | { readonly _tag: "Funnel"; readonly since: number; readonly until: number; readonly reply: Reply<FunnelCounts> }
  | {
      readonly _tag: "Synthesize"
      /** For callers that want the new reflection (`/reflect`). */
      readonly reply?: Reply<Option.Option<Reflection>>
      /** For the scheduler, which only waits for the job. */
      readonly done?: Reply<void>
    }
  | { readonly _tag: "MaintainNow"; readonly reply: Reply<MaintenanceReport> }
  | { readonly _tag: "QueryMemory"; readonly input: QueryRequest; readonly reply: Reply<QueryResult> }
