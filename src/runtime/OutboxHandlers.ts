/**
 * The outbox op handlers the character actor calls; later layers (fact extraction) supply real work.
 */
import { Context, Effect, Layer, Schema } from "effect"
import type { CharacterName } from "../domain/CharacterName.js"
import type { OutboxOp } from "../store/Outbox.js"

export class HandlerFailed extends Schema.TaggedError<HandlerFailed>()("HandlerFailed", {
  type: Schema.String,
  message: Schema.String
}) {}

/** `extract_facts` is acknowledged without work until fact extraction exists; unknown types fail. */
export class OutboxHandlers extends Context.Tag("app/actor/OutboxHandlers")<
  OutboxHandlers,
  { readonly run: (name: CharacterName, op: OutboxOp) => Effect.Effect<void, HandlerFailed> }
>() {
  static readonly Default = Layer.succeed(OutboxHandlers, {
    run: (_name, op) =>
      op.type === "extract_facts"
        ? Effect.void
        : Effect.fail(new HandlerFailed({ type: op.type, message: `no handler for outbox op ${op.type}` }))
  })
}
