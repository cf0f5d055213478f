/**
 * The embeddable library: `createMemoryRuntime` starts the same supervisor the server uses inside a host
 * process and exposes the memory operations as promises with typed inputs and outputs. A failed operation
 * rejects with the typed error itself (`InvalidCharacterName`, `StoreError`, `ActorDefect`, `RootLocked`,
 * `ClusterSetupError`). With `cluster`, the process is one runner of a cluster (docs/scaling.md).
 */
import { Cause, Effect, Either, Exit, Layer, Logger, LogLevel, ManagedRuntime, Option } from "effect"
import type { CharacterStatus, MaintenanceReport } from "./character/Commands.js"
import { appLayer } from "./App.js"
import { parseClusterOptions } from "./cluster/Options.js"
import { loadSettings, parseLogLevel } from "./Config.js"
import { makeHostClock, type HostClock } from "./HostClock.js"
import { MemoryService, type ReadInput, type WriteInput } from "./MemoryService.js"
import * as Startup from "./Startup.js"
import type { Tunables } from "./Tunables.js"
import { storedCode } from "./character/locale/PromptLocale.js"
import { normaliseLanguage } from "./domain/Locale.js"
import type { QueryRequest, QueryResult, RecallRow } from "./recall/RecallTypes.js"

export type {
  CharacterStatus,
  HostClock,
  MaintenanceReport,
  QueryRequest,
  QueryResult,
  ReadInput,
  RecallRow,
  Tunables,
  WriteInput
}
export {
  recallMemoryTool,
  recallMemoryToolFor,
  renderRecallBlock,
  renderToolAnswer,
  type RecallMemoryTool,
  type RenderedBlock
} from "./recall/RecallRender.js"
export { makeHostClock }

export interface MemoryRuntimeOptions {
  /** The memory root (N.E.K.O.'s `<app>/memory`); `config/` beside it holds core_config.json. */
  readonly dataDir: string
  /** Tunable overrides (neko-compat §3 names in snake_case). */
  readonly config?: Partial<Tunables>
  readonly configFile?: string
  /** Minimum level of the runtime's own logs (default "warning": a host process keeps its console). */
  readonly logLevel?: "debug" | "info" | "warning" | "error" | "none"
  /**
   * The clock every timestamp is read from (journal, time index, facts, reflections, persona): a clock from
   * `makeHostClock(millis)` that the host moves with `setTime`, e.g. to replay dated conversations. Default:
   * the system clock.
   */
  readonly clock?: HostClock
  /** Runs the maintenance loops in the background (default true); off, the host drives `maintainNow`. */
  readonly backgroundMaintenance?: boolean
  /**
   * Joins a cluster as one runner (docs/scaling.md) instead of locking `dataDir` for this process alone:
   * `runnerAddress` is `HOST:PORT` where the other runners reach this one, `shardDb` is `sqlite:PATH` or
   * `postgres://…`. Each operation then runs on the runner that owns the character's shard.
   */
  readonly cluster?: { readonly runnerAddress: string; readonly shardDb: string }
}

export interface MemoryRuntime {
  readonly cache: (name: string, input: WriteInput) => Promise<{ readonly status: "cached"; readonly count: number }>
  readonly process: (name: string, input: WriteInput) => Promise<{ readonly status: "processed" }>
  readonly renew: (name: string, input: WriteInput) => Promise<{ readonly status: "processed" }>
  readonly settle: (name: string, input: WriteInput) => Promise<{ readonly status: "settled" }>
  readonly newDialog: (name: string, input?: ReadInput) => Promise<string>
  readonly recentHistory: (name: string, input?: ReadInput) => Promise<string>
  readonly lastConversationGap: (name: string) => Promise<number>
  /** The character's durable prompt language (N.E.K.O. code, `zh-CN` for Simplified Chinese) or null. */
  readonly promptLocale: (name: string) => Promise<{ readonly language: string | null; readonly order: number | null }>
  /** Sets the durable prompt language; rejects an unsupported code. */
  readonly setPromptLocale: (
    name: string,
    language: string
  ) => Promise<{ readonly language: string; readonly previousLanguage: string | null; readonly changed: boolean }>
  readonly status: (name: string) => Promise<CharacterStatus>
  /** Resolves once no recent-memory compression or review is in flight for the character. */
  readonly awaitBackground: (name: string) => Promise<void>
  /** Runs every due maintenance job of the character now (outbox, extraction, compression). */
  readonly maintainNow: (name: string) => Promise<MaintenanceReport>
  /**
   * Hybrid recall, as `POST /query_memory` answers it (`query` and/or `time`, optional `subjects`); a failed
   * recall resolves with `error_code: "hybrid_recall_failed"`, an invalid name rejects.
   */
  readonly queryMemory: (name: string, input: QueryRequest) => Promise<QueryResult>
  /**
   * The `recall_memory` tool's answer text for `input` (header, numbered lines, budgets of neko-compat §1.9),
   * in `input.language` (else English).
   */
  readonly recallText: (name: string, input: QueryRequest) => Promise<string>
  /** Cancels a recent-history review in flight, as `/cancel_correction` does. */
  readonly cancelCorrection: (name: string) => Promise<{ readonly status: "cancelled" | "no_task" }>
  /** Stops every actor and releases the memory root. */
  readonly close: () => Promise<void>
}

