/**
 * Model calls made from inside a character's exclusive section. A background job of a character actor holds
 * that section (no mailbox batch runs meanwhile) and lends it out for as long as it waits for a model, so
 * chat commands keep flowing during slow or failing provider calls. When the answer arrives the job takes the
 * section back; if records the call was computed from were changed meanwhile, the answer is dropped as a
 * `superseded` failure and the job's ordinary failure path (retry, backoff, dead letter) applies.
 */
import { Effect, FiberRef, Option } from "effect"
import { LlmError } from "./LlmClient.js"

export interface Section {
  /** Leaves the section when the current fiber holds it; the token says what was current on leaving. */
  readonly leave: Effect.Effect<Option.Option<number>>
  /** Takes the section back after `leave`. */
  readonly enter: Effect.Effect<void>
  /** True when reflections or persona entries were written after the token was taken. */
  readonly changedSince: (token: number) => boolean
}

export const CurrentSection = FiberRef.unsafeMake<Option.Option<Section>>(Option.none())

/**
 * Runs a model call outside the current fiber's section, if it holds one. `watchesRecords` marks calls whose
 * answer rests on reflections or persona entries read before the call.
 */
export const outside = <A>(
  task: string,
  call: Effect.Effect<A, LlmError>,
  watchesRecords: boolean
): Effect.Effect<A, LlmError> =>
  Effect.flatMap(FiberRef.get(CurrentSection), (current) => {
    if (Option.isNone(current)) return call
    const section = current.value
    return Effect.flatMap(section.leave, (token) => {
      if (Option.isNone(token)) return call
      return Effect.interruptible(call).pipe(
        Effect.ensuring(section.enter),
        Effect.filterOrFail(
          () => !(watchesRecords && section.changedSince(token.value)),
          () => new LlmError({ task, reason: "superseded", message: "records changed while the model answered" })
        )
      )
    })
  })
