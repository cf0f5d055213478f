/**
 * When the last memory request arrived, so background loops can tell whether the process is idle.
 */
import { Clock, Context, Effect, Layer, Ref } from "effect"

export class Activity extends Context.Tag("app/maintenance/Activity")<
  Activity,
  { readonly touch: Effect.Effect<void>; readonly idleFor: Effect.Effect<number> }
>() {
  static readonly layer = Layer.effect(
    Activity,
    Effect.gen(function* () {
      const last = yield* Ref.make(yield* Clock.currentTimeMillis)
      return {
        touch: Clock.currentTimeMillis.pipe(Effect.flatMap((now) => Ref.set(last, now))),
        idleFor: Effect.zipWith(Clock.currentTimeMillis, Ref.get(last), (now, at) => now - at)
      }
    })
  )
}