export const createMemoryRuntime = async (options: MemoryRuntimeOptions): Promise<MemoryRuntime> => {
  const settings = await Effect.runPromise(
    loadSettings({ dataDir: options.dataDir, configFile: options.configFile, overrides: options.config })
  )
  const level = Option.getOrElse(parseLogLevel(options.logLevel ?? "warning"), () => LogLevel.Warning)
  const cluster =
    options.cluster === undefined ? undefined : Either.getOrThrowWith(parseClusterOptions(options.cluster), (e) => e)
  const runtime = ManagedRuntime.make(
    appLayer({ settings, clock: options.clock, maintenance: options.backgroundMaintenance, cluster }).pipe(
      Layer.orDie,
      Layer.provideMerge(Logger.minimumLogLevel(level))
    )
  )
  const settle = async <A, E>(effect: Effect.Effect<A, E, ManagedRuntime.ManagedRuntime.Context<typeof runtime>>) => {
    const exit = await runtime.runPromiseExit(effect)
    if (Exit.isSuccess(exit)) return exit.value
    throw Cause.squash(exit.cause)
  }
  try {
    await settle(Startup.recover)
  } catch (e) {
    await runtime.dispose()
    throw e
  }
  const run = <A, E>(f: (m: typeof MemoryService.Service) => Effect.Effect<A, E>) =>
    settle(Effect.flatMap(MemoryService, f))
  return {
    cache: (name, input) => run((m) => m.write("cache", name, input)).then((count) => ({ status: "cached", count })),
    process: (name, input) => run((m) => m.write("process", name, input)).then(() => ({ status: "processed" })),
    renew: (name, input) => run((m) => m.write("renew", name, input)).then(() => ({ status: "processed" })),
    settle: (name, input) => run((m) => m.write("settle", name, input)).then(() => ({ status: "settled" })),
    newDialog: (name, input) => run((m) => m.newDialog(name, input)),
    recentHistory: (name, input) => run((m) => m.recentHistory(name, input)),
    lastConversationGap: (name) => run((m) => m.lastConversationGap(name)),
    promptLocale: (name) =>
      run((m) => m.promptLocale(name)).then((s) => ({
        language: Option.getOrNull(Option.map(s.language, storedCode)),
        order: Option.getOrNull(s.order)
      })),
    setPromptLocale: (name, raw) => {
      const language = normaliseLanguage(raw)
      if (language === undefined) return Promise.reject(new Error(`unsupported language: ${raw}`))
      return run((m) => m.setPromptLocale(name, language)).then((c) => ({
        language: storedCode(c.language),
        previousLanguage: Option.getOrNull(Option.map(c.previous, storedCode)),
        changed: c.changed
      }))
    },
    status: (name) => run((m) => m.status(name)),
    awaitBackground: (name) => run((m) => m.awaitBackground(name)),
    maintainNow: (name) => run((m) => m.maintainNow(name)),
    queryMemory: (name, input) => run((m) => m.queryMemory(name, input)),
    recallText: (name, input) => run((m) => m.recallText(name, input)),
    cancelCorrection: (name) => run((m) => m.cancelCorrection(name)).then((status) => ({ status })),
    close: () => runtime.dispose()
  }
}
