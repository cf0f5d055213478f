/**
 * Whether the runtime serves requests: `blocked` (waiting for an operator to continue), `initializing`
 * (startup recovery running) or `ready`. While not ready, the HTTP layer answers N.E.K.O.'s 409
 * `storage_startup_blocked` for every route except `/health` and the startup control routes. `Recovered`
 * completes once startup recovery has run; background work (maintenance loops, embedding warm-up) waits for it.
 */
import { Context, Deferred, Effect, Layer, Ref } from "effect"

export type Phase =
  | { readonly _tag: "blocked"; readonly reason: string }
  | { readonly _tag: "initializing" }
  | { readonly _tag: "ready" }
  | { readonly _tag: "reblocked"; readonly reason: string }

export class RuntimeStatus extends Context.Tag("app/RuntimeStatus")<RuntimeStatus, Ref.Ref<Phase>>() {
  static readonly layer = (initial: Phase) => Layer.effect(RuntimeStatus, Ref.make(initial))
}

export class Recovered extends Context.Tag("app/Recovered")<Recovered, Deferred.Deferred<void>>() {
  static readonly layer = Layer.effect(Recovered, Deferred.make<void>())
}

export const blockingReason = (phase: Phase): string | undefined =>
  phase._tag === "ready"
    ? undefined
    : phase._tag === "initializing"
      ? "runtime_initializing"
      : phase._tag === "reblocked"
        ? "storage_startup_blocked_after_init"
        : phase.reason

export const isReady = Effect.flatMap(RuntimeStatus, (ref) => Ref.get(ref)).pipe(Effect.map((p) => p._tag === "ready"))
