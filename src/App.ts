/**
 * The only place that wires live layers together: settings → app files, tokenizer, chat port (per tier a GGUF
 * file served in process, a configured OpenAI-compatible endpoint, else the local provider), memory tasks,
 * recent compressor, embedder (ONNX unless vectors are off) → registry → memory service, plus the runtime status
 * and the memory-root lock (in cluster mode: the cluster runner, its entity handlers and a routing memory service
 * instead of the lock). The maintenance loops and the embedding warm-up start only once startup recovery
 * completes `Recovered`. Server and library both build on `appLayer`; a host clock, when given, is installed
 * under everything (`Layer.setClock`), so every actor reads it.
 */
import { Effect, Layer, type Clock } from "effect"
import { CharacterRegistry } from "./character/CharacterRegistry.js"
import { OutboxHandlers } from "./runtime/OutboxHandlers.js"
import type { LlmClient } from "./llm/LlmClient.js"
import type { Embedder } from "./vectors/Embedder.js"
import * as OnnxEmbedder from "./vectors/OnnxEmbedder.js"
import { ChineseScript } from "./domain/ChineseScript.js"
import { memoryTasks } from "./character/MemoryTasks.js"
import { ProvidersLive } from "./llm/Providers.js"
import { Tokenizer } from "./llm/Tokenizer.js"
import { RecentCompressor } from "./recent/RecentCompressor.js"
import { KiokuConfig, type KiokuSettings } from "./Config.js"
import { Activity } from "./maintenance/Activity.js"
import { MaintenanceLive } from "./maintenance/Maintenance.js"
import { DueWork } from "./maintenance/DueWork.js"
import { MemoryService } from "./MemoryService.js"
import { Recovered, RuntimeStatus, type Phase } from "./RuntimeStatus.js"
import { DerivedClaims } from "./runtime/DerivedClaims.js"
import { CharacterRelease } from "./character/lifecycle/Release.js"
import { AppFiles } from "./store/AppFiles.js"
import { TrustService } from "./trust/TrustService.js"
import * as RootLock from "./store/RootLock.js"
import type { ClusterOptions, ClusterSetupError } from "./cluster/Options.js"
import type { SocketServerError } from "@effect/platform/SocketServer"

export interface AppOptions {
  readonly settings: KiokuSettings
  readonly startBlocked?: boolean | undefined
  /** Replaces the chat-completions port (tests use the scripted provider). */
  readonly llm?: Layer.Layer<LlmClient> | undefined
  /** Replaces the whole recent compressor (tests that need to hold a compression in flight). */
  readonly compressor?: Layer.Layer<RecentCompressor> | undefined
  readonly tokenizer?: Layer.Layer<Tokenizer> | undefined
  /** Replaces the embedding port (default: ONNX, or `Embedder.Disabled` when `vectors_enabled` is off). */
  readonly embedder?: Layer.Layer<Embedder> | undefined
  /** Runs the background maintenance loops (default true; tests that step the clock turn them off). */
  readonly maintenance?: boolean | undefined
  /** Replaces Effect's `Clock` for everything the layer builds and runs (the library's host clock). */
  readonly clock?: Clock.Clock | undefined
  /** Runs as one runner of a cluster (src/cluster): no memory-root lock, characters owned per shard. */
  readonly cluster?: ClusterOptions | undefined
}

export const appLayer = (options: AppOptions) => {
  const config = Layer.succeed(KiokuConfig, options.settings)
  const initial: Phase = options.startBlocked
    ? { _tag: "blocked", reason: "startup_blocked" }
    : { _tag: "initializing" }
  const tokenizer = options.tokenizer ?? Tokenizer.layer
  const tasks = memoryTasks.pipe(
    Layer.provide(options.llm ?? ProvidersLive),
    Layer.provideMerge(ChineseScript.layer),
    Layer.provideMerge(tokenizer)
  )
  const compressor = (options.compressor ?? RecentCompressor.layer).pipe(Layer.provideMerge(tasks))
  const embedder = options.embedder ?? OnnxEmbedder.fromSettings(options.settings).pipe(Layer.provide(config))
  const ports = Layer.mergeAll(
    AppFiles.layer,
    OutboxHandlers.Default,
    DerivedClaims.layer,
    compressor,
    embedder,
    DueWork.layer
  )
  const registry = CharacterRegistry.layer.pipe(Layer.provideMerge(ports))
  const registryAndActivity = Layer.merge(registry, Activity.layer)
  const loops = options.maintenance === false ? Layer.empty : MaintenanceLive
  const core = <E, R>(service: Layer.Layer<MemoryService, E, R>) =>
    Layer.mergeAll(
      Layer.merge(service, loops),
      RuntimeStatus.layer(initial),
      CharacterRelease.layer,
      TrustService.Default
    ).pipe(Layer.provideMerge(registryAndActivity), Layer.provideMerge(Recovered.layer))
  // Loaded only when a runner starts: single-process mode never evaluates the cluster modules.
  const clustered = (cluster: ClusterOptions) =>
    Layer.unwrapEffect(
      Effect.map(
        Effect.promise(() => import("./cluster/ClusterRuntime.js")),
        (m) => core(m.clusterService).pipe(Layer.provideMerge(m.clusterInfra(cluster, options.settings.dataDir)))
      )
    )
  const single = core(MemoryService.layer).pipe(Layer.provide(RootLock.RootHolder.layer(options.settings.dataDir)))
  const runtime: Layer.Layer<
    Layer.Layer.Success<typeof single>,
    Layer.Layer.Error<typeof single> | ClusterSetupError | SocketServerError,
    KiokuConfig
  > = options.cluster === undefined ? single : clustered(options.cluster)
  const app = runtime.pipe(Layer.provideMerge(config))
  return options.clock === undefined ? app : app.pipe(Layer.provideMerge(Layer.setClock(options.clock)))
}
