/**
 * The only place that wires live layers together: settings → app files → ports → registry → memory service,
 * plus the runtime status and the memory-root lock. Both the server and the library build on `appLayer`.
 */
import { Layer } from "effect"
import { CharacterRegistry } from "./actor/CharacterRegistry.js"
import { OutboxHandlers, SettleWork } from "./actor/Ports.js"
import { KiokuConfig, type KiokuSettings } from "./Config.js"
import { MemoryService } from "./MemoryService.js"
import { RuntimeStatus, type Phase } from "./RuntimeStatus.js"
import { AppFiles } from "./store/AppFiles.js"
import * as RootLock from "./store/RootLock.js"

export interface AppOptions {
  readonly settings: KiokuSettings
  readonly startBlocked?: boolean | undefined
  /** Replaces the default settle work and outbox handlers (tests, later layers). */
  readonly work?: Layer.Layer<SettleWork | OutboxHandlers> | undefined
}

export const appLayer = (options: AppOptions) => {
  const config = Layer.succeed(KiokuConfig, options.settings)
  const lock = Layer.scopedDiscard(RootLock.acquire(options.settings.dataDir))
  const initial: Phase = options.startBlocked
    ? { _tag: "blocked", reason: "startup_blocked" }
    : { _tag: "initializing" }
  const ports = Layer.merge(AppFiles.layer, options.work ?? Layer.merge(SettleWork.None, OutboxHandlers.Default))
  const registry = CharacterRegistry.layer.pipe(Layer.provideMerge(ports))
  const memory = MemoryService.layer.pipe(Layer.provideMerge(registry))
  return Layer.mergeAll(memory, RuntimeStatus.layer(initial)).pipe(Layer.provideMerge(lock), Layer.provideMerge(config))
}
